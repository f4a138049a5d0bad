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
