// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the
// embedded database under DATA_DIR when it is unset (the server does the same at start).
import { ConfigError, loadConfig } from "~/services/config.server";
import { startStationDatabase } from "~/services/station-database.server";
import { applyMigrations } from "~/services/migrations.server";

try {
  const config = loadConfig();
  const embedded = config.databaseUrl ? null : await startStationDatabase(config.dataDir, console.log);
  try {
    const applied = await applyMigrations(config.databaseUrl ?? embedded!.url, console.log);
    console.log(applied.length ? `Applied ${applied.length} migration(s)` : "The database is up to date");
  } finally {
    await embedded?.stop();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : (error as Error).message);
  process.exit(1);
}
