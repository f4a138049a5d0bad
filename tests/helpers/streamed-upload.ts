import { request, type ClientRequest } from "node:http";

const CRLF = "\r\n";

/** One silent MPEG-1 Layer III frame (128 kbps, 44.1 kHz, mono): repeated, a valid MP3 of any size. */
export function silentMp3Frame(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc0]);
  return frame;
}

export interface StreamedUpload {
  /** The request, to cut it off mid-body (destroy) in a test. */
  request: ClientRequest;
  /** Resolves once the whole body was handed to the socket (rejects if the request fails before). */
  sent: Promise<void>;
  response: Promise<{ status: number; body: string }>;
}

/**
 * Posts a multipart form whose audio part is `audioBytes` of silent MP3 frames, generated
 * while sending: neither this process nor the test holds the file. `stopAfter` sends only
 * that many audio bytes and then waits (for a test that cuts the upload off).
 */
export function postStreamedEpisode(
  url: string,
  cookie: string,
  fields: Record<string, string>,
  cover: Buffer | null,
  audioBytes: number,
  options: { stopAfter?: number } = {},
): StreamedUpload {
  const boundary = `----spin-test-${Date.now().toString(36)}`;
  const head = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) =>
      Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`),
    ),
    ...(cover
      ? [
          Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="cover"; filename="cover.jpg"${CRLF}Content-Type: image/jpeg${CRLF}${CRLF}`),
          cover,
          Buffer.from(CRLF),
        ]
      : []),
    Buffer.from(`--${boundary}${CRLF}Content-Disposition: form-data; name="audio"; filename="episode.mp3"${CRLF}Content-Type: audio/mpeg${CRLF}${CRLF}`),
  ]);
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`);
  const target = new URL("/episodes-admin", url);
  const req = request(target, {
    method: "POST",
    headers: {
      Cookie: cookie,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + audioBytes + tail.length),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
  // 1 MB of whole frames at a time; the last chunk is cut to the exact size.
  const frame = silentMp3Frame();
  const block = Buffer.concat(Array.from({ length: Math.floor((1024 * 1024) / frame.length) }, () => frame));
  const sent = (async () => {
    const write = (chunk: Buffer) =>
      new Promise<void>((resolve, reject) => {
        if (req.destroyed) return reject(new Error("request destroyed"));
        req.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
    await write(head);
    const limit = Math.min(audioBytes, options.stopAfter ?? audioBytes);
    for (let written = 0; written < limit;) {
      const chunk = block.subarray(0, Math.min(block.length, limit - written));
      await write(chunk);
      written += chunk.length;
    }
    if (options.stopAfter !== undefined && options.stopAfter < audioBytes) return;
    await write(tail);
    req.end();
  })();
  // The response may come (or the request fail) before the body is all sent; `sent` is for callers that care.
  sent.catch(() => {});
  return { request: req, sent, response };
}
