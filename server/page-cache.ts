import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { constants as zlibConstants, crc32, deflateRawSync } from "node:zlib";
import accepts from "accepts";
import { parse as parseCookies } from "cookie";
import type { Request, RequestHandler, Response } from "express";
import { negotiateLanguage } from "~/i18n/languages";
import { anonymouslyCachedPages } from "~/utils/site-pages";

/**
 * The public pages change only when an admin changes something, so their
 * anonymous renders are kept in memory and replayed until a write invalidates
 * them (or a short lifetime passes, which also lets scheduled episodes appear).
 * Each replay gets this response's own CSP nonce, an ETag answers repeat visits
 * with 304, and concurrent misses for one page wait for a single render.
 */
// The pages and the Remix route each renders (app/utils/site-pages.ts): a stored page must name it (see rendersRoute).
const CACHED = anonymouslyCachedPages.map(({ path, route }) => ({
  pattern: new RegExp(`^${path.replace(":id", "\\d+")}(\\.data)?$`),
  route,
}));
const cachedRoute = (path: string) => CACHED.find((page) => page.pattern.test(path))?.route;
const MAX_ENTRIES = 500;
const LIFETIME_MS = 30_000;
// Signed-in listeners and admins see personal pages (name in the drawer, admin strip).
const PERSONAL_COOKIES = new Set(["__session", "__admin"]);

/**
 * Anonymous means no credentials of any form. Cookies are read the way the
 * cookie parser of the sessions reads them (names trimmed, so `__session =x`
 * and `__admin\t=x` count), and any case of the names counts too.
 */
export function isAnonymous(req: IncomingMessage): boolean {
  if (req.headers.authorization !== undefined) return false;
  const header = req.headers.cookie;
  if (!header) return true;
  let names: string[];
  try {
    names = Object.keys(parseCookies(header));
  } catch {
    return false;
  }
  // A name the parser does not split cleanly (e.g. "a;__session") is judged by its parts as well.
  return !names.some((name) => name.split(/[\s;,]+/).some((part) => PERSONAL_COOKIES.has(part.toLowerCase())));
}

/**
 * What else an anonymous render depends on, so it is part of the key: the raw `theme` and `lang`
 * cookies as the cookie parser reads them (app/services/theme.server.ts and
 * app/i18n/language.server.ts turn them into the page's theme and language) and which of our
 * languages the browser's Accept-Language picks (the `?lang=` of a link is in the URL already).
 */
function renderInputs(req: IncomingMessage): string {
  let cookies: Record<string, string | undefined> = {};
  try {
    cookies = parseCookies(req.headers.cookie ?? "");
  } catch {
    // An unparsable header renders as no cookies, and is keyed so.
  }
  return `#theme=${cookies.theme ?? ""}#lang=${cookies.lang ?? ""}#accept=${negotiateLanguage(req.headers["accept-language"]) ?? ""}`;
}

/**
 * The URL Remix will render for this request, built exactly as
 * @remix-run/express builds it (protocol, req.hostname, the Host's port,
 * originalUrl). The cache key is this whole URL, so a page holding absolute
 * URLs built from one host is never replayed to another.
 */
function renderedUrl(req: Request): URL | null {
  const forwardedPort = req.get("X-Forwarded-Host")?.split(":")[1];
  const hostPort = req.get("Host")?.split(":")[1];
  const port = [forwardedPort, hostPort].map((p) => Number.parseInt(p ?? "", 10)).find(Number.isSafeInteger);
  try {
    return new URL(`${req.protocol}://${req.hostname}${port !== undefined ? `:${port}` : ""}${req.originalUrl}`);
  } catch {
    return null;
  }
}

/**
 * Everything in a raw request that decides how Express and Remix see it: the URL as sent, the
 * Host and X-Forwarded-* headers as sent (before refuseMalformedHosts checks and rewrites them),
 * whether the peer is a trusted proxy, TLS, and the render inputs. Two requests with one raw key
 * pass the same checks, render the same URL and get the same page, so a page the Express path
 * kept for one of them can be replayed to the other before Express (see replayBeforeExpress).
 */
function rawKeyOf(req: IncomingMessage, trustedPeer: boolean): string {
  const { host, "x-forwarded-host": forwardedHost, "x-forwarded-proto": forwardedProto } = req.headers;
  return JSON.stringify([req.url, host, forwardedHost, forwardedProto, trustedPeer, (req.socket as TLSSocket).encrypted === true]) + renderInputs(req);
}

