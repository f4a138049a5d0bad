import { errorText, logError } from "~/services/log.server";

/**
 * Keeps the station on the air when a promise nobody awaited rejects. Since Node 15 such a
 * rejection ends the process, so one background task's failure (pg-boss 10 completing a job
 * during a database outage did exactly this; see patches/README.md) would stop the stream
 * pages, the admin and every socket for everyone. It is logged at error level, with its stack,
 * so it is seen and fixed; the request that was being served is unaffected, since anything a
 * request awaits is handled where it is awaited. A synchronous uncaught exception still ends the
 * process: after one of those the state of the process is unknown.
 */
export function logUnhandledRejections(): void {
  process.on("unhandledRejection", (reason) => {
    logError("Unhandled promise rejection; the server keeps running", {
      error: errorText(reason),
      stack: reason instanceof Error ? reason.stack : undefined,
    });
  });
}
