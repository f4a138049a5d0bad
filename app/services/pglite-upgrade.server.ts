import fs from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { startPostgresCluster } from "./embedded-postgres.server";
import { applyMigrations } from "./migrations.server";
import type { StationDatabasePaths } from "./station-database.server";

/**
 * Stations created before the embedded PostgreSQL server kept their database in
 * PGlite (PostgreSQL compiled to WebAssembly) under DATA_DIR/pgdata. This module
 * is the only user of PGlite left in the app: it reads such a directory once and
 * moves every row and every sequence into the new embedded PostgreSQL server.
 */

export interface PgliteOverSocket {
  url: string;
  stop(): Promise<void>;
}

/**
 * A PGlite database served over a loopback TCP port, so `pg` (and the migration
 * runner) talks to it as to a real server: the way earlier versions ran the
 * station. `dataDir` null keeps it in memory.
 */
export async function openPgliteOverSocket(dataDir: string | null): Promise<PgliteOverSocket> {
  if (dataDir) await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  keepExtendedQueriesTogether(db);
  // A pool reconnects after a failed query; with one slot that reconnect is refused.
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 50 });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@${server.getServerConn()}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

// Extended-protocol message types that continue a query (Parse, Bind, Describe, Execute, Close,
// Flush); Sync ends it, as does a simple Query.
const EXTENDED = new Set(["P", "B", "D", "E", "C", "H"].map((type) => type.charCodeAt(0)));
const ENDS = new Set(["S", "Q"].map((type) => type.charCodeAt(0)));

/**
 * The socket server queues each protocol message on its own and only keeps one
 * connection's messages together inside a transaction, so under concurrent
 * load another connection's Parse can land between a Parse and its Bind
 * ("bind message supplies 3 parameters, but prepared statement "" requires 1").
 * Reporting "in a transaction" from a Parse until its Sync makes the queue keep
 * each query's messages together too.
 */
function keepExtendedQueriesTogether(db: PGlite): void {
  let midQuery = false;
  const isInTransaction = db.isInTransaction.bind(db);
  const execProtocolRawStream = db.execProtocolRawStream.bind(db);
  db.isInTransaction = () => midQuery || isInTransaction();
  db.execProtocolRawStream = (message, options) => {
    const type = message[0]!;
    if (EXTENDED.has(type)) midQuery = true;
    else if (ENDS.has(type)) midQuery = false;
    return execProtocolRawStream(message, options);
  };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const INSERT_BATCH = 500;

/** Every table and sequence of the current schema, as `pg` sees them. */
async function schemaObjects(client: pg.ClientBase): Promise<{ tables: string[]; sequences: string[] }> {
  const tables = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const sequences = await client.query<{ name: string }>(
    `SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1`,
  );
  return { tables: tables.rows.map((r) => r.name), sequences: sequences.rows.map((r) => r.name) };
}

export interface DatabaseContents {
  /** Each table's rows as JSON text, sorted, so two databases compare row for row. */
  tables: Record<string, string[]>;
  /** Each sequence's position: where the next id comes from. */
  sequences: Record<string, { lastValue: string; isCalled: boolean }>;
}

/** Everything a station keeps in its database, read in one snapshot (UTC timestamps). */
export async function readContents(client: pg.ClientBase): Promise<DatabaseContents> {
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    await client.query("SET LOCAL TimeZone = 'UTC'");
    const { tables, sequences } = await schemaObjects(client);
    const contents: DatabaseContents = { tables: {}, sequences: {} };
    for (const table of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${quote(table)} t`);
      contents.tables[table] = rows.map((r) => r.row).sort();
    }
    for (const sequence of sequences) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quote(sequence)}`);
      contents.sequences[sequence] = { lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called };
    }
    return contents;
  } finally {
    await client.query("COMMIT");
  }
}