/** The body is the route the path claims (its route id appears in the HTML context or the .data stream). */
function rendersRoute(path: string, body: Buffer): boolean {
  const route = cachedRoute(path);
  return route !== undefined && body.includes(`"${route}"`);
}

interface CachedPage {
  contentType: string;
  contentLanguage: string | null;
  /** The body split around every nonce attribute value, so a replay only fills in the new one. */
  parts: Buffer[];
  /** Each part compressed once (see gzipReplay), made on the first replay that accepts gzip. */
  compressedParts?: Buffer[];
  etag: string;
  generation: number;
  storedAt: number;
}

/** What replays before Express need from the server (server/app.ts). */
export interface EarlyReplays {
  /** Whether a peer at this address may set X-Forwarded-* (Express's compiled "trust proxy"). */
  trustsPeer(address: string | undefined): boolean;
  /** Starts the request's log line and sets the security headers; returns the response's nonce. */
  prepare(req: IncomingMessage, res: ServerResponse, path: string, secure: boolean): string;
}

export interface PageCache {
  /**
   * Replays a kept, fresh page before Express sees the request, when a request with the very same
   * raw key (rawKeyOf) was answered with it through Express; false when it does not. Half the CPU
   * of a replay through Express was Express itself.
   */
  replayBeforeExpress(req: IncomingMessage, res: ServerResponse): boolean;
  /** Replays, waits for a render in flight, or renders through Remix and keeps the page. */
  middleware: RequestHandler;
  /** Forgets every cached page (called for every published change). */
  invalidate(): void;
}

function splitAroundNonce(body: Buffer, nonce: string): Buffer[] {
  const marker = Buffer.from(`nonce="${nonce}"`);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, start)) {
    parts.push(body.subarray(start, at));
    start = at + marker.length;
  }
  parts.push(body.subarray(start));
  return parts;
}

/*
 * Compressing a replay was most of its cost (the nonce changes every response, so the bytes do).
 * Instead each part between nonces is compressed once, as raw DEFLATE ending on a sync flush
 * (byte-aligned, not final, no back-references into the part before it), and a replay only
 * compresses the nonce attribute: DEFLATE blocks may follow each other like that (RFC 1951), an
 * empty final block ends the stream, and the gzip wrapper (RFC 1952) adds a fixed header and the
 * CRC-32 and length of the whole text. Every decoder reads it as one gzip body (tested with
 * Node's zlib, GNU gzip and Chromium).
 */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));
const compressPart = (part: Buffer) => deflateRawSync(part, { finishFlush: zlibConstants.Z_SYNC_FLUSH });

