import { createAdapter } from "@socket.io/postgres-adapter";
import pg from "pg";
import type { Server as SocketServer } from "socket.io";
import { logger } from "~/services/log.server";

function logAdapterError(error: Error): void {
  logger.error({ error: error.message }, "realtime adapter failed");
}

/**
 * With a real PostgreSQL, broadcasts reach the clients of every app instance
 * through LISTEN/NOTIFY (no extra service). Large payloads go through the
 * adapter's attachments table, created here because it is the adapter's, not the app's.
 */
export async function shareRealtimeThroughPostgres(io: SocketServer, databaseUrl: string): Promise<() => Promise<void>> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // An idle connection dropped by a database restart must not crash the process; the pool reconnects.
  pool.on("error", logAdapterError);
  // The adapter checks its LISTEN client out with connect() and no callback (pool.query() passes
  // one): note which client that is. When its connection drops the adapter reconnects but never
  // gives the dead client back, and it has no error listener: that would be an uncaught error, a
  // pool that shrinks with every database restart, and a pool.end() that never returns.
  const listenClients = new Set<pg.PoolClient>();
  let closing = false;
  const checkOut = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient> | void;
  Object.assign(pool, {
    connect(...args: unknown[]) {
      if (args.length > 0) return checkOut(...args);
      // Once closing, a reconnect is left pending for good rather than holding a client open.
      if (closing) return new Promise(() => {});
      return (checkOut() as Promise<pg.PoolClient>).then((client) => {
        if (closing) {
          client.release(true);
          return new Promise(() => {});
        }
        listenClients.add(client);
        return client;
      });
    },
  });
  pool.on("release", (_error, client) => listenClients.delete(client));
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      logAdapterError(error);
      if (listenClients.has(client)) client.release(error);
    }),
  );
  await pool.query(`
    CREATE TABLE IF NOT EXISTS socket_io_attachments (
      id          bigserial UNIQUE,
      created_at  timestamptz DEFAULT NOW(),
      payload     bytea
    )`);
  io.adapter(createAdapter(pool, { errorHandler: logAdapterError }));
  return async () => {
    closing = true;
    for (const client of listenClients) client.release(true);
    await pool.end();
  };
}
