import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export interface TestDatabase {
  url: string;
  kind: "postgres" | "embedded";
  drop(): Promise<void>;
}

/** The PostgreSQL server test databases are created on. */
export function testDatabaseServerUrl(): string {
  const serverUrl = process.env.TEST_DATABASE_URL ?? inject("embeddedServerUrl");
  if (!serverUrl) throw new Error("No test database server: set TEST_DATABASE_URL or run the tests through vitest's global setup");
  return serverUrl;
}

/**
 * Runs a statement PostgreSQL refuses while anyone else is connected to the database it
 * names (CREATE DATABASE … TEMPLATE, ALTER DATABASE … RENAME): a closing pool may linger a moment.
 */
export async function whenUnused(admin: pg.Client, statement: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(statement);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A fresh, empty database (or a copy of `template`) for one test file: a new database on the real
 * PostgreSQL at TEST_DATABASE_URL when set, otherwise on the embedded
 * PostgreSQL server the test run started (tests/global-setup.ts).
 */
export async function createTestDatabase(options: { template?: string; name?: string } = {}): Promise<TestDatabase> {
  const serverUrl = testDatabaseServerUrl();
  const name = options.name ?? `spin_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (!options.template) await admin.query(`CREATE DATABASE "${name}"`);
    else await whenUnused(admin, `CREATE DATABASE "${name}" TEMPLATE "${options.template}"`);
  } finally {
    await admin.end();
  }
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
