import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startServer, type RunningServer, type StartOptions } from "../../server/app";
import pg from "pg";
import { inject } from "vitest";
import { loadConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { createTestDatabase, testDatabaseServerUrl, whenUnused, type TestDatabase } from "./database";
import { seededTemplateNames } from "./seeded-station";

export interface TestServer extends RunningServer {
  dataDir: string;
  database: TestDatabase;
  /**
   * Stops the server (keeping its data) and starts it again on the same database and folder; with
   * `buildPath`, serving that Remix build at the same address (a new deployment of the app).
   */
  restart(options?: { buildPath?: string }): Promise<TestServer>;
  /** Stops the server and removes its database and data folder. */
  stop(): Promise<void>;
}

/**
 * The real server (Express + Remix + socket.io) in this process, on a free
 * port, with its own database and data folder. `env` adds configuration; it
 * logs warnings and errors only unless `env` sets LOG_LEVEL.
 */
export async function startTestServer(env: Record<string, string> = {}, options: { database?: TestDatabase } = {}): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-test-"));
  // Seeding the bundled content (images re-encoded, WAV episodes encoded to MP3) takes seconds
  // on every start: a station with the demo content and folder storage starts from a copy of one
  // seeded once per test run instead. It is the same content the seeding writes (the seed does not
  // depend on the other settings), found already there as after any restart.
  const seededCopy = !options.database && env.SEED_CONTENT === "true" && !Object.keys(env).some((name) => name.startsWith("S3_"));
  // A database passed in (shared by several instances) is the caller's to drop.
  let database = options.database;
  if (seededCopy) {
    const template = await seededTemplate();
    [database] = await Promise.all([createTestDatabase({ template: template.database }), fs.cp(template.dataDir, dataDir, { recursive: true })]);
  }
  database ??= await createTestDatabase();
  const server = await boot(env, dataDir, database, !options.database);
  // The demo stream's first title goes into the song history just after start, which empties the
  // page cache: tests of a station with the demo content begin once it is there.
  if (seededCopy && !env.STREAM_URL) await firstSong();
  return server;
}

async function firstSong(): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await db().songPlay.count()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

let template: Promise<{ database: string; dataDir: string }> | null = null;

/** The seeded station of this test run (database and data folder), built by the first worker that needs it. */
function seededTemplate(): Promise<{ database: string; dataDir: string }> {
  template ??= buildSeededTemplate().catch((error: unknown) => {
    template = null;
    throw error;
  });
  return template;
}

async function buildSeededTemplate(): Promise<{ database: string; dataDir: string }> {
  const { database: name, dataDir } = seededTemplateNames(inject("testRunId"));
  const admin = new pg.Client({ connectionString: testDatabaseServerUrl() });
  await admin.connect();
  try {
    // Workers are separate processes: one builds, the others wait for it here.
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    const existing = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount === 0) {
      // Built under other names and renamed when complete: a worker killed meanwhile leaves no half template.
      await admin.query(`DROP DATABASE IF EXISTS "${name}_build" WITH (FORCE)`);
      await fs.rm(`${dataDir}-build`, { recursive: true, force: true });
      await fs.mkdir(`${dataDir}-build`);
      const database = await createTestDatabase({ name: `${name}_build` });
      const server = await boot({ SEED_CONTENT: "true" }, `${dataDir}-build`, database, false);
      await server.close();
      await whenUnused(admin, `ALTER DATABASE "${name}_build" RENAME TO "${name}"`);
      await fs.rename(`${dataDir}-build`, dataDir);
    }
  } finally {
    await admin.end();
  }
  return { database: name, dataDir };
}

async function boot(
  env: Record<string, string>,
  dataDir: string,
  database: TestDatabase,
  ownsDatabase: boolean,
  options: StartOptions = {},
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
    LOG_LEVEL: "warn",
    // Tests read the English texts unless they ask for Indonesian (the station's default is
    // checked in tests/i18n.test.ts and tests/browser/languages.test.ts).
    STATION_LANGUAGE: "en",
    // The live stream is recorded for rewinding, the built-in demo stream too: tests on the demo
    // stream leave it unrecorded unless they ask, so storage holds only what they wrote.
    ...(env.STREAM_URL ? {} : { REWIND_HOURS: "0" }),
    ...env,
  });
  const server = await startServer(config, options);
  return {
    ...server,
    dataDir,
    database,
    async restart(restart = {}) {
      await server.close();
      if (!restart.buildPath) return boot(env, dataDir, database, ownsDatabase);
      return boot({ ...env, PORT: String(server.port) }, dataDir, database, ownsDatabase, { buildPath: restart.buildPath });
    },
    async stop() {
      await server.close();
      if (ownsDatabase) await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
