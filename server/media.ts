import { readFile } from "node:fs/promises";
import { pipeline } from "node:stream";
import type { Request, RequestHandler, Response } from "express";
import { errorText, logger } from "../app/services/log.server";
import { assertSafeKey, InvalidStorageKeyError, type Storage, type StoredObjectInfo } from "../app/services/storage.server";

// Only types a browser can never execute as a document; everything else downloads.
// A Map, not an object literal, so extensions like ".constructor" find nothing.
const CONTENT_TYPES = new Map([
  ["webp", "image/webp"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["png", "image/png"],
  ["avif", "image/avif"],
  ["mp3", "audio/mpeg"],
  ["m4a", "audio/mp4"],
  ["wav", "audio/wav"],
  ["flac", "audio/flac"],
  ["aiff", "audio/aiff"],
  // Episode transcripts (podcast:transcript), as podcast apps expect them.
  ["vtt", "text/vtt"],
  ["srt", "application/x-subrip"],
]);

type ByteRange = { start: number; end: number };

/** One audio answer, once it ended: what the podcast download count reads (app/models/podcast-downloads.server.ts). */
export interface AudioServed {
  key: string;
  method: string;
  /** Bytes of the file written to the client. */
  bytes: number;
  /** Bytes the request asked for: its range, or the whole file. */
  requestedBytes: number;
  req: Request;
}

/**
 * Serves stored objects at `/media/<key>` with ETag, conditional GET and single byte ranges.
 * Mount as `app.get("/media/*", handler)` (Express routes HEAD to GET handlers).
 */
export function createMediaHandler(
  getStorage: () => Storage,
  options: { fallbackImagePath?: string; onAudioServed?: (served: AudioServed) => void } = {},
): RequestHandler {
  // Read once, on the first outage: the bundled picture shown instead of any image storage cannot serve.
  let fallbackImage: Promise<Buffer> | null = null;
  const unavailable = (res: Response, key: string, error: unknown) => {
    const isImage = CONTENT_TYPES.get(/\.([^./]+)$/.exec(key)?.[1] ?? "")?.startsWith("image/");
    if (!isImage || !options.fallbackImagePath) return sendUnavailable(res, error, null);
    fallbackImage ??= readFile(options.fallbackImagePath);
    return sendUnavailable(res, error, fallbackImage);
  };
  return async (req, res) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return sendText(res, 405, "Method not allowed");
    }
    // `/media/*` routes put the key in params[0]; under `app.use("/media")` it is the path.
    const key = parseKey((req.params as Record<string, string | undefined>)[0] ?? req.path.slice(1));
    if (!key) return sendText(res, 404, "Not found");

    let storage: Storage;
    let info: StoredObjectInfo | null;
    try {
      storage = getStorage();
      info = await storage.stat(key);
    } catch (error) {
      return unavailable(res, key, error);
    }
    if (!info) return sendText(res, 404, "Not found");

    const etag = `"${info.etag}"`;
    const lastModified = info.lastModified.toUTCString();
    res.setHeader("ETag", etag);
    res.setHeader("Last-Modified", lastModified);
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Accept-Ranges", "bytes");

    if (isNotModified(req.headers["if-none-match"], req.headers["if-modified-since"], etag, info.lastModified)) {
      res.statusCode = 304;
      res.end();
      return;
    }

    const extension = /\.([^./]+)$/.exec(key)?.[1];
    const contentType = extension ? CONTENT_TYPES.get(extension) : undefined;
    res.setHeader("Content-Type", contentType ?? "application/octet-stream");
    if (!contentType) res.setHeader("Content-Disposition", "attachment");

    const ifRange = req.headers["if-range"];
    const rangeApplies = ifRange === undefined || ifRange === etag || ifRange === lastModified;
    const range = rangeApplies ? parseRange(req.headers.range, info.size) : null;
    if (range === "unsatisfiable") {
      res.setHeader("Content-Range", `bytes */${info.size}`);
      res.setHeader("Cache-Control", "no-store"); // caches key on the URL, not the Range
      return sendText(res, 416, "Range not satisfiable");
    }
    if (range) {
      res.statusCode = 206;
      res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
      res.setHeader("Content-Length", range.end - range.start + 1);
    } else {
      res.statusCode = 200;
      res.setHeader("Content-Length", info.size);
    }
    if (req.method === "HEAD") {
      res.end();
      return;
    }

    let body: NodeJS.ReadableStream;
    try {
      body = await storage.read(key, range ?? undefined);
    } catch (error) {
      return unavailable(res, key, error);
    }
    if (options.onAudioServed && contentType?.startsWith("audio/")) {
      const onAudioServed = options.onAudioServed;
      const requestedBytes = range ? range.end - range.start + 1 : info.size;
      let bytes = 0;
      // Counted as it leaves for the client: an app that hangs up early has fetched only what it got.
      body.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.once("close", () => onAudioServed({ key, method: req.method, bytes, requestedBytes, req }));
    }
    pipeline(body, res, (error) => {
      // A client that goes away mid-download is normal for audio seeking; only log storage faults.
      if (error && (error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") {
        logger.error({ key, error: errorText(error) }, "media: streaming failed");
      }
    });
  };
}

function parseKey(key: string): string | null {
  try {
    assertSafeKey(key);
    return key;
  } catch (error) {
    if (error instanceof InvalidStorageKeyError) return null;
    throw error;
  }
}

function isNotModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, etag: string, lastModified: Date): boolean {
  // RFC 9110: If-None-Match takes precedence, compared weakly. Not Express's `req.fresh`: it
  // never answers 304 to a request carrying `Cache-Control: no-cache`, which fetch() and browsers
  // add to every revalidation they force, so those would always download the whole file again.
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/**
 * A single `bytes=` range clamped to the object, "unsatisfiable" for a 416, or null to send the
 * whole body (no header, a malformed one, or several ranges, which RFC 9110 lets us ignore).
 * Not Express's `req.range()`: range-parser answers a malformed header such as `bytes=abc` or
 * `bytes=9-3` as unsatisfiable (416), where RFC 9110 says to ignore it and send the whole body.
 */
function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/i.exec(header.trim()) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === "") {
    if (last === "") return null;
    const suffixLength = Number(last);
    if (suffixLength === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffixLength), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}

function sendText(res: Response, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

async function sendUnavailable(res: Response, error: unknown, fallbackImage: Promise<Buffer> | null): Promise<void> {
  logger.error({ error: errorText(error) }, "media: storage unavailable");
  // Nothing about the real object may stick: not its validators, and never the year-long caching.
  for (const header of ["ETag", "Last-Modified", "Accept-Ranges", "Content-Range", "Content-Disposition"]) res.removeHeader(header);
  res.setHeader("Cache-Control", "no-store");
  if (!fallbackImage) return sendText(res, 503, "Storage unavailable");
  const body = await fallbackImage;
  res.statusCode = 200;
  res.setHeader("Content-Type", "image/webp");
  res.setHeader("Content-Length", body.length);
  res.end(res.req.method === "HEAD" ? undefined : body);
}
