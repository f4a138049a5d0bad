import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import tar from "tar-stream";
import type { AppConfig } from "./config.server";
import { assertDatabaseReachable } from "./database-check.server";
import { applyMigrations } from "./migrations.server";
import { startStationDatabase } from "./station-database.server";
import { collectBytes, createStorage, type Storage } from "./storage.server";

/**
 * A whole station in one .tar.gz: every row of every table (JSON lines, one
 * file per table, in an order that satisfies foreign keys) and every stored
 * file, then a manifest with counts and SHA-256 checksums of everything.
 * This is how an operator moves from the embedded defaults to docker-compose.
 */

const FORMAT = "spin-radio-station-archive";
const VERSION = 1;
const MANIFEST = "manifest.json";
// Not station data: the migrations bookkeeping, socket.io's transient broadcast payloads, and the
// rolling rewind buffer (hours of the live stream that the new home records afresh; show
// recordings and their episodes do move).
const SKIPPED_TABLES = new Set(["_prisma_migrations", "socket_io_attachments", "RewindSegment"]);
const SKIPPED_KEY_PREFIX = "rewind/";
const INSERT_BATCH = 500;
const MiB = 2 ** 20;

/**
 * What an archive may hold once unpacked, checked against each entry's tar header before its body
 * is inflated (a gzip bomb is refused without being unpacked) and counted again while it streams.
 * A stored file is at most a 200 MB upload; a table's rows and the manifest are far smaller.
 */
export const ARCHIVE_LIMITS = {
  fileBytes: 256 * MiB,
  rowsBytes: 256 * MiB,
  manifestBytes: 16 * MiB,
  totalBytes: 64 * 1024 * MiB,
  /** One row (one JSON line): rows are inserted in batches, never a whole table at once. */
  rowBytes: 16 * MiB,
};
const INSERT_BATCH_BYTES = 8 * MiB;

export class ArchiveError extends Error {
  name = "ArchiveError";
}

interface Manifest {
  format: typeof FORMAT;
  version: number;
  exportedAt: string;
  migrations: string[];
  tables: { name: string; rows: number; sha256: string }[];
  files: { key: string; size: number; sha256: string }[];
}

