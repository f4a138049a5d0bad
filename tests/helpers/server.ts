import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startServer, type RunningServer } from "../../server/app";
import { loadConfig } from "~/services/config.server";
import { createTestDatabase, type TestDatabase } from "./database";

export interface TestServer extends RunningServer {
  dataDir: string;
  database: TestDatabase;
  /** Stops the server (keeping its data) and starts it again on the same database and folder. */
  restart(): Promise<TestServer>;
  /** Stops the server and removes its database and data folder. */
  stop(): Promise<void>;
}

/**
 * The real server (Express + Remix + socket.io) in this process, on a free
 * port, with its own database and data folder. `env` adds configuration.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { log?: (line: string) => void; database?: TestDatabase } = {},
): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-test-"));
  // A database passed in (shared by several instances) is the caller's to drop.
  const database = options.database ?? (await createTestDatabase());
  return boot(env, dataDir, database, options.log ?? (() => {}), !options.database);
}

async function boot(
  env: Record<string, string>,
  dataDir: string,
  database: TestDatabase,
  log: (line: string) => void,
  ownsDatabase: boolean,
): Promise<TestServer> {
  const config = loadConfig({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ADMIN_PIN: "123456",
    PUBLIC_PIN: "54321",
    SESSION_SECRET: "test-session-secret-0123456789",
    NEWS_API_URL: "http://127.0.0.1:9/unused",
    SEED_CONTENT: "false",
    ...env,
  });
  const server = await startServer(config, { log });
  return {
    ...server,
    dataDir,
    database,
    async restart() {
      await server.close();
      return boot(env, dataDir, database, log, ownsDatabase);
    },
    async stop() {
      await server.close();
      if (ownsDatabase) await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
