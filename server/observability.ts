import type { RequestHandler } from "express";
import { METRICS_CONTENT_TYPE, recordRequest, renderMetrics } from "~/services/metrics.server";

/**
 * One structured log line and one metrics sample per request, written when
 * the response finishes (or the client goes away).
 */
export function observeRequests(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      recordRequest(req.method, res.statusCode, seconds);
      log(
        JSON.stringify({
          time: new Date().toISOString(),
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Math.round(seconds * 10_000) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
        }),
      );
    });
    next();
  };
}

export const serveMetrics: RequestHandler = async (_req, res, next) => {
  try {
    res.set("Content-Type", METRICS_CONTENT_TYPE).set("Cache-Control", "no-store").send(await renderMetrics());
  } catch (error) {
    next(error);
  }
};
