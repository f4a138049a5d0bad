import { randomFillSync } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { getConfig, type AppConfig } from "~/services/config.server";
import { largeUploadPages } from "~/utils/site-pages";
import { expressTranslator } from "./language";

/** Largest request body accepted anywhere (episode audio uploads are the biggest). */
export const MAX_BODY_BYTES = 210 * 1024 * 1024;
/** Largest body for everything that is not an episode upload. */
export const MAX_FORM_BODY_BYTES = 12 * 1024 * 1024;
// Pages with audio uploads (app/utils/site-pages.ts) take posts as a page (no JavaScript),
// at their single-fetch ".data" endpoint and at their upload resource route ("/episodes-admin/upload").
const takesLargeUploads = (path: string) => largeUploadPages.some((page) => path === page || path === `${page}.data` || path.startsWith(`${page}/`));

function origin(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function contentSecurityPolicy(config: AppConfig, nonce: string): string {
  const frameHosts = config.embedAllowedHosts.map((host) => `https://${host}`).join(" ");
  const streamOrigin = origin(getConfig().streamUrl) ?? "";
  const formTargets = config.google ? "https://accounts.google.com" : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // React writes the station's accent colour as an inline style attribute.
    "style-src 'self' 'unsafe-inline'",
    // News thumbnails come from the news sites themselves.
    "img-src 'self' data: https:",
    // blob: is the MediaSource hls.js plays the rewind window through.
    `media-src 'self' blob: ${streamOrigin}`.trim(),
    "connect-src 'self' ws: wss:",
    "font-src 'self'",
    // The installed app's service worker (public/service-worker.js), from this origin only.
    "worker-src 'self'",
    `frame-src ${frameHosts}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${formTargets}`.trim(),
  ].join("; ");
}

/**
 * The policy of the widgets' iframe pages (/embed/...), the only pages any site may frame: the
 * widget script and its data from this origin, the stream's audio, nothing else.
 */
function embedPolicy(): string {
  const streamOrigin = origin(getConfig().streamUrl) ?? "";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    `media-src 'self' ${streamOrigin}`.trim(),
    "connect-src 'self'",
    "frame-ancestors *",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** Makes `res` a page other sites may frame (the widgets' iframe versions): their policy instead of the site's, no X-Frame-Options. */
export function embeddablePage(): (res: ServerResponse) => void {
  return (res) => {
    res.setHeader("Content-Security-Policy", embedPolicy());
    res.removeHeader("X-Frame-Options");
  };
}

const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;

/**
 * 16 random bytes per response, drawn from one 4 KB fill of the same CSPRNG: one `randomBytes`
 * call per request was 7 % of the CPU of a cached page. Each nonce is used once; the buffer is
 * refilled when it runs out (as `crypto.randomUUID` batches its randomness).
 */
function noncePool(): () => string {
  const pool = Buffer.alloc(NONCE_BYTES * NONCES_PER_FILL);
  let offset = pool.length;
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const nonce = pool.toString("base64", offset, offset + NONCE_BYTES);
    offset += NONCE_BYTES;
    return nonce;
  };
}

export interface SecurityHeaders {
  /** Sets them on `res` with a fresh nonce (HSTS only over https), and returns the nonce. */
  apply(res: ServerResponse, secure: boolean): string;
  /** The same for every request through Express, the nonce kept in `res.locals.cspNonce`. */
  middleware: RequestHandler;
}

/**
 * Security headers on every response, with a fresh script nonce per request (handed to Remix
 * through the load context, see app/entry.server.tsx). The page cache's replays before Express
 * (page-cache.ts) set them with `apply`.
 */
export function securityHeaders(config: AppConfig): SecurityHeaders {
  // Built once per stream URL (an admin may change it in the settings), not per response.
  let policy = { streamUrl: undefined as string | null | undefined, before: "", after: "" };
  const nextNonce = noncePool();
  const apply = (res: ServerResponse, secure: boolean) => {
    const nonce = nextNonce();
    const streamUrl = getConfig().streamUrl;
    if (policy.streamUrl !== streamUrl) {
      const [before, after] = contentSecurityPolicy(config, "\0").split("\0");
      policy = { streamUrl, before, after };
    }
    res.setHeader("Content-Security-Policy", policy.before + nonce + policy.after);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    return nonce;
  };
  return {
    apply,
    middleware: (req, res, next) => {
      res.locals.cspNonce = apply(res, req.secure);
      next();
    },
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// A DNS name (labels of letters, digits, '-' and '_' for container names) or a bracketed IPv6
// address, with an optional port. Nothing else: Remix builds the request URL from this text, so a
// backslash, slash, '?', '#', '@' or space in it would change which page is rendered.
const HOST_HEADER = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/** A Host (or X-Forwarded-Host) value that is a host name or address and an optional port, nothing more. */
export function isWellFormedHost(value: string): boolean {
  if (value.length > 300) return false;
  const match = HOST_HEADER.exec(value);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535);
}

/**
 * Requests whose Host or forwarded host is not a host name are refused with
 * 400 before anything reads them. X-Forwarded-Host and X-Forwarded-Proto are
 * only meaningful from a trusted proxy (TRUST_PROXY); otherwise they are
 * dropped, so a client cannot choose the origin the pages are rendered for.
 */
export function refuseMalformedHosts(config: AppConfig): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host;
    const forwardedHost = req.headers["x-forwarded-host"];
    const forwardedProto = req.headers["x-forwarded-proto"];
    const forwardedHosts =
      forwardedHost === undefined
        ? []
        : String(forwardedHost)
            .split(",")
            .map((value) => value.trim());
    const wellFormed =
      host !== undefined &&
      isWellFormedHost(host) &&
      forwardedHosts.every(isWellFormedHost) &&
      (forwardedProto === undefined || /^https?(\s*,\s*https?)*$/i.test(String(forwardedProto)));
    if (!wellFormed) {
      res.status(400).type("text/plain").send(expressTranslator(req, getConfig().stationLanguage).t("common.badHost"));
      return;
    }
    if (!config.trustProxy) {
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-proto"];
    } else if (forwardedHosts.length > 0) {
      // The client-most value is the site's address (Express's req.hostname reads the same one).
      // Host follows it, because Remix takes the host from one header and a missing port from the
      // other: "radio.example" behind a proxy must not become "radio.example:3000".
      req.headers["x-forwarded-host"] = forwardedHosts[0];
      req.headers.host = forwardedHosts[0];
    }
    next();
  };
}

