import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";

export const MIGRATIONS_DIR = path.resolve("prisma/migrations");

// The same key `prisma migrate deploy` locks, so our runner and Prisma's never overlap.
const PRISMA_ADVISORY_LOCK = 72707369;

// Prisma's own bookkeeping table, column for column, so `prisma migrate deploy`
// and `prisma migrate status` accept a database migrated by this runner.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** The committed migrations, oldest first (directory names start with a timestamp). */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await fs.readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * Applies every pending migration, each in its own transaction together with its
 * `_prisma_migrations` row, so a failure leaves no half-applied migration behind.
 * Returns the names applied. Safe to run from several instances at once.
 */
export async function applyMigrations(databaseUrl: string, log: (line: string) => void = () => {}, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    // With several instances starting at once (docker compose --scale, an upgrade), one migrates
    // and the others wait here for it, then find nothing left to apply.
    const free = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_ADVISORY_LOCK]);
    if (!free.rows[0].locked) {
      log("waiting for another instance to finish the database migrations");
      await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    }
    await client.query(CREATE_MIGRATIONS_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const doneByName = new Map(done.rows.map((row) => [row.migration_name, row.checksum]));
    for (const migration of migrations) {
      const checksum = doneByName.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) log(`warning: migration ${migration.name} was edited after it was applied`);
        continue;
      }
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
          id,
          migration.checksum,
          migration.name,
        ]);
        // One simple-protocol query runs the whole script, $$-bodies included.
        await client.query(migration.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
      log(`applied migration ${migration.name}`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
  return applied;
}
