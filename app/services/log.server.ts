/**
 * One JSON object per log line. Whatever a visitor managed to put into a
 * message (newlines, control characters, fake log lines) stays escaped inside
 * its string, so a log line is never forged.
 */
export function logError(message: string, details: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", message, ...details }));
}

/** The message of anything thrown, for a log line. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
