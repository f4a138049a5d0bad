import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "~/services/migrations.server";
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

  it("migrates once when several instances start together: the others wait on the lock, then find nothing left", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-migrations-"));
    await fs.mkdir(path.join(dir, "20200101000000_once"));
    await fs.writeFile(path.join(dir, "20200101000000_once", "migration.sql"), `CREATE TABLE "Once" (id INT);\nINSERT INTO "Once" VALUES (1);`);
    // Another instance is migrating: it holds the lock.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock(72707369)");
    const logs: string[][] = [[], [], []];
    const starts = logs.map((lines) => applyMigrations(database.url, (line) => lines.push(line), dir));
    // All three instances queue on the lock (and say so) while nothing is applied yet.
    const waiting = () =>
      query<{ n: number }>(
        database.url,
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
    for (let i = 0; i < 100 && (await waiting())[0].n < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await waiting())[0].n).toBe(3);
    for (const lines of logs) expect(lines).toEqual(["waiting for another instance to finish the database migrations"]);
    expect((await query<{ t: string | null }>(database.url, `SELECT to_regclass('"Once"')::text AS t`))[0].t).toBeNull();

    await holder.query("SELECT pg_advisory_unlock(72707369)");
    await holder.end();
    const applied = await Promise.all(starts);
    // Exactly one of them applied it; the others found it done.
    expect(applied.filter((names) => names.length > 0)).toEqual([["20200101000000_once"]]);
    expect(await query(database.url, `SELECT id FROM "Once"`)).toEqual([{ id: 1 }]);
    expect(await query(database.url, `SELECT migration_name FROM "_prisma_migrations"`)).toEqual([{ migration_name: "20200101000000_once" }]);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("turns the activity log's earlier lines into messages: keyed text as it was, English text where its shape says what it was", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-migrations-"));
    const names = (await fs.readdir(MIGRATIONS_DIR)).filter((name) => /^\d{14}_/.test(name) && name < "20261126082325_activity_messages");
    for (const name of names) await fs.cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    await applyMigrations(database.url, () => {}, dir);
    await query(
      database.url,
      `INSERT INTO "ActivityLog" (id, action, summary) VALUES
        ('keyed', 'event.created', 'admin.activityEventCreated {"name":"Konser","date":"2026-12-27","time":"19:30"}'),
        ('moved', 'crew-image.moved', 'Moved crew image Crew3 to #1'),
        ('airing', 'schedule.airing-moved', 'Moved "Tech Corner" from 2026-11-27 09:00 to 2026-11-28 10:00'),
        ('slot', 'schedule.slot-created', 'Scheduled "Tech Corner" every Monday at 09:00 for 60 min, from 26 Nov 2026'),
        ('broken', 'event.created', 'admin.activityEventCreated {not json}')`,
    );
    await applyMigrations(database.url);
    const rows = await query<{ id: string; messageKey: string | null; messageValues: unknown; summary: string }>(
      database.url,
      `SELECT id, "messageKey", "messageValues", summary FROM "ActivityLog" ORDER BY id`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, [row.messageKey, row.messageValues]]))).toEqual({
      keyed: ["admin.activityEventCreated", { name: "Konser", date: { date: "2026-12-27" }, time: { time: "19:30" } }],
      moved: ["admin.activityCrewImageMovedTo", { key: "Crew3", position: 1 }],
      airing: ["admin.activityAiringMoved", { show: "Tech Corner", from: { at: "2026-11-27T09:00" }, to: { at: "2026-11-28T10:00" } }],
      // A slot's words cannot be read back into its rule, nor text that only looks keyed: shown as written.
      slot: [null, null],
      broken: [null, null],
    });
    expect(rows.find((row) => row.id === "slot")!.summary).toMatch(/^Scheduled "Tech Corner" every Monday/);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
