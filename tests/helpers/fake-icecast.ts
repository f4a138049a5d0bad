import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A hostile stream upstream on loopback: an HTTP server speaking Icecast's two protocols the
 * station reads (`/status-json.xsl` and an ICY stream with `icy-metaint`), whose answers the test
 * picks and changes while the station follows it: huge, endless, flooding, redirecting or malformed.
 * Next to tests/helpers/icecast.ts (the real Icecast), which behaves.
 */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FakeIcecast {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The stream the station is pointed at: `${url}/live`. */
  streamUrl: string;
  /** What `/status-json.xsl` answers (default: 404, no Icecast status). */
  status: Handler;
  /** What `/live` answers (default: an ICY stream with no title). */
  stream: Handler;
  /** Other paths the test serves (say, the target of a redirect within the origin). */
  routes: Map<string, Handler>;
  /** Every request's path, in order. */
  requests: string[];
  /** Bytes written to responses so far, all paths together. */
  bytesSent(): number;
  close(): Promise<void>;
}

export async function startFakeIcecast(): Promise<FakeIcecast> {
  const requests: string[] = [];
  let sent = 0;
  const sockets = new Set<import("node:net").Socket>();
  const fake: FakeIcecast = {
    url: "",
    streamUrl: "",
    status: (_req, res) => res.writeHead(404).end(),
    stream: icyStream({ title: () => null }),
    routes: new Map(),
    requests,
    bytesSent: () => sent,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    const write = res.write.bind(res);
    res.write = ((chunk: Uint8Array | string, ...rest: never[]) => {
      sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    const handler = path === "/status-json.xsl" ? fake.status : path === "/live" ? fake.stream : fake.routes.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.streamUrl = `${fake.url}/live`;
  return fake;
}

/** Icecast's status-json.xsl listing one mount with `title` (as Icecast 2.4 writes it). */
export function statusJson(listenUrl: string, title: string | (() => string), contentType = "application/json; charset=utf-8"): Handler {
  return (_req, res) => {
    const body = JSON.stringify({
      icestats: { admin: "icemaster@localhost", source: { listenurl: listenUrl, title: typeof title === "function" ? title() : title } },
    });
    res.writeHead(200, { "Content-Type": contentType });
    res.end(body);
  };
}

/**
 * A status-json.xsl whose title is `bytes` long ("A"s), written as fast as the reader takes it
 * and never held whole in memory here; `endless` never finishes it.
 */
export function hugeStatusJson(listenUrl: string, options: { bytes?: number; endless?: boolean }): Handler {
  return (_req, res) => {
    const chunk = Buffer.alloc(64 * 1024, "A");
    let left = options.bytes ?? Infinity;
    res.writeHead(200, { "Content-Type": "application/json" });
    res.write(`{"icestats":{"source":{"listenurl":${JSON.stringify(listenUrl)},"title":"`);
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
      if (!res.destroyed && !options.endless) res.end('"}}}');
    };
    if (options.endless) left = Infinity;
    res.on("close", () => (left = 0));
    pump();
  };
}

/** One ICY metadata block for `text` (length byte in 16-byte units, NUL-padded). */
export function icyBlock(text: string | Buffer): Buffer {
  const bytes = Buffer.concat([Buffer.from("StreamTitle='"), Buffer.from(text), Buffer.from("';")]).subarray(0, 255 * 16);
  const length = Math.ceil(bytes.length / 16);
  return Buffer.concat([Buffer.from([length]), bytes, Buffer.alloc(length * 16 - bytes.length)]);
}

/**
 * An ICY stream: `metaint` bytes of audio (zeros, or the next bytes of `audio` looped), then a
 * metadata block naming `title()`, again and again, one block every `everyMs`; `metaintHeader`
 * sends any icy-metaint header instead.
 */
export function icyStream(options: {
  title: () => string | Buffer | null;
  metaint?: number;
  everyMs?: number;
  metaintHeader?: string;
  audio?: Buffer;
}): Handler {
  const metaint = options.metaint ?? 1024;
  return (req, res) => {
    const wantsMetadata = req.headers["icy-metadata"] === "1";
    res.writeHead(200, {
      "Content-Type": "audio/mpeg",
      ...(wantsMetadata ? { "icy-metaint": options.metaintHeader ?? String(metaint) } : {}),
    });
    const silence = Buffer.alloc(metaint);
    let at = 0;
    const nextAudio = () => {
      if (!options.audio) return silence;
      const piece = Buffer.alloc(metaint);
      for (let filled = 0; filled < metaint;) {
        const copied = options.audio.copy(piece, filled, at, Math.min(options.audio.length, at + metaint - filled));
        filled += copied;
        at = (at + copied) % options.audio.length;
      }
      return piece;
    };
    const tick = () => {
      if (res.destroyed) return;
      const audio = nextAudio();
      const title = options.title();
      res.write(wantsMetadata ? Buffer.concat([audio, title === null ? Buffer.from([0]) : icyBlock(title)]) : audio);
    };
    tick();
    const timer = setInterval(tick, options.everyMs ?? 250);
    res.on("close", () => clearInterval(timer));
  };
}

/** A redirect to `location`. */
export function redirectTo(location: string, status = 302): Handler {
  return (_req, res) => res.writeHead(status, { Location: location }).end();
}
