// The migrations in prisma/migrations must build exactly the database that
// prisma/schema.prisma describes, and must apply cleanly to an empty database,
// both on the embedded PGlite and (when TEST_DATABASE_URL is set) on a real
// PostgreSQL server. Drift is checked with Prisma's own schema engine, run
// offline as WebAssembly (scripts/lib/schema-engine.ts).
import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

import {
  NO_FILTERS,
  diffMigrationsToSchema,
  openSchemaEngine,
  readMigrationsList,
  readSchemaFile,
  type MigrationList,
  type OpenedSchemaEngine,
  type SchemaFile,
} from "../scripts/lib/schema-engine";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrationsDir = path.join(root, "prisma", "migrations");
const schemaPath = path.join(root, "prisma", "schema.prisma");
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const FIX_DRIFT =
  "prisma/schema.prisma and prisma/migrations disagree: run `npm run db:migration -- <name>` " +
  "to add a migration for the schema change (never edit a migration that was already applied)";

interface Migration {
  name: string;
  sql: string;
}

function migrationScripts(list: MigrationList): Migration[] {
  return list.migrationDirectories.map((directory) => {
    const content = directory.migrationFile.content;
    if (content.tag !== "ok") throw new Error(`${directory.path}: ${content.value}`);
    return { name: directory.path, sql: content.value };
  });
}

/** Table names the schema's models map to (`@@map` honoured). */
function expectedTables(schema: string): string[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{([^}]*)\}/gm)].map(([, model, body]) => /@@map\(\s*"([^"]+)"/.exec(body)?.[1] ?? model).sort();
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let schema: SchemaFile;
let migrationsList: MigrationList;
let migrations: Migration[];

beforeAll(async () => {
  schema = await readSchemaFile(schemaPath);
  migrationsList = await readMigrationsList(migrationsDir);
  migrations = migrationScripts(migrationsList);
});

describe("prisma/migrations", () => {
  it("has Prisma's lockfile for PostgreSQL and at least one migration", async () => {
    expect(await readFile(path.join(migrationsDir, "migration_lock.toml"), "utf8")).toMatch(/^provider = "postgresql"$/m);
    expect(migrations.length).toBeGreaterThan(0);
    for (const { name } of migrations) expect(name).toMatch(/^\d{14}_\w+$/);
  });
});

describe("on in-memory PGlite", () => {
  let opened: OpenedSchemaEngine;

  beforeAll(async () => {
    // Main and shadow database: two fresh in-memory PGlite instances.
    opened = await openSchemaEngine({ schema });
  });
  afterAll(async () => {
    await opened?.dispose();
  });

  it("the migrations build exactly what schema.prisma describes (no drift)", async () => {
    const missing = await diffMigrationsToSchema(opened, migrationsList, schema);
    expect(missing, FIX_DRIFT).toBeNull();
  });

  it("each migration's SQL applies cleanly, in one transaction, to a fresh database", async () => {
    const db = await PGlite.create();
    try {
      for (const { sql } of migrations) await db.transaction((tx) => tx.exec(sql));
      const { rows } = await db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      expect(rows.map((row) => row.table_name).sort()).toEqual(expectedTables(schema.content));
    } finally {
      await db.close();
    }
  });

  it("Prisma's own applyMigrations records every migration in _prisma_migrations", async () => {
    const result = await opened.engine.applyMigrations({ migrationsList, filters: NO_FILTERS }).catch((error: unknown) => {
      throw opened.explain(error);
    });
    expect(result.appliedMigrationNames).toEqual(migrations.map((m) => m.name));

    const history = await opened.engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });
    expect(history).toMatchObject({ history: null, failedMigrationNames: [], editedMigrationNames: [] });
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on the PostgreSQL server of TEST_DATABASE_URL", () => {
  const suffix = `${Date.now()}_${randomBytes(4).toString("hex")}`;
  const scratch = { plain: `migrations_test_${suffix}`, prisma: `migrations_prisma_${suffix}`, shadow: `migrations_shadow_${suffix}` };
  let admin: pg.Client;

  const urlFor = (database: string) => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    return url.toString();
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    for (const name of Object.values(scratch)) await admin.query(`CREATE DATABASE "${name}"`);
  });

  afterAll(async () => {
    if (!admin) return;
    // FORCE ends connections a failed test may have left open (PostgreSQL 13+).
    for (const name of Object.values(scratch)) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it("each migration's SQL applies cleanly, in one transaction, to a fresh database", async () => {
    const client = new pg.Client({ connectionString: urlFor(scratch.plain) });
    await client.connect();
    try {
      for (const { name, sql } of migrations) {
        await client.query("BEGIN");
        try {
          await client.query(sql);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
        }
      }
      const { rows } = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      expect(rows.map((row) => row.table_name).sort()).toEqual(expectedTables(schema.content));
    } finally {
      await client.end();
    }
  });

  describe("with Prisma's schema engine", () => {
    let opened: OpenedSchemaEngine;

    beforeAll(async () => {
      opened = await openSchemaEngine({
        schema,
        main: { connectionString: urlFor(scratch.prisma) },
        shadow: { config: { connectionString: urlFor(scratch.shadow) } },
      });
    });
    afterAll(async () => {
      await opened?.dispose();
    });

    it("the migrations replayed on this server build exactly what schema.prisma describes", async () => {
      expect(await diffMigrationsToSchema(opened, migrationsList, schema), FIX_DRIFT).toBeNull();
    });

    it("applyMigrations writes the _prisma_migrations rows that `prisma migrate status` reads", async () => {
      await opened.engine.applyMigrations({ migrationsList, filters: NO_FILTERS }).catch((error: unknown) => {
        throw opened.explain(error);
      });
      const client = new pg.Client({ connectionString: urlFor(scratch.prisma) });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT migration_name, checksum, finished_at, rolled_back_at, logs, applied_steps_count
             FROM _prisma_migrations ORDER BY started_at`,
        );
        expect(rows).toEqual(
          migrations.map(({ name, sql }) => ({
            migration_name: name,
            checksum: sha256(sql),
            finished_at: expect.any(Date),
            rolled_back_at: null,
            logs: null,
            applied_steps_count: 1,
          })),
        );
      } finally {
        await client.end();
      }
    });
  });
});
