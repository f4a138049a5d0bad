import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "~/generated/prisma/client";
import { peekSingleton, setSingleton, singleton } from "./singleton.server";

export type Db = PrismaClient;

/**
 * Opens the one Prisma client of this process (done once at boot, or by a test).
 * `maxConnections`: each is a PostgreSQL process with memory of its own.
 */
export function connectDb(databaseUrl: string, maxConnections = 10): PrismaClient {
  const client = new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: maxConnections, connectionTimeoutMillis: 5_000 }),
  });
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