// A percent-escape, or a run of them: decoded together, since one UTF-8 character spans several.
const ESCAPES = /(?:%[0-9a-f]{2})+/gi;
// C0 controls (NUL first: PostgreSQL refuses it in text) and DEL, raw or escaped.
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether a request target is a path this server can hand on: the origin form (`/path?query`),
 * not the absolute form (`GET http://host/path`) nor `*`, with every percent-escape in it well
 * formed and decoding to valid UTF-8 that holds no control character. Anything else would reach a
 * route as a parameter PostgreSQL or the URL parser refuses (a 500), so it is answered 400 first.
 */
export function isWellFormedTarget(target: string | undefined): boolean {
  if (target === undefined || !target.startsWith("/") || CONTROL.test(target)) return false;
  // A lone '%' (or one not followed by two hex digits) is malformed.
  if (/%(?![0-9a-f]{2})/i.test(target)) return false;
  for (const [run] of target.matchAll(ESCAPES)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      return false; // not UTF-8
    }
    if (CONTROL.test(decoded)) return false;
  }
  // Bytes Node let through raw (over 0x7f, read as Latin-1) must be valid UTF-8 as well.
  // eslint-disable-next-line no-control-regex -- a byte range, not a control character
  if (/[^\u0000-\u007f]/.test(target) && Buffer.from(target, "latin1").toString("utf8").includes("\ufffd")) return false;
  return true;
}

/** Answers 400 to a request whose target is not a well-formed path (see isWellFormedTarget); true when it did. */
export function refuseMalformedTarget(req: IncomingMessage, res: ServerResponse): boolean {
  if (isWellFormedTarget(req.url)) return false;
  res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", Connection: "close" });
  res.end("Bad request\n");
  return true;
}

/**
 * Cross-site request forgery: browsers label every request with where it came
 * from (Sec-Fetch-Site, Origin), so a state-changing request from another site
 * is refused before it reaches any form or endpoint. Clients that are not
 * browsers send neither header and are not at risk.
 */
export function refuseCrossSiteWrites(config: AppConfig): RequestHandler {
  const publicOrigin = origin(config.publicUrl);
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get("Sec-Fetch-Site");
    const requestOrigin = req.get("Origin");
    const ownOrigin = `${req.protocol}://${req.get("Host")}`;
    const crossSite = site === "cross-site" || site === "same-site";
    const foreignOrigin = requestOrigin !== undefined && requestOrigin !== ownOrigin && requestOrigin !== publicOrigin;
    if (crossSite || foreignOrigin) {
      res.status(403).type("text/plain").send(expressTranslator(req, getConfig().stationLanguage).t("common.crossSiteRefused"));
      return;
    }
    next();
  };
}

/**
 * Body size limits for every request: known lengths are checked up front, and
 * bodies of unknown length are refused (browsers always send the length).
 */
export const limitRequestBodies = (): RequestHandler => (req, res, next) => {
  if (SAFE_METHODS.has(req.method) || req.path.startsWith("/socket.io/")) return next();
  const limit = takesLargeUploads(req.path) ? MAX_BODY_BYTES : MAX_FORM_BODY_BYTES;
  const length = req.get("Content-Length");
  if (length === undefined) {
    if (req.get("Transfer-Encoding")) {
      res.status(411).type("text/plain").send(expressTranslator(req, getConfig().stationLanguage).t("common.lengthRequired"));
      return;
    }
    return next();
  }
  if (!/^\d+$/.test(length) || Number(length) > limit) {
    res
      .status(413)
      .type("text/plain")
      .send(expressTranslator(req, getConfig().stationLanguage).t("common.requestTooLarge", { megabytes: Math.round(limit / 1024 / 1024) }));
    return;
  }
  next();
};

/**
 * The show slug of a `/shows/{slug}.ics` path segment as it arrived (still percent-encoded), for
 * the rewrite to `/show-calendar/{slug}`: decoded once and encoded again whole, so nothing in it
 * can become a path of its own there (`..%2F`, `%2e%2e`, `%5C`; a double-encoded `%252F` stays a
 * literal `%2F` in the slug). Null (a 404) when it decodes to a slash, a backslash or a dot segment,
 * which no slug holds.
 */
export function calendarSlug(segment: string): string | null {
  let slug: string;
  try {
    slug = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (slug === "" || slug === "." || slug === ".." || /[/\\]/.test(slug)) return null;
  return encodeURIComponent(slug);
}
