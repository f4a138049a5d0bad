import pg from "pg";

/*
 * Work that exactly one instance of the station does (following the stream, sending reminders):
 * the holder of a PostgreSQL advisory lock does it, the others wait for the lock.
 */

const LOCK_RETRY_MS = 2_000;

/** Waits `ms`, or less when `signal` aborts; leaves no listener behind (it runs every second for days). */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });

/**
 * Runs `follow` on exactly one instance: whoever holds the advisory lock. The lock
 * lives with a database session, so a crashed or partitioned leader loses it and
 * another instance takes over within LOCK_RETRY_MS.
 */
export async function leadFromOneInstance(
  databaseUrl: string,
  lockName: string,
  follow: (signal: AbortSignal) => Promise<void>,
  setLeading: (leading: boolean) => void,
  stopping: AbortSignal,
): Promise<void> {
  while (!stopping.aborted) {
    const client = new pg.Client({ connectionString: databaseUrl });
    const lost = new AbortController();
    client.on("error", () => lost.abort());
    client.on("end", () => lost.abort());
    try {
      await client.connect();
      const both = AbortSignal.any([stopping, lost.signal]);
      let held = false;
      while (!held && !stopping.aborted && !lost.signal.aborted) {
        const { rows } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS held", [lockName]);
        held = rows[0]?.held === true;
        if (!held) await sleep(LOCK_RETRY_MS, both);
      }
      if (held) {
        setLeading(true);
        // Notice a dropped database session even when no query is running.
        const heartbeat = setInterval(() => client.query("SELECT 1").catch(() => lost.abort()), 5_000);
        try {
          await follow(both);
        } finally {
          clearInterval(heartbeat);
          setLeading(false);
        }
      }
    } catch {
      // The database is unreachable: try again below.
    } finally {
      await client.end().catch(() => {});
    }
    await sleep(LOCK_RETRY_MS, stopping);
  }
}
