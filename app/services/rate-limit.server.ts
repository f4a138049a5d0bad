import { isIPv6 } from "node:net";
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

/**
 * A back-off instead of a hard stop: the first `free` attempts of a key pass at once; after that
 * each one must wait `baseMs` × 2^(attempts − free), at most `capMs`, after the previous one. The key
 * is forgotten `forgetMs` after its last attempt. Refused attempts are not counted, so nobody can push
 * a key's wait beyond `capMs`, and nobody but the key's own holder (an address, an address on one
 * account) is ever slowed by it.
 */
export interface BackoffPolicy {
  free: number;
  baseMs: number;
  capMs: number;
  forgetMs: number;
}

/** The wait after the `count`th attempt of a key under `policy` (0 while attempts are free). */
export function backoffDelayMs(count: number, policy: BackoffPolicy): number {
  if (count < policy.free) return 0;
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(count - policy.free, 30));
}

/**
 * Counts one attempt against `key` if its back-off allows one now, atomically (concurrent attempts
 * cannot slip through together): the attempt is counted before it is checked, and a success
 * resets or refunds it. A refused attempt changes nothing. Shared by every instance through PostgreSQL.
 */
export async function claimAttempt(key: string, policy: BackoffPolicy): Promise<RateLimitResult> {
  await pruneExpired();
  const { free, baseMs, capMs, forgetMs } = policy;
  // resetAt is always the last attempt + forgetMs, so the last attempt is resetAt − forgetMs.
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimit" ("key", "count", "resetAt")
    VALUES (${key}, 1, now() + ${forgetMs} * interval '1 millisecond')
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."resetAt" <= now() THEN 1 ELSE "RateLimit"."count" + 1 END,
      "resetAt" = now() + ${forgetMs} * interval '1 millisecond'
    WHERE "RateLimit"."resetAt" <= now()
      OR "RateLimit"."count" < ${free}::int
      OR now() >= "RateLimit"."resetAt" - ${forgetMs} * interval '1 millisecond'
        + LEAST(${capMs}::float8, ${baseMs}::float8 * power(2, LEAST("RateLimit"."count" - ${free}::int, 30))) * interval '1 millisecond'
    RETURNING "count"`;
  if (rows.length > 0) return { allowed: true, count: rows[0].count, retryAfterSeconds: 0 };
  const row = await db().rateLimit.findUnique({ where: { key } });
  if (!row) return { allowed: false, count: 0, retryAfterSeconds: 1 };
  const nextAt = row.resetAt.getTime() - forgetMs + backoffDelayMs(row.count, policy);
  return { allowed: false, count: row.count, retryAfterSeconds: Math.max(1, Math.ceil((nextAt - Date.now()) / 1000)) };
}

/** Takes back one counted attempt of `key` (one that turned out to be a success that should not cost anything). */
export async function refundAttempt(key: string): Promise<void> {
  await db().rateLimit.updateMany({ where: { key, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

/**
 * The part of a client address the limits count: an IPv4 address (also IPv4-mapped IPv6) as it is,
 * an IPv6 address by its /64, the block one subscriber line or host usually gets whole (else one
 * machine would have 2^64 addresses, each with its own allowance).
 */
export function limitedAddress(clientIp: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(clientIp);
  if (mapped) return mapped[1];
  if (!isIPv6(clientIp)) return clientIp;
  const [head, tail = ""] = clientIp.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = clientIp.includes("::") ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
