import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export interface TestDatabase {
  url: string;
  kind: "postgres" | "embedded";
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a new database on the real
 * PostgreSQL at TEST_DATABASE_URL when set, otherwise on the embedded
 * PostgreSQL server the test run started (tests/global-setup.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const embeddedServerUrl = inject("embeddedServerUrl");
  const serverUrl = process.env.TEST_DATABASE_URL ?? embeddedServerUrl;
  if (!serverUrl) throw new Error("No test database server: set TEST_DATABASE_URL or run the tests through vitest's global setup");
  const name = `spin_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: process.env.TEST_DATABASE_URL ? "postgres" : "embedded",
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
