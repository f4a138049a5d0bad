import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";

// Every model of the schema is a table; new models are covered without touching this file.
const TABLES = [...readFileSync(path.resolve("prisma/schema.prisma"), "utf8").matchAll(/^model (\w+) \{/gm)].map((match) => match[1]);

// What legitimately changes while nothing is being written: attempt counters, the admin session's
// last-seen time, and the song history the stream follower keeps as the (demo) stream plays.
const IGNORED_TABLES = new Set(["RateLimit", "SongPlay"]);
const IGNORED_COLUMNS: Record<string, string[]> = { AdminSession: ["lastSeenAt"] };

export interface TableSnapshot {
  count: number;
  hash: string;
  /** Each row as JSON, sorted: shown when a table changed. */
  rows: string[];
}

/** Every table's rows (count and hash) and every object in storage at one moment. */
export interface StationSnapshot {
  tables: Record<string, TableSnapshot>;
  storage: string[];
}

async function tableSnapshot(table: string): Promise<TableSnapshot> {
  const ignored = (IGNORED_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join("");
  const result = await db().$queryRawUnsafe<{ row: string }[]>(`SELECT (to_jsonb(t)${ignored})::text AS row FROM "${table}" t`);
  const rows = result.map((r) => r.row).sort();
  return { count: rows.length, hash: createHash("sha256").update(rows.join("\n")).digest("hex"), rows };
}

export async function takeSnapshot(): Promise<StationSnapshot> {
  const tables: Record<string, TableSnapshot> = {};
  const watched = TABLES.filter((table) => !IGNORED_TABLES.has(table));
  const results = await Promise.all(watched.map(tableSnapshot));
  watched.forEach((table, index) => (tables[table] = results[index]));
  const storage: string[] = [];
  for await (const key of getStorage().list()) storage.push(key);
  return { tables, storage: storage.sort() };
}

/** What differs between two snapshots, readable in a failed assertion: [] when nothing changed. */
export function snapshotChanges(before: StationSnapshot, after: StationSnapshot): string[] {
  const changes: string[] = [];
  for (const [table, was] of Object.entries(before.tables)) {
    const now = after.tables[table];
    if (now.hash === was.hash) continue;
    const added = now.rows.filter((row) => !was.rows.includes(row));
    const removed = was.rows.filter((row) => !now.rows.includes(row));
    changes.push(`${table}: ${was.count} → ${now.count} rows; added ${JSON.stringify(added)}; removed ${JSON.stringify(removed)}`);
  }
  const addedKeys = after.storage.filter((key) => !before.storage.includes(key));
  const removedKeys = before.storage.filter((key) => !after.storage.includes(key));
  if (addedKeys.length > 0 || removedKeys.length > 0) changes.push(`storage: added ${JSON.stringify(addedKeys)}; removed ${JSON.stringify(removedKeys)}`);
  return changes;
}

/** Fails with the list of changes when the database or storage differs from `before`. */
export async function expectUnchangedSince(before: StationSnapshot, label = ""): Promise<void> {
  expect(snapshotChanges(before, await takeSnapshot()), label).toEqual([]);
}

/** What is in a server's upload temp folder (DATA_DIR/tmp/uploads): [] when every staged file was removed. */
export async function stagedUploads(dataDir: string): Promise<string[]> {
  return readdir(path.join(dataDir, "tmp", "uploads")).catch(() => []);
}
