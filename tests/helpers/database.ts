import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbeddedPostgres } from "~/services/embedded-postgres.server";

export interface TestDatabase {
  url: string;
  kind: "postgres" | "embedded";
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a new database on the real
 * PostgreSQL at TEST_DATABASE_URL when set, otherwise an in-memory PGlite.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres(null);
    return { url: embedded.url, kind: "embedded", drop: () => embedded.stop() };
  }
  const name = `spin_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: "postgres",
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
