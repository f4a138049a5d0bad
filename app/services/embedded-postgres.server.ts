import fs from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * The zero-setup database: PostgreSQL compiled to WebAssembly (PGlite), served
 * over a loopback TCP port so the app talks to it through the same `pg` driver
 * as to a real server. `dataDir` null keeps it in memory (tests).
 */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  if (dataDir) await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  keepExtendedQueriesTogether(db);
  // A pool reconnects after a failed query; with one slot that reconnect is refused.
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 50 });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@${server.getServerConn()}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

// Extended-protocol message types that continue a query (Parse, Bind, Describe, Execute, Close,
// Flush); Sync ends it, as does a simple Query.
const EXTENDED = new Set(["P", "B", "D", "E", "C", "H"].map((type) => type.charCodeAt(0)));
const ENDS = new Set(["S", "Q"].map((type) => type.charCodeAt(0)));

/**
 * The socket server queues each protocol message on its own and only keeps one
 * connection's messages together inside a transaction, so under concurrent
 * load another connection's Parse can land between a Parse and its Bind
 * ("bind message supplies 3 parameters, but prepared statement "" requires 1").
 * Reporting "in a transaction" from a Parse until its Sync makes the queue keep
 * each query's messages together too.
 */
function keepExtendedQueriesTogether(db: PGlite): void {
  let midQuery = false;
  const isInTransaction = db.isInTransaction.bind(db);
  const execProtocolRawStream = db.execProtocolRawStream.bind(db);
  db.isInTransaction = () => midQuery || isInTransaction();
  db.execProtocolRawStream = (message, options) => {
    const type = message[0]!;
    if (EXTENDED.has(type)) midQuery = true;
    else if (ENDS.has(type)) midQuery = false;
    return execProtocolRawStream(message, options);
  };
}
