import pg from "pg";

/** The database cannot be reached: the message names the host and the cause, never the password. */
export class DatabaseUnreachableError extends Error {
  name = "DatabaseUnreachableError";
}

function describe(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

/** Opens and closes one connection, so start-up fails fast with a clear reason. */
export async function assertDatabaseReachable(databaseUrl: string, timeoutMs = 5_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    const cause = err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message;
    throw new DatabaseUnreachableError(`Cannot reach the database at ${describe(databaseUrl)} (${cause})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Start-up with `retries` more attempts after the first, waiting 1 s, 2 s,
 * 4 s ... (at most 30 s) in between: for a database that starts alongside the
 * app (docker-compose). Throws the last DatabaseUnreachableError.
 */
export async function waitForDatabase(
  databaseUrl: string,
  { retries, log, firstDelayMs = 1_000 }: { retries: number; log: (line: string) => void; firstDelayMs?: number },
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await assertDatabaseReachable(databaseUrl);
    } catch (error) {
      if (attempt >= retries) throw error;
      const delayMs = Math.min(firstDelayMs * 2 ** attempt, 30_000);
      log(`${(error as Error).message}; retrying in ${Math.round(delayMs / 100) / 10} s (${attempt + 1} of ${retries})`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

// Prisma's codes for "no connection" (P1001 unreachable, P1002 timed out, P1017 closed) and the
// driver adapter's kinds for the same when they surface unwrapped.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const UNAVAILABLE_MESSAGES = /Connection terminated|ECONNREFUSED|ECONNRESET|Can't reach database server|timeout exceeded when trying to connect/i;

/** True when a query failed because the database could not be reached, not because of the query. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, meta, cause } = error as Error & { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: string } } }; cause?: { kind?: string } };
  if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
  const kind = meta?.driverAdapterError?.cause?.kind ?? cause?.kind;
  if (kind && UNAVAILABLE_KINDS.has(kind)) return true;
  return UNAVAILABLE_MESSAGES.test(error.message);
}