export interface ArchiveSummary {
  tables: { name: string; rows: number }[];
  files: number;
  bytes: number;
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const quote = (table: string) => `"${table.replaceAll('"', '""')}"`;

/** The station's tables, parents before the tables that point at them. */
async function tablesInInsertOrder(client: pg.ClientBase): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const { rows: links } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`,
  );
  const names = tables.map((t) => t.name).filter((name) => !SKIPPED_TABLES.has(name));
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const link of links) if (link.child === name && link.parent !== name) visit(link.parent, path);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

async function appliedMigrations(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return rows.map((row) => row.name);
}

async function listKeys(storage: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list()) if (!key.startsWith(SKIPPED_KEY_PREFIX)) keys.push(key);
  return keys.sort();
}

async function* hashing(stream: NodeJS.ReadableStream, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    yield chunk;
  }
}

/** Adds one entry to a tar-stream pack, streaming its body; tar-stream checks the announced size. */
function addEntry(pack: tar.Pack, name: string, size: number, body: Buffer | AsyncIterable<Buffer>, mtime = new Date()): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mtime, mode: 0o644 }, (error) => (error ? reject(error) : resolve()));
    if (Buffer.isBuffer(body)) entry.end(body);
    else pipeline(Readable.from(body), entry).catch(reject);
  });
}

/** Writes the station to `file` (a .tar.gz). Rows come from one consistent snapshot. */
export async function exportStation({ databaseUrl, storage, file }: { databaseUrl: string; storage: Storage; file: string }): Promise<ArchiveSummary> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const partial = `${file}.partial`;
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial));
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const manifest: Manifest = {
      format: FORMAT,
      version: VERSION,
      exportedAt: new Date().toISOString(),
      migrations: await appliedMigrations(client),
      tables: [],
      files: [],
    };
    for (const table of await tablesInInsertOrder(client)) {
      const { rows } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${quote(table)} t`);
      const body = Buffer.from(rows.map((r) => r.row + "\n").join(""));
      await addEntry(pack, `rows/${table}.jsonl`, body.length, body);
      manifest.tables.push({ name: table, rows: rows.length, sha256: sha256(body) });
    }
    const recorded = new Set((await client.query<{ key: string }>(`SELECT key FROM "StoredFile"`)).rows.map((r) => r.key));
    await client.query("COMMIT");

    for (const key of await listKeys(storage)) {
      const info = await storage.stat(key);
      // Removed since it was listed: only a problem if the rows still point at it.
      if (!info) {
        if (recorded.has(key)) throw new ArchiveError(`The file ${key} disappeared during the export; run it again`);
        continue;
      }
      const hash = createHash("sha256");
      await addEntry(pack, `files/${key}`, info.size, hashing(await storage.read(key), hash), info.lastModified);
      manifest.files.push({ key, size: info.size, sha256: hash.digest("hex") });
    }
    const missing = [...recorded].filter((key) => !manifest.files.some((f) => f.key === key));
    if (missing.length > 0) throw new ArchiveError(`Storage is missing ${missing.length} recorded files (e.g. ${missing[0]}); the archive would be incomplete`);

    const manifestBody = Buffer.from(JSON.stringify(manifest, null, 2));
    await addEntry(pack, MANIFEST, manifestBody.length, manifestBody);
    pack.finalize();
    await written;
    await rename(partial, file);
    return {
      tables: manifest.tables.map(({ name, rows }) => ({ name, rows })),
      files: manifest.files.length,
      bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
    };
  } catch (error) {
    pack.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

interface ArchiveEntry {
  /** The entry's path without a leading "./" (as `tar -czf x.tar.gz -C dir .` writes it). */
  name: string;
  body: AsyncIterable<Buffer>;
}

function entryLimit(name: string): number {
  if (name === MANIFEST) return ARCHIVE_LIMITS.manifestBytes;
  return name.startsWith("rows/") ? ARCHIVE_LIMITS.rowsBytes : ARCHIVE_LIMITS.fileBytes;
}

const megabytes = (bytes: number) => `${Math.ceil(bytes / MiB)} MB`;

/**
 * The regular files of an archive, in order, each body streamed (read it or
 * skip it before the next). Directory entries and PAX/GNU long-name records,
 * which GNU tar writes when it re-packs an archive, are understood and skipped.
 */
async function* entries(file: string): AsyncGenerator<ArchiveEntry> {
  const extract = tar.extract();
  const input = pipeline(createReadStream(file), createGunzip(), extract);
  let inputError: Error | null = null;
  input.catch((error: Error) => (inputError = error));
  const unreadable = (error: unknown) => new ArchiveError(`${file} is not a readable station archive: ${(inputError ?? (error as Error)).message}`);
  const tooLarge = (name: string, size: number, limit: number) =>
    new ArchiveError(`${file} is refused: ${name} is ${megabytes(size)} unpacked, over the limit of ${megabytes(limit)} (nothing was imported)`);
  // The bytes are counted as well as announced: an entry cannot hold more than its header says.
  async function* body(entry: AsyncIterable<Buffer>, name: string, limit: number): AsyncGenerator<Buffer> {
    let size = 0;
    try {
      for await (const chunk of entry) {
        size += chunk.length;
        if (size > limit) throw tooLarge(name, size, limit);
        yield chunk;
      }
    } catch (error) {
      throw error instanceof ArchiveError ? error : unreadable(error);
    }
  }
  let total = 0;
  try {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/^(\.\/)+/, "");
      if (entry.header.type === "file" || entry.header.type === "contiguous-file") {
        const size = entry.header.size ?? 0;
        const limit = entryLimit(name);
        if (size > limit) throw tooLarge(name, size, limit);
        total += size;
        if (total > ARCHIVE_LIMITS.totalBytes) throw tooLarge("the archive", total, ARCHIVE_LIMITS.totalBytes);
        yield { name, body: body(entry as AsyncIterable<Buffer>, name, limit) };
      }
      entry.resume();
    }
    await input;
  } catch (error) {
    throw error instanceof ArchiveError ? error : unreadable(error);
  } finally {
    // Also when the reader stops early: close the file and the gunzip stream.
    extract.destroy();
  }
}

