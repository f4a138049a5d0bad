import { createHash } from "node:crypto";
import type { RequestHandler, Response } from "express";

/**
 * The public pages change only when an admin changes something, so their
 * anonymous renders are kept in memory and replayed until a write invalidates
 * them (or a short lifetime passes, which also lets scheduled episodes appear).
 * Each replay gets this response's own CSP nonce, and an ETag answers repeat
 * visits with 304.
 */
const CACHEABLE = /^\/(listen|cardlistmore|events|chartcontent|Chart|CrewSpin|play\/\d+)(\.data)?$/;
const MAX_ENTRIES = 500;
const LIFETIME_MS = 30_000;
// Signed-in listeners and admins see personal pages (name in the drawer, admin strip).
const PERSONAL_COOKIE = /(^|;\s*)(__session|__admin)=/;

interface CachedPage {
  status: number;
  contentType: string;
  body: string;
  nonce: string;
  etag: string;
  generation: number;
  storedAt: number;
}

export interface PageCache {
  middleware: RequestHandler;
  /** Forgets every cached page (called for every published change). */
  invalidate(): void;
}

export function createPageCache(): PageCache {
  const pages = new Map<string, CachedPage>();
  let generation = 0;

  const replay = (res: Response, page: CachedPage, ifNoneMatch: string | undefined) => {
    res.setHeader("ETag", page.etag);
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("Vary", "Cookie");
    if (ifNoneMatch === page.etag) {
      // The browser keeps its copy and that copy's policy (its nonce matches its body).
      res.removeHeader("Content-Security-Policy");
      res.status(304).end();
      return;
    }
    const nonce = String(res.locals.cspNonce);
    res.status(page.status).type(page.contentType);
    res.send(page.body.replaceAll(`nonce="${page.nonce}"`, `nonce="${nonce}"`));
  };

  const middleware: RequestHandler = (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !CACHEABLE.test(req.path)) return next();
    if (PERSONAL_COOKIE.test(req.get("Cookie") ?? "")) return next();
    const key = req.originalUrl;
    const cached = pages.get(key);
    if (cached && cached.generation === generation && Date.now() - cached.storedAt < LIFETIME_MS) {
      pages.delete(key);
      pages.set(key, cached); // most recently used last
      return replay(res, cached, req.get("If-None-Match"));
    }

    // Render through Remix, keeping a copy of what it sends.
    const startedAt = generation;
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const cacheable =
        res.statusCode === 200 && !res.getHeader("Set-Cookie") && req.method === "GET" && startedAt === generation;
      if (cacheable) {
        const body = Buffer.concat(chunks).toString("utf8");
        if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
        pages.set(key, {
          status: 200,
          contentType: String(res.getHeader("Content-Type") ?? "text/html; charset=utf-8"),
          body,
          nonce: String(res.locals.cspNonce),
          etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
          generation,
          storedAt: Date.now(),
        });
      }
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
