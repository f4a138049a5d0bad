import { db } from "./db.server";

export interface RateLimitResult {
  allowed: boolean;
  /** Attempts counted in the current window, this one included. */
  count: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

// Expired counters count as absent (a new window starts at 1), so deleting them changes nothing but
// the table's size: every key an address or a guessed email ever used would otherwise stay forever.
const PRUNE_EVERY_MS = 60_000;
let lastPrune = 0;

/** Deletes the counters whose window ended; each instance does it at most once a minute, on a write. */
async function pruneExpired(): Promise<void> {
  if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = Date.now();
  await db().$executeRaw`DELETE FROM "RateLimit" WHERE "resetAt" <= now()`;
}

/**
 * Counts one attempt against `key` in a fixed window. Counters live in
 * PostgreSQL, so every app instance behind a load balancer shares them.
 */
export async function hitRateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
  await pruneExpired();
  const rows = await db().$queryRaw<{ count: number; resetAt: Date }[]>`
    INSERT INTO "RateLimit" ("key", "count", "resetAt")
    VALUES (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."resetAt" <= now() THEN 1 ELSE "RateLimit"."count" + 1 END,
      "resetAt" = CASE WHEN "RateLimit"."resetAt" <= now() THEN now() + ${windowMs} * interval '1 millisecond' ELSE "RateLimit"."resetAt" END
    RETURNING "count", "resetAt"`;
  const { count, resetAt } = rows[0];
  return {
    count,
    allowed: count <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000)),
  };
}

/** Forgets the attempts against `key` (e.g. after a successful sign-in). */
export async function resetRateLimit(key: string): Promise<void> {
  await db().rateLimit.deleteMany({ where: { key } });
}

/**
 * Whether `key` is still under `limit` in its current window, without counting
 * an attempt (for counters that only failures move, checked before each try).
 */
export async function peekRateLimit(key: string, limit: number): Promise<RateLimitResult> {
  const row = await db().rateLimit.findUnique({ where: { key } });
  if (!row || row.resetAt.getTime() <= Date.now()) return { count: 0, allowed: true, retryAfterSeconds: 0 };
  return {
    count: row.count,
    allowed: row.count < limit,
    retryAfterSeconds: Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000)),
  };
}