async function hashOf(body: AsyncIterable<Buffer>): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of body) hash.update(chunk);
  return hash.digest("hex");
}

/** Reads the whole archive once, streaming, and checks every entry against the manifest. */
async function verifyArchive(file: string): Promise<Manifest> {
  const seen = new Map<string, string>();
  let manifest: Manifest | null = null;
  for await (const entry of entries(file)) {
    if (entry.name === MANIFEST) {
      try {
        manifest = JSON.parse((await collectBytes(entry.body)).toString("utf8")) as Manifest;
      } catch {
        throw new ArchiveError(`${file} is not a station archive (its manifest is not JSON)`);
      }
    } else seen.set(entry.name, await hashOf(entry.body));
  }
  if (!manifest || manifest.format !== FORMAT) throw new ArchiveError(`${file} is not a station archive (no manifest)`);
  if (manifest.version !== VERSION) throw new ArchiveError(`${file} is archive version ${manifest.version}; this app reads version ${VERSION}`);
  const expected = [
    ...manifest.tables.map((t) => [`rows/${t.name}.jsonl`, t.sha256] as const),
    ...manifest.files.map((f) => [`files/${f.key}`, f.sha256] as const),
  ];
  for (const [name, checksum] of expected) {
    if (seen.get(name) !== checksum) throw new ArchiveError(`${file} is damaged: ${name} is ${seen.has(name) ? "corrupted" : "missing"}`);
  }
  return manifest;
}

