import { vi } from "vitest";
import { logger, type LogLevel } from "~/services/log.server";

export interface CapturedLog {
  /** Each write to stdout as it came: one log line each, newline included. */
  writes: string[];
  /** The writes parsed as the JSON objects they are. */
  entries(): Record<string, unknown>[];
  restore(): void;
}

/**
 * What the server's logger (JSON lines on stdout) writes in this process from now on, instead of
 * printing it; at `level` meanwhile when given (test servers log warnings and errors only).
 */
export function captureLog(level?: LogLevel): CapturedLog {
  const writes: string[] = [];
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  const previousLevel = logger.level;
  if (level) logger.level = level;
  return {
    writes,
    entries: () => writes.map((line) => JSON.parse(line) as Record<string, unknown>),
    restore() {
      logger.level = previousLevel;
      write.mockRestore();
    },
  };
}
