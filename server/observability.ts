import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pinoHttp } from "pino-http";
import type { AppConfig } from "~/services/config.server";
import { logger } from "~/services/log.server";
import { METRICS_CONTENT_TYPE, recordRequest, renderMetrics } from "~/services/metrics.server";

/** What a request's log line says: flat fields a log search can filter on (never headers or cookies). */
function requestLine(req: IncomingMessage, res: ServerResponse, durationMs: number) {
  return {
    method: req.method,
    path: (req as Request).path ?? new URL(req.url ?? "/", "http://x").pathname,
    status: res.statusCode,
    durationMs,
    ...(res.writableFinished ? {} : { aborted: true }),
  };
}

/**
 * One structured log line (pino-http, through the app's pino logger) and one metrics sample per
 * request, written when the response finishes or the client goes away.
 */
export function observeRequests(): RequestHandler {
  const logRequests = pinoHttp({
    logger,
    // No req/res objects bound to the line: they carry headers, cookies included.
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request",
    customSuccessObject: (req, res, value: { responseTime: number }) => requestLine(req, res, value.responseTime),
    customErrorObject: (req, res, _error, value: { responseTime: number }) => requestLine(req, res, value.responseTime),
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("close", () => recordRequest(req.method, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    logRequests(req, res, next);
  };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * An operator's caller: a connection from this machine that no proxy relayed
 * (the socket's own address, never X-Forwarded-For), or one presenting
 * METRICS_TOKEN as a bearer token.
 */
export function isOperator(req: Request, config: AppConfig): boolean {
  const relayed = req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined;
  if (!relayed && LOOPBACK.test(req.socket.remoteAddress ?? "")) return true;
  const token = config.metricsToken;
  const presented = /^Bearer\s+(.+)$/i.exec(req.get("Authorization") ?? "")?.[1]?.trim();
  if (!token || !presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Prometheus metrics: for loopback or METRICS_TOKEN only (they describe traffic and internals). */
export function serveMetrics(config: AppConfig): RequestHandler {
  return async (req, res, next) => {
    if (!isOperator(req, config)) {
      res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found");
      return;
    }
    try {
      res
        .set("Content-Type", METRICS_CONTENT_TYPE)
        .set("Cache-Control", "no-store")
        .send(await renderMetrics());
    } catch (error) {
      next(error);
    }
  };
}