async function describeContents(client: pg.ClientBase, storage: Storage, tables: string[]): Promise<string[]> {
  const contents: string[] = [];
  for (const table of tables) {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table)}`);
    if (rows[0]!.n > 0) contents.push(`${rows[0]!.n} ${table} rows`);
  }
  let files = 0;
  for await (const _key of storage.list()) files++;
  if (files > 0) contents.push(`${files} stored files`);
  return contents;
}

/** The JSON lines of a staged rows file, in batches of at most INSERT_BATCH rows and INSERT_BATCH_BYTES. */
async function* rowBatches(file: string, table: string): AsyncGenerator<string[]> {
  let batch: string[] = [];
  let batchBytes = 0;
  let pending = "";
  const take = (line: string) => {
    if (line === "") return;
    batch.push(line);
    batchBytes += line.length;
  };
  for await (const chunk of createReadStream(file, { encoding: "utf8" }) as AsyncIterable<string>) {
    const newline = chunk.lastIndexOf("\n");
    if (newline < 0) {
      pending += chunk;
      if (pending.length > ARCHIVE_LIMITS.rowBytes)
        throw new ArchiveError(`A row of ${table} is over ${megabytes(ARCHIVE_LIMITS.rowBytes)}; nothing was imported`);
      continue;
    }
    const lines = (pending + chunk.slice(0, newline)).split("\n");
    pending = chunk.slice(newline + 1);
    for (const line of lines) {
      take(line);
      if (batch.length >= INSERT_BATCH || batchBytes >= INSERT_BATCH_BYTES) {
        yield batch;
        batch = [];
        batchBytes = 0;
      }
    }
  }
  take(pending);
  if (batch.length > 0) yield batch;
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  png: "image/png",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  flac: "audio/flac",
  aiff: "audio/aiff",
  vtt: "text/vtt",
  srt: "application/x-subrip",
};

/**
 * Restores an archive into an empty station: checks the whole archive first,
 * applies this app's migrations, refuses a station that already has rows or
 * files, then writes the files and inserts every row in one transaction. If
 * the rows fail, the files written are removed again: the station stays empty.
 */
export async function importStation({
  databaseUrl,
  storage,
  file,
  log = () => {},
}: {
  databaseUrl: string;
  storage: Storage;
  file: string;
  log?: (line: string) => void;
}): Promise<ArchiveSummary> {
  const manifest = await verifyArchive(file);
  await applyMigrations(databaseUrl, log);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const written: string[] = [];
  let staging: string | null = null;
  try {
    const migrations = await appliedMigrations(client);
    if (migrations.join() !== manifest.migrations.join()) {
      throw new ArchiveError(
        `The archive was exported by a different version of the app (its last migration is ${manifest.migrations.at(-1) ?? "none"}, this app's is ${migrations.at(-1) ?? "none"}); import it with the same version`,
      );
    }
    const tables = await tablesInInsertOrder(client);
    const unknown = manifest.tables.filter((t) => !tables.includes(t.name));
    if (unknown.length > 0) throw new ArchiveError(`The archive has tables this database lacks: ${unknown.map((t) => t.name).join(", ")}`);
    const contents = await describeContents(client, storage, tables);
    if (contents.length > 0) {
      throw new ArchiveError(`This station is not empty (${contents.join(", ")}). Import only into a new station: an empty database and empty storage.`);
    }

    // Nothing is held whole: each file streams to a temp file and from there into storage, each
    // table's rows to a temp file read back in batches (the archive's order need not be the
    // tables' insert order).
    staging = await mkdtemp(path.join(os.tmpdir(), "station-import-"));
    const expectedFiles = new Set(manifest.files.map((f) => `files/${f.key}`));
    const rowFiles = new Map<string, string>();
    for await (const entry of entries(file)) {
      const table = /^rows\/(.+)\.jsonl$/.exec(entry.name)?.[1];
      if (expectedFiles.has(entry.name)) {
        const key = entry.name.slice("files/".length);
        const staged = path.join(staging, "file");
        await pipeline(Readable.from(entry.body), createWriteStream(staged));
        await storage.putFile(key, staged, CONTENT_TYPES[key.split(".").pop() ?? ""] ?? "application/octet-stream");
        await rm(staged, { force: true });
        written.push(key);
      } else if (table && manifest.tables.some((t) => t.name === table)) {
        const staged = path.join(staging, `rows-${rowFiles.size}`);
        await pipeline(Readable.from(entry.body), createWriteStream(staged));
        rowFiles.set(table, staged);
      }
    }

    const order = new Map(tables.map((name, index) => [name, index]));
    await client.query("BEGIN");
    for (const table of [...rowFiles.keys()].sort((a, b) => order.get(a)! - order.get(b)!)) {
      for await (const rows of rowBatches(rowFiles.get(table)!, table)) {
        await client.query(`INSERT INTO ${quote(table)} SELECT * FROM json_populate_recordset(NULL::${quote(table)}, $1::json)`, [`[${rows.join(",")}]`]);
      }
    }
    // Serial ids continue after the imported ones.
    const { rows: serials } = await client.query<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
    );
    for (const { table, column } of serials) {
      if (!rowFiles.has(table)) continue;
      await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${quote(column)}) FROM ${quote(table)}), 0) + 1, false)`, [
        quote(table),
        column,
      ]);
    }
    await client.query("COMMIT");
    return {
      tables: manifest.tables.map(({ name, rows }) => ({ name, rows })),
      files: manifest.files.length,
      bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    for (const key of written) await storage.remove(key).catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
    if (staging) await rm(staging, { recursive: true, force: true });
  }
}

/**
 * For `npm run export` / `npm run import`: the station's database (the
 * embedded one under DATA_DIR when DATABASE_URL is unset, so the server must
 * be stopped) and its storage, as the server would open them.
 */
export async function withStation<T>(config: AppConfig, use: (station: { databaseUrl: string; storage: Storage }) => Promise<T>): Promise<T> {
  const embedded = config.databaseUrl ? null : await startStationDatabase(config.dataDir);
  try {
    const databaseUrl = config.databaseUrl ?? embedded!.url;
    await assertDatabaseReachable(databaseUrl);
    const storage = await createStorage(config.s3 ? { s3: config.s3 } : { dataDir: config.dataDir });
    return await use({ databaseUrl, storage });
  } finally {
    await embedded?.stop();
  }
}
