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

/** Anything but a plain SELECT may change what a kept read returned (read-cache.server.ts). */
function mayWrite(args: unknown[]): boolean {
  const first = args[0];
  const text = typeof first === "string" ? first : typeof first === "object" && first !== null ? (first as { text?: unknown }).text : undefined;
  return typeof text !== "string" || !(/^\s*select\b/i.test(text) || text.startsWith(KEEPS_CACHED_READS));
}

/** Every pooled connection forgets the kept reads when a write is sent and again when it is done. */
function forgetReadsOnWrites(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    if (!mayWrite(args)) return query(...args);
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
