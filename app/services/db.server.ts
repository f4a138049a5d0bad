import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "~/generated/prisma/client";
import { forgetCachedReads } from "./read-cache.server";
import { peekSingleton, setSingleton, singleton } from "./singleton.server";

export type Db = PrismaClient;

type Query = (...args: unknown[]) => unknown;

/**
 * Marks a raw statement that writes only tables no kept read reads (the audience's counters, written
 * on every audio request and heartbeat): it leaves the kept reads in place.
 */
export const KEEPS_CACHED_READS = "/* keeps cached reads */";

/**
 * Tables no kept read ever reads: the audience's counters, listeners' own progress, push bookkeeping
 * and rate limits. They are written on audio requests, heartbeats and background housekeeping; a
 * write to one of them leaves the kept reads in place (read-cache.server.ts lists what is kept).
 */
const TABLES_NO_KEPT_READ_READS = new Set([
  "AudienceSalt",
  "AudienceHour",
  "AudienceQuarter",
  "AudienceBreakdown",
  "AudienceDay",
  "AudienceRollup",
  "ListeningSession",
  "StreamListenerSample",
  "PodcastDownload",
  "PodcastDownloadProgress",
  "EpisodeProgress",
  "PushSubscription",
  "PushDelivery",
  "RateLimit",
]);

// Prisma writes `INSERT INTO "public"."Table"`, `UPDATE "public"."Table"`, `DELETE FROM "public"."Table"`.
const WRITTEN_TABLE = /^\s*(?:insert\s+into|update|delete\s+from)\s+(?:"public"\.)?"(\w+)"/i;
const TRANSACTION_START = /^\s*begin\b/i;
const TRANSACTION_END = /^\s*(?:commit|rollback|end)\b/i;

function statementText(args: unknown[]): string | undefined {
  const first = args[0];
  const text = typeof first === "string" ? first : typeof first === "object" && first !== null ? (first as { text?: unknown }).text : undefined;
  return typeof text === "string" ? text : undefined;
}

/** Anything but a plain SELECT may change what a kept read returned, unless it only writes tables no kept read reads. */
function mayChangeKeptReads(text: string | undefined): boolean {
  if (text === undefined) return true;
  if (/^\s*select\b/i.test(text) || text.startsWith(KEEPS_CACHED_READS)) return false;
  const table = WRITTEN_TABLE.exec(text)?.[1];
  return table === undefined || !TABLES_NO_KEPT_READ_READS.has(table);
}

/**
 * Every pooled connection forgets the kept reads when a write is sent and again when it is done.
 * A transaction's BEGIN changes nothing; its COMMIT or ROLLBACK forgets them again only when a
 * statement inside it did (its writes become visible to other connections at COMMIT).
 */
function forgetReadsOnWrites(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  let wroteInTransaction = false;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const text = statementText(args);
    if (text !== undefined && TRANSACTION_START.test(text)) {
      wroteInTransaction = false;
      return query(...args);
    }
    if (text !== undefined && TRANSACTION_END.test(text)) {
      const wrote = wroteInTransaction;
      wroteInTransaction = false;
      if (!wrote) return query(...args);
    } else if (!mayChangeKeptReads(text)) {
      return query(...args);
    } else {
      wroteInTransaction = true;
    }
    forgetCachedReads();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (...results: unknown[]) => {
        forgetCachedReads();
        return (callback as Query)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result && typeof (result as Promise<unknown>).finally === "function") void (result as Promise<unknown>).finally(forgetCachedReads).catch(() => {});
    return result;
  };
}

/**
 * Opens the one Prisma client of this process (done once at boot, or by a test).
 * `maxConnections`: each is a PostgreSQL process with memory of its own.
 */
export function connectDb(databaseUrl: string, maxConnections = 10): PrismaClient {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: maxConnections, connectionTimeoutMillis: 5_000 });
  pool.on("connect", forgetReadsOnWrites);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  forgetCachedReads();
  setSingleton("db", client);
  return client;
}

/** The Prisma client; model modules call this for every query. */
export function db(): PrismaClient {
  return singleton<PrismaClient>("db", () => {
    throw new Error("The database is not connected yet (connectDb was not called)");
  });
}

export async function disconnectDb(): Promise<void> {
  const client = peekSingleton<PrismaClient>("db");
  setSingleton("db", undefined);
  await client?.$disconnect();
}

/**
 * `text` as a literal inside a LIKE / ILIKE pattern: PostgreSQL reads `%` and `_` as wildcards and
 * `\` as its escape character, and Prisma's `contains` / `startsWith` / `endsWith` pass them on as
 * they are. Every such filter fed by a user wraps the text in this (tests/history-search.test.ts
 * checks the source for it).
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
