import pino from "pino";
import { singleton } from "./singleton.server";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The server's one logger: one JSON object per line on stdout, with an ISO time and the level by
 * name. Whatever a visitor managed to put into a message or a field (newlines, control characters,
 * fake log lines) stays escaped inside its JSON string, so a log line is never forged. The level
 * comes from LOG_LEVEL (startServer sets it from the configuration); `| npx pino-pretty` reads it
 * on a terminal. One instance per process, shared by the server and the Remix build.
 */
export const logger = singleton("logger", () =>
  pino(
    {
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // Synchronous on Linux for files and pipes, so a line written just before process.exit is kept.
    process.stdout,
  ),
);

export function logError(message: string, details: Record<string, unknown> = {}): void {
  logger.error(details, message);
}

/** The message of anything thrown, for a log line. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
