// npm run db:migration -- <name>
//
// Creates prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql from the
// changes between the existing migrations and prisma/schema.prisma, the way
// `prisma migrate dev --create-only --name <name>` would, but offline: the CLI
// needs a native schema engine it would have to download, so we run Prisma's
// own engine as WebAssembly (scripts/lib/schema-engine.ts). The migrations are
// replayed on an in-memory PGlite, so no database server is needed.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

import {
  LOCKFILE_NAME,
  MIGRATION_FILE_NAME,
  diffMigrationsToSchema,
  migrationLockfile,
  openSchemaEngine,
  readMigrationsList,
  readSchemaFile,
} from "./lib/schema-engine";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemaPath = path.join(root, "prisma", "schema.prisma");
const migrationsDir = path.join(root, "prisma", "migrations");

/**
 * What the Prisma CLI makes of `--name`: @sindresorhus/slugify with "_" as the
 * separator, cut at 200 characters. These are its steps; only its large table
 * of transliterations (ß -> ss, Cyrillic, ...) is left out, so such letters
 * become separators here.
 */
function slugifyMigrationName(name: string): string {
  return (
    name
      .replace(/&/g, " and ")
      .replace(/\u2665/g, " love ")
      .replace(/\u{1F984}/gu, " unicorn ")
      .normalize("NFD")
      .replace(/\p{Diacritic}/gu, "") // "é" -> "e"
      .normalize()
      // decamelize: "addShowSchedule" -> "add Show Schedule", "HTMLParser" -> "HTML Parser"
      .replace(/([A-Z]{2,})(\d+)/g, "$1 $2")
      .replace(/([a-z\d]+)([A-Z]{2,})/g, "$1 $2")
      .replace(/([a-z\d])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, "$1 $2")
      .toLowerCase()
      .replace(/([a-zA-Z\d]+)'([ts])(\s|$)/g, "$1$2$3") // "station's" -> "stations"
      .replace(/[^a-z\d]+/g, "_")
      .replace(/^_|_$/g, "")
      .substring(0, 200)
  );
}

/** The engine names migration directories after the current UTC time, to the second. */
function migrationTimestamp(now = new Date()): string {
  return now.toISOString().replace(/\D/g, "").slice(0, 14);
}

/**
 * Statements that can lose data or fail on a non-empty database.
 *
 * `prisma migrate dev` puts such warnings in a comment at the top of
 * migration.sql. They come from the engine's createMigration and
 * evaluateDataLoss, which the WebAssembly build cannot run on PostgreSQL (they
 * insist on a shadow database the engine creates itself), and `diff` does not
 * produce them. So the file holds the engine's SQL only, and we point out the
 * risky statements on the console instead.
 */
function riskyStatements(sql: string): string[] {
  const risky = [
    /^DROP TABLE/,
    /\bDROP COLUMN\b/,
    /\bADD COLUMN\b(?![^;]*\bDEFAULT\b)[^;]*\bNOT NULL\b/,
    /\bSET NOT NULL\b/,
    /\bSET DATA TYPE\b/,
    /^CREATE UNIQUE INDEX/,
    /^DROP TYPE|^ALTER TYPE/,
  ];
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => risky.some((pattern) => pattern.test(statement)));
}

async function main(): Promise<number> {
  const name = slugifyMigrationName(process.argv.slice(2).join(" "));
  if (!name) {
    console.error("Usage: npm run db:migration -- <name>   (e.g. add_show_schedule)");
    return 64;
  }

  const schema = await readSchemaFile(schemaPath);
  const migrations = await readMigrationsList(migrationsDir);
  // The engine learns the provider of a migration history from its lockfile and
  // refuses to diff without one. Before the first migration there is none yet:
  // hand it the one we are about to write, so nothing touches the disk when
  // there turns out to be nothing to write.
  migrations.lockfile.content ??= migrationLockfile();
  const opened = await openSchemaEngine({ schema });
  let sql: string | null;
  try {
    sql = await diffMigrationsToSchema(opened, migrations, schema);
  } finally {
    await opened.dispose();
  }

  if (sql === null) {
    console.log("No schema changes: prisma/schema.prisma matches the existing migrations.");
    return 0;
  }

  const directory = `${migrationTimestamp()}_${name}`;
  const target = path.join(migrationsDir, directory);
  await mkdir(target, { recursive: true });
  // `flag: "wx"` refuses to overwrite: two runs within the same second must not
  // silently replace each other's migration.
  await writeFile(path.join(target, MIGRATION_FILE_NAME), sql, { encoding: "utf8", flag: "wx" });
  // Prisma (re)writes the lockfile with every new migration; it only ever says
  // which provider the history was written for.
  await writeFile(path.join(migrationsDir, LOCKFILE_NAME), migrationLockfile(), "utf8");

  console.log(`Created prisma/migrations/${directory}/${MIGRATION_FILE_NAME}`);
  const risky = riskyStatements(sql);
  if (risky.length > 0) {
    console.warn("\nReview before applying: these statements can lose data or fail on a non-empty database:");
    for (const statement of risky) console.warn(`  - ${statement.replace(/\s+/g, " ")}`);
  }
  return 0;
}

// The engine leaves a timer behind that keeps Node alive for about ten seconds,
// so the process ends explicitly once the work is done.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
