import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { applyMigrations, readMigrations } from "~/services/migrations.server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("applyMigrations", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.drop();
  });

  it("applies every committed migration once and records it the way Prisma does", async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);

    const first = await applyMigrations(database.url);
    expect(first).toEqual(migrations.map((m) => m.name));
    const again = await applyMigrations(database.url);
    expect(again).toEqual([]);

    const rows = await query<{ migration_name: string; checksum: string; applied_steps_count: number; finished_at: Date | null }>(
      database.url,
      `SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(migrations[i].checksum);
      expect(row.applied_steps_count).toBe(1);
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    const tables = await query<{ table_name: string }>(database.url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["StoredFile", "CrewMember", "CrewImage", "Event", "Embed", "SiteImage", "PodcastEpisode", "User"]),
    );
  });

  it("leaves nothing behind when a migration fails", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-migrations-"));
    await fs.mkdir(path.join(dir, "20200101000000_good"));
    await fs.writeFile(path.join(dir, "20200101000000_good", "migration.sql"), `CREATE TABLE "Good" (id INT);`);
    await fs.mkdir(path.join(dir, "20200102000000_bad"));
    await fs.writeFile(path.join(dir, "20200102000000_bad", "migration.sql"), `CREATE TABLE "Half" (id INT);\nSELECT no_such_function();`);

    await expect(applyMigrations(database.url, () => {}, dir)).rejects.toThrow(/20200102000000_bad failed/);
    const rows = await query<{ migration_name: string }>(database.url, `SELECT migration_name FROM "_prisma_migrations"`);
    expect(rows.map((r) => r.migration_name)).toEqual(["20200101000000_good"]);
    const half = await query<{ exists: boolean }>(database.url, `SELECT to_regclass('"Half"') IS NOT NULL AS exists`);
    expect(half[0].exists).toBe(false);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
