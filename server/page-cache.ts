import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";

/**
 * The public pages change only when an admin changes something, so their
 * anonymous renders are kept in memory and replayed until a write invalidates
 * them (or a short lifetime passes, which also lets scheduled episodes appear).
 * Each replay gets this response's own CSP nonce, an ETag answers repeat visits
 * with 304, and concurrent misses for one page wait for a single render.
 */
const CACHEABLE = /^\/(listen|cardlistmore|events|chartcontent|Chart|CrewSpin|play\/\d+)(\.data)?$/;
const MAX_ENTRIES = 500;
const LIFETIME_MS = 30_000;
// Signed-in listeners and admins see personal pages (name in the drawer, admin strip).
const PERSONAL_COOKIE = /(^|;\s*)(__session|__admin)=/;
// The listener's theme (app/services/theme.server.ts) is rendered into <html>: one cached copy per theme.
const THEME_COOKIE = /(?:^|;\s*)theme=([^;]*)/;

interface CachedPage {
  contentType: string;
  /** The body split around every nonce attribute value, so a replay only fills in the new one. */
  parts: Buffer[];
  etag: string;
  generation: number;
  storedAt: number;
}

export interface PageCache {
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

function replay(req: Request, res: Response, page: CachedPage): void {
  res.setHeader("ETag", page.etag);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("Vary", "Cookie");
  if (req.get("If-None-Match") === page.etag) {
    // The browser keeps its copy and that copy's policy (its nonce matches its body).
    res.removeHeader("Content-Security-Policy");
    res.status(304).end();
    return;
  }
  const nonceAttribute = Buffer.from(`nonce="${String(res.locals.cspNonce)}"`);
  const body = Buffer.concat(page.parts.flatMap((part, i) => (i === 0 ? [part] : [nonceAttribute, part])));
  res.status(200).type(page.contentType).send(req.method === "HEAD" ? undefined : body);
}

export function createPageCache(): PageCache {
  const pages = new Map<string, CachedPage>();
  const rendering = new Map<string, Promise<CachedPage | null>>();
  let generation = 0;

  const fresh = (page: CachedPage | undefined) =>
    page !== undefined && page.generation === generation && Date.now() - page.storedAt < LIFETIME_MS;

  const middleware: RequestHandler = (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !CACHEABLE.test(req.path)) return next();
    if (PERSONAL_COOKIE.test(req.get("Cookie") ?? "")) return next();
    const key = `${req.originalUrl}#${THEME_COOKIE.exec(req.get("Cookie") ?? "")?.[1] ?? ""}`;
    const cached = pages.get(key);
    if (fresh(cached)) {
      pages.delete(key);
      pages.set(key, cached!); // most recently used last
      return replay(req, res, cached!);
    }
    const inFlight = rendering.get(key);
    if (inFlight) {
      void inFlight.then((page) => (page ? replay(req, res, page) : next()));
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
      if (res.statusCode === 200 && !res.getHeader("Set-Cookie") && req.method === "GET" && startedAt === generation) {
        const body = Buffer.concat(chunks);
        page = {
          contentType: String(res.getHeader("Content-Type") ?? "text/html; charset=utf-8"),
          parts: splitAroundNonce(body, String(res.locals.cspNonce)),
          etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
          generation,
          storedAt: Date.now(),
        };
        if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
        pages.set(key, page);
      }
      finish(page);
      return end(chunk, ...rest);
    }) as Response["end"];
    next();
  };

  return {
    middleware,
    invalidate() {
      generation += 1;
      pages.clear();
    },
  };
}
