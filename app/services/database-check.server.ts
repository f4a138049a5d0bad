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
