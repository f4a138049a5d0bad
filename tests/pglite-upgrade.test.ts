// A station created by an earlier version keeps its database in PGlite under DATA_DIR/pgdata.
// Its first start on this version moves every row and sequence into the embedded PostgreSQL
// server once, keeps the old directory as a backup and leaves the stored files alone.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { connectDb, disconnectDb } from "~/services/db.server";
import { applyMigrations } from "~/services/migrations.server";
import { openPgliteOverSocket, readContents, type DatabaseContents } from "~/services/pglite-upgrade.server";
import { startStationDatabase, stationDatabasePaths } from "~/services/station-database.server";
import { createStorage, setStorage } from "~/services/storage.server";
import { ensurePins } from "~/models/pins.server";
import { SEED_DIR, seedStation } from "~/models/seed.server";

/** The bundled demo content cut down to a few of each kind (image encoding is what takes time). */
async function smallSeed(dir: string): Promise<string> {
  const manifest = JSON.parse(await fs.readFile(path.join(SEED_DIR, "manifest.json"), "utf8"));
  for (const list of ["episodes", "crewImages", "crewMembers"]) manifest[list] = manifest[list].slice(0, 3);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  for (const entry of await fs.readdir(SEED_DIR)) if (entry !== "manifest.json") await fs.symlink(path.join(SEED_DIR, entry), path.join(dir, entry));
  return dir;
}

async function contentsAt(url: string): Promise<DatabaseContents> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await readContents(client);
  } finally {
    await client.end();
  }
}

/** Every file under `dir` with its SHA-256, to show a directory was left as it was. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    result[path.relative(dir, file)] = createHash("sha256")
      .update(await fs.readFile(file))
      .digest("hex");
  }
  return result;
}

describe("upgrading a PGlite station", () => {
  let dataDir: string;
  let before: DatabaseContents;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-upgrade-"));
    // The earlier version's start: PGlite in DATA_DIR/pgdata behind a loopback socket, migrated and seeded.
    const pglite = await openPgliteOverSocket(path.join(dataDir, "pgdata"));
    try {
      await applyMigrations(pglite.url);
      connectDb(pglite.url);
      setStorage(await createStorage({ dataDir }));
      await ensurePins(() => {});
      expect(await seedStation(await smallSeed(path.join(dataDir, "seed")))).toBe(true);
      await disconnectDb();
      setStorage(undefined);

      // Then the station is used: edits that a lossy copy would get wrong.
      const client = new pg.Client({ connectionString: pglite.url });
      await client.connect();
      // The newest episode is deleted: its id must not be handed out again.
      await client.query(`DELETE FROM "PodcastEpisode" WHERE id = (SELECT max(id) FROM "PodcastEpisode")`);
      await client.query(`UPDATE "PodcastEpisode" SET title = $1, description = $2 WHERE id = (SELECT min(id) FROM "PodcastEpisode")`, [
        'Ｓｐｉｎ 🎧 "quoted" \\ back-slashed',
        "line one\nline two\ttabbed; NUL-free but 'quoted' and ünïcödé",
      ]);
      await client.query(`UPDATE "Event" SET "updatedAt" = '2024-02-29 23:59:59.123456+00' WHERE id = (SELECT min(id) FROM "Event")`);
      await client.query(
        `INSERT INTO "EpisodePlay" (id, "episodeId", "listenerKey", "playedAt") SELECT 'play-' || g, (SELECT min(id) FROM "PodcastEpisode"), 'listener-' || g, now() - g * interval '1 minute' FROM generate_series(1, 1200) g`,
      );
      await client.end();
      before = await contentsAt(pglite.url);
    } finally {
      await pglite.stop();
    }
  });

  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("moves every row and sequence once, keeps the old directory as a backup and the files untouched", async () => {
    const paths = stationDatabasePaths(dataDir);
    const oldDatabase = await fingerprint(paths.pgliteDir);
    const files = await fingerprint(path.join(dataDir, "files"));
    expect(Object.keys(files).length).toBeGreaterThan(5);
    expect(before.tables.PodcastEpisode!.length).toBeGreaterThan(1);
    expect(before.tables.EpisodePlay!.length).toBe(1200);

    const lines: string[] = [];
    const database = await startStationDatabase(dataDir, (line) => lines.push(line));
    try {
      expect(lines.join("\n")).toMatch(/Moved \d+ rows from \d+ tables/);
      const after = await contentsAt(database.url);
      // Every table (the migration bookkeeping included) row for row, and every sequence's position.
      expect(Object.keys(after.tables).sort()).toEqual(Object.keys(before.tables).sort());
      for (const table of Object.keys(before.tables)) expect({ table, rows: after.tables[table] }).toEqual({ table, rows: before.tables[table] });
      expect(after.sequences).toEqual(before.sequences);
      expect(Object.keys(after.sequences).length).toBeGreaterThan(0);

      // The next episode gets a new id, not the deleted newest one's.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('"PodcastEpisode"', 'id'))::int AS id`);
      await client.end();
      const deletedId = Number(before.sequences.PodcastEpisode_id_seq!.lastValue);
      expect(rows[0]!.id).toBe(deletedId + 1);
    } finally {
      await database.stop();
    }

    await expect(fs.access(paths.pgliteDir)).rejects.toThrow();
    expect(await fingerprint(paths.pgliteBackupDir)).toEqual(oldDatabase);
    expect(await fingerprint(path.join(dataDir, "files"))).toEqual(files);

    // Once: the next start finds the upgraded station and moves nothing.
    const again: string[] = [];
    const restarted = await startStationDatabase(dataDir, (line) => again.push(line));
    try {
      expect(again.join("\n")).not.toMatch(/PGlite/);
      expect((await contentsAt(restarted.url)).tables.PodcastEpisode!.length).toBe(before.tables.PodcastEpisode!.length);
    } finally {
      await restarted.stop();
    }
  });

  it("changes nothing when the old database cannot be read", async () => {
    const broken = await fs.mkdtemp(path.join(os.tmpdir(), "spin-upgrade-broken-"));
    try {
      const paths = stationDatabasePaths(broken);
      await fs.mkdir(paths.pgliteDir, { recursive: true });
      await fs.writeFile(path.join(paths.pgliteDir, "PG_VERSION"), "17\n");
      await fs.writeFile(path.join(paths.pgliteDir, "postgresql.conf"), "this is not a setting\n");
      const original = await fingerprint(paths.pgliteDir);
      await expect(startStationDatabase(broken)).rejects.toThrow(/Could not move the PGlite database into PostgreSQL \(nothing was changed\)/);
      expect(await fingerprint(paths.pgliteDir)).toEqual(original);
      await expect(fs.access(paths.dir)).rejects.toThrow();
      await expect(fs.access(paths.lockFile)).rejects.toThrow();
    } finally {
      await fs.rm(broken, { recursive: true, force: true });
    }
  });
});
