import { crc32 } from "node:zlib";
import { db } from "~/services/db.server";
import { snapshotChanges, takeSnapshot, type StationSnapshot } from "./snapshot";

// The hostile-input suite's shared corpus and request helpers (tests/hostile-input-*.test.ts).

/** Strings a person could type into any text field; each must be refused or stored as plain text. */
export const XSS = {
  script: '<script>alert("hostile-script")</script>',
  imgOnerror: '"><img src=x onerror=alert("hostile-img")>',
  svgOnload: "<svg onload=alert('hostile-svg')>",
  nested: "<<script>script>alert('hostile-nested')<</script>/script>",
  javascriptUrl: "javascript:alert('hostile-js')",
  bold: "<b>hostile-bold</b>",
} as const;

export const SQL = `'; DROP TABLE "Event"; --`;
export const SQL_OR = `' OR '1'='1`;

/** Control characters PostgreSQL or a page cannot hold (NUL), or that have no business in a name. */
export const CONTROL = {
  nul: "Ann\u0000ie",
  bell: "Bell\u0007",
  escape: "\u001b[31mred",
  delete: "Del\u007f",
} as const;

/** A bare 1×1 PNG. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==", "base64");

/** A PNG whose header claims 60000×60000 pixels (a decompression bomb), with a valid header checksum. */
export function pixelBombPng(): Buffer {
  const png = Buffer.from(TINY_PNG);
  // IHDR data starts at byte 16: width, height; its CRC covers "IHDR" + 13 data bytes.
  png.writeUInt32BE(60_000, 16);
  png.writeUInt32BE(60_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

export const HTML_PAGE = Buffer.from('<!doctype html><html><body><script>alert("hostile-html")</script></body></html>');
export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert("hostile-svg-file")</script><rect width="10" height="10"/></svg>',
);
export const TEXT_FILE = Buffer.from("This is just a text file, not a picture or a sound.\n".repeat(20));
/** GIF magic followed by script: a polyglot that sniffs as an image but is not one. */
export const GIF_POLYGLOT = Buffer.concat([Buffer.from("GIF89a/*"), Buffer.from('*/=1;alert("hostile-polyglot")//'), Buffer.alloc(64, 0x20)]);

/** A real PNG cut off after its header: recognised by its magic bytes, unreadable after that. */
export function truncated(file: Buffer, bytes = 120): Buffer {
  return file.subarray(0, Math.min(bytes, file.length - 1));
}

/** A WAV whose header claims an hour of audio with no samples after it. */
export function lyingWav(): Buffer {
  const header = Buffer.alloc(44);
  const claimed = 3600 * 8000 * 2;
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + claimed, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(claimed, 40);
  return header;
}

// ---------------------------------------------------------------- multipart bodies, built by hand

export interface FilePart {
  data: Buffer;
  filename: string;
  type: string;
}

export type Part = [name: string, value: string | Buffer | FilePart];

const BOUNDARY = "----hostile-input-boundary-7MA4YWxkTrZu0gW";

/** A multipart/form-data body exactly as given: field values may be raw bytes (invalid UTF-8) and filenames may lie. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n`));
    if (typeof value === "string" || Buffer.isBuffer(value)) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from("\r\n"));
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`),
        value.data,
        Buffer.from("\r\n"),
      );
    }
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

export function png(data: Buffer, filename = "picture.png"): FilePart {
  return { data, filename, type: "image/png" };
}

export interface Poster {
  (path: string, body: { body: Buffer | string; contentType: string }, cookie?: string): Promise<Response>;
}

/** Posts like a browser on this site would: same Origin, the given cookie, no redirects followed. */
export function poster(baseUrl: string): Poster {
  return (path, { body, contentType }, cookie = "") =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      body: typeof body === "string" ? body : new Uint8Array(body),
      headers: { "Content-Type": contentType, Origin: baseUrl, ...(cookie ? { Cookie: cookie } : {}) },
      redirect: "manual",
    });
}

export function urlencoded(fields: Record<string, string>): { body: string; contentType: string } {
  return { body: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" };
}

// ---------------------------------------------------------------- what a refusal must look like

// A Node stack frame, a source position, or a dependency path: internals that must never reach a visitor.
const STACK_TRACE = /\n\s+at [\w$.<>[\] ]+ \(|\bat (?:file:|node:)|node_modules|\.(?:ts|tsx|js|mjs):\d+:\d+/;

/** The visible text of an HTML page (tags dropped, entities decoded) or the body as is. */
export function visibleText(body: string): string {
  return body
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Checks a response is a clear client error: 4xx, a message, no internals. Returns the body. */
export async function expectClientError(response: Response, message: string | RegExp, status?: number): Promise<string> {
  const body = await response.text();
  const where = `HTTP ${response.status}: ${visibleText(body).slice(0, 600)}`;
  if (status !== undefined) expect(response.status, where).toBe(status);
  expect(response.status, where).toBeGreaterThanOrEqual(400);
  expect(response.status, where).toBeLessThan(500);
  expect(body, "no stack trace").not.toMatch(STACK_TRACE);
  const text = response.headers.get("content-type")?.includes("json") ? body : visibleText(body);
  if (typeof message === "string") expect(text, where).toContain(message);
  else expect(text, where).toMatch(message);
  return body;
}

/** Markup in the payload never reaches the page as markup (it may appear escaped, or as JSON data without raw "<"). */
export function expectNoRawPayload(body: string, payload: string): void {
  if (/[<>]/.test(payload)) expect(body).not.toContain(payload);
}

/** Attempt counters are reset before each case, so the corpus tests what it means to test, not the rate limits. */
export async function freshSnapshot(): Promise<StationSnapshot> {
  await db().rateLimit.deleteMany();
  return takeSnapshot();
}

/**
 * One hostile case: sends it, expects a clear 4xx carrying `message`, and
 * that no table and no stored object changed.
 */
export async function expectRefusedAndUnchanged(
  send: () => Promise<Response>,
  message: string | RegExp,
  options: { status?: number; payload?: string } = {},
): Promise<string> {
  const before = await freshSnapshot();
  const body = await expectClientError(await send(), message, options.status);
  if (options.payload) expectNoRawPayload(body, options.payload);
  expect(snapshotChanges(before, await takeSnapshot())).toEqual([]);
  return body;
}