/** The gzip body, as the pieces to send one after the other. */
function gzipReplay(page: CachedPage, nonceAttribute: Buffer): Buffer[] {
  const compressed = (page.compressedParts ??= page.parts.map(compressPart));
  const compressedNonce = compressPart(nonceAttribute);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  page.parts.forEach((part, i) => {
    if (i > 0) {
      pieces.push(compressedNonce);
      crc = crc32(nonceAttribute, crc);
      length += nonceAttribute.length;
    }
    pieces.push(compressed[i]);
    crc = crc32(part, crc);
    length += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  pieces.push(FINAL_BLOCK, trailer);
  return pieces;
}

/**
 * Sends the pieces as they are, with no copy into one buffer: corked, they leave in one write
 * (with the headers) all the same.
 */
function sendPieces(res: ServerResponse, pieces: Buffer[], head: boolean): void {
  res.setHeader(
    "Content-Length",
    pieces.reduce((sum, piece) => sum + piece.length, 0),
  );
  if (head) {
    res.end();
    return;
  }
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
  res.uncork();
}

function replay(req: IncomingMessage, res: ServerResponse, page: CachedPage, nonce: string): void {
  res.setHeader("ETag", page.etag);
  res.setHeader("Cache-Control", "no-cache");
  if (req.headers["if-none-match"] === page.etag) {
    // The browser keeps its copy and that copy's policy (its nonce matches its body).
    res.setHeader("Vary", "Cookie, Accept-Language");
    res.removeHeader("Content-Security-Policy");
    res.statusCode = 304;
    res.end();
    return;
  }
  const nonceAttribute = Buffer.from(`nonce="${nonce}"`);
  if (page.contentLanguage) res.setHeader("Content-Language", page.contentLanguage);
  res.setHeader("Content-Type", page.contentType);
  res.setHeader("Vary", "Cookie, Accept-Language, Accept-Encoding");
  res.statusCode = 200;
  const head = req.method === "HEAD";
  if (accepts(req).encoding(["gzip"])) {
    res.setHeader("Content-Encoding", "gzip");
    sendPieces(res, gzipReplay(page, nonceAttribute), head);
    return;
  }
  sendPieces(
    res,
    page.parts.flatMap((part, i) => (i === 0 ? [part] : [nonceAttribute, part])),
    head,
  );
}

export function createPageCache(early: EarlyReplays): PageCache {
  const pages = new Map<string, CachedPage>();
  const rendering = new Map<string, Promise<CachedPage | null>>();
  let generation = 0;
  // Replays before Express: the kept page for each raw key, with whether it was https.
  const pagesByRawKey = new Map<string, { page: CachedPage; secure: boolean }>();
  const rawKeys = new WeakMap<IncomingMessage, string>();

  /** Lets later requests with this request's raw key have `page` before Express. */
  const rememberRawKey = (req: Request, page: CachedPage) => {
    const rawKey = rawKeys.get(req);
    if (rawKey === undefined) return;
    pagesByRawKey.delete(rawKey);
    if (pagesByRawKey.size >= MAX_ENTRIES) pagesByRawKey.delete(pagesByRawKey.keys().next().value!);
    pagesByRawKey.set(rawKey, { page, secure: req.secure });
  };

  const fresh = (page: CachedPage | undefined) => page !== undefined && page.generation === generation && Date.now() - page.storedAt < LIFETIME_MS;

  /** The key a cacheable request's page is kept under, or null for a request that is never cached. */
  const keyOf = (req: Request): string | null => {
    if ((req.method !== "GET" && req.method !== "HEAD") || cachedRoute(req.path) === undefined) return null;
    if (!isAnonymous(req)) return null;
    const url = renderedUrl(req);
    // Only a request that renders exactly the page its path names is cached.
    if (!url || url.pathname !== req.path || url.pathname + url.search !== req.originalUrl) return null;
    return url.href + renderInputs(req);
  };

  /** Replays the kept page for `key` when it is fresh; false when there is none. */
  const replayKept = (key: string, req: Request, res: Response): boolean => {
    const cached = pages.get(key);
    if (!fresh(cached)) return false;
    pages.delete(key);
    pages.set(key, cached!); // most recently used last
    rememberRawKey(req, cached!);
    replay(req, res, cached!, String(res.locals.cspNonce));
    return true;
  };

  const replayBeforeExpress = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "";
    const path = url.split("?", 1)[0]!;
    if (cachedRoute(path) === undefined || !isAnonymous(req)) return false;
    const rawKey = rawKeyOf(req, early.trustsPeer(req.socket.remoteAddress));
    rawKeys.set(req, rawKey);
    const kept = pagesByRawKey.get(rawKey);
    if (!kept || !fresh(kept.page)) return false;
    replay(req, res, kept.page, early.prepare(req, res, path, kept.secure));
    return true;
  };

  const middleware: RequestHandler = (req, res, next) => {
    const key = keyOf(req);
    if (key === null) return next();
    if (replayKept(key, req, res)) return;
    const inFlight = rendering.get(key);
    if (inFlight) {
      void inFlight.then((page) => (page ? replay(req, res, page, String(res.locals.cspNonce)) : next()));
      return;
    }

    // Render through Remix, keeping a copy of what it sends.
    const startedAt = generation;
    let settle: (page: CachedPage | null) => void = () => {};
    rendering.set(key, new Promise((resolve) => (settle = resolve)));
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding));
    };
    const finish = (page: CachedPage | null) => {
      rendering.delete(key);
      settle(page);
    };
    res.once("close", () => finish(null)); // an aborted render caches nothing; waiters render themselves
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      let page: CachedPage | null = null;
      const body = Buffer.concat(chunks);
      if (res.statusCode === 200 && !res.getHeader("Set-Cookie") && req.method === "GET" && startedAt === generation && rendersRoute(req.path, body)) {
        page = {
          contentType: String(res.getHeader("Content-Type") ?? "text/html; charset=utf-8"),
          contentLanguage: (res.getHeader("Content-Language") as string | undefined) ?? null,
          parts: splitAroundNonce(body, String(res.locals.cspNonce)),
          etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
          generation,
          storedAt: Date.now(),
        };
        if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
        pages.set(key, page);
        rememberRawKey(req, page);
      }
      finish(page);
      return end(chunk, ...rest);
    }) as Response["end"];
    next();
  };

  return {
    replayBeforeExpress,
    middleware,
    invalidate() {
      generation += 1;
      pages.clear();
      pagesByRawKey.clear();
    },
  };
}
