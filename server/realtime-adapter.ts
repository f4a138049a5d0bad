import { createAdapter } from "@socket.io/postgres-adapter";
import pg from "pg";
import type { Server as SocketServer } from "socket.io";

/**
 * With a real PostgreSQL, broadcasts reach the clients of every app instance
 * through LISTEN/NOTIFY (no extra service). Large payloads go through the
 * adapter's attachments table, created here because it is the adapter's, not the app's.
 */
export async function shareRealtimeThroughPostgres(io: SocketServer, databaseUrl: string): Promise<() => Promise<void>> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // An idle connection dropped by a database restart must not crash the process; the pool reconnects.
  pool.on("error", (error) => console.error(`realtime adapter: ${error.message}`));
  const checkedOut = new Set<pg.PoolClient>();
  let closing = false;
  pool.on("acquire", (client) => {
    checkedOut.add(client);
    // A reconnect that lands while the server closes is never released by the adapter; the
    // client is handed over after this event, so give it back on the next turn.
    if (closing) setImmediate(() => checkedOut.has(client) && client.release(true));
  });
  pool.on("release", (_error, client) => checkedOut.delete(client));
  // The adapter holds one client for LISTEN with no error listener, and when its connection drops
  // it reconnects but never gives the dead client back: that would be an uncaught error, and a
  // pool that shrinks with every database restart (and a pool.end() that never returns).
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      console.error(`realtime adapter: ${error.message}`);
      if (client.listenerCount("notification") > 0 && checkedOut.has(client)) client.release(error);
    }),
  );
  await pool.query(`
    CREATE TABLE IF NOT EXISTS socket_io_attachments (
      id          bigserial UNIQUE,
      created_at  timestamptz DEFAULT NOW(),
      payload     bytea
    )`);
  io.adapter(createAdapter(pool, { errorHandler: (error) => console.error(`realtime adapter: ${error.message}`) }));
  return async () => {
    closing = true;
    for (const client of checkedOut) client.release(true);
    await pool.end();
  };
}