/**
 * Writes `contents` into a database with the same schema, replacing what it holds (a
 * freshly migrated database holds only its migration bookkeeping, replaced by the
 * original's), in one transaction.
 */
async function writeContents(client: pg.ClientBase, contents: DatabaseContents): Promise<void> {
  const { tables, sequences } = await schemaObjects(client);
  const missing = [...Object.keys(contents.tables), ...Object.keys(contents.sequences)].filter((name) => !tables.includes(name) && !sequences.includes(name));
  if (missing.length > 0) throw new Error(`the new database lacks ${missing.join(", ")}`);
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL TimeZone = 'UTC'");
    // Rows go in table by table: foreign keys were satisfied in the original already.
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(`TRUNCATE ${tables.map(quote).join(", ")}`);
    for (const [table, rows] of Object.entries(contents.tables)) {
      for (let start = 0; start < rows.length; start += INSERT_BATCH) {
        const batch = `[${rows.slice(start, start + INSERT_BATCH).join(",")}]`;
        await client.query(`INSERT INTO ${quote(table)} SELECT * FROM json_populate_recordset(NULL::${quote(table)}, $1::json)`, [batch]);
      }
    }
    for (const [sequence, { lastValue, isCalled }] of Object.entries(contents.sequences)) {
      await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [quote(sequence), lastValue, isCalled]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Moves the PGlite station in `paths.pgliteDir` into a new PostgreSQL cluster at
 * `paths.dir`: migrations brought up to date on a copy (the original stays as it
 * was), every row and sequence copied in one transaction and read back to check
 * nothing differs. Only then does the new cluster take its place and the old
 * directory become the backup; any failure leaves the station as it was.
 * Stored files are not touched.
 */
export async function upgradeFromPglite(paths: StationDatabasePaths, database: string, log: (line: string) => void): Promise<void> {
  log(`Moving the station's PGlite database (${paths.pgliteDir}) into the embedded PostgreSQL server, once`);
  const started = Date.now();
  const copy = `${paths.pgliteDir}-upgrading`;
  const target = `${paths.dir}-upgrading`;
  await fs.rm(copy, { recursive: true, force: true });
  await fs.rm(target, { recursive: true, force: true });
  await fs.cp(paths.pgliteDir, copy, { recursive: true });
  let source: PgliteOverSocket | null = null;
  let cluster: Awaited<ReturnType<typeof startPostgresCluster>> | null = null;
  try {
    source = await openPgliteOverSocket(copy);
    await applyMigrations(source.url);
    const contents = await withClient(source.url, readContents);
    await source.stop();
    source = null;

    cluster = await startPostgresCluster({ dir: target, database, passwordFile: paths.passwordFile, log });
    await applyMigrations(cluster.url);
    await withClient(cluster.url, (client) => writeContents(client, contents));
    const written = await withClient(cluster.url, readContents);
    const differing = [...Object.keys(contents.tables), ...Object.keys(written.tables)].find(
      (table) => JSON.stringify(contents.tables[table]) !== JSON.stringify(written.tables[table]),
    );
    if (differing) throw new Error(`the table ${differing} did not arrive unchanged`);
    if (JSON.stringify(contents.sequences) !== JSON.stringify(written.sequences)) throw new Error("the id sequences did not arrive unchanged");
    await cluster.stop();
    cluster = null;

    await fs.rename(target, paths.dir);
    await fs.rename(paths.pgliteDir, paths.pgliteBackupDir);
    const rows = Object.values(contents.tables).reduce((sum, rows) => sum + rows.length, 0);
    log(`Moved ${rows} rows from ${Object.keys(contents.tables).length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    await source?.stop().catch(() => {});
    await cluster?.stop().catch(() => {});
    await fs.rm(target, { recursive: true, force: true });
    throw new Error(`Could not move the PGlite database into PostgreSQL (nothing was changed): ${(error as Error).message}`);
  } finally {
    await fs.rm(copy, { recursive: true, force: true });
  }
}
