// `npm run import -- <file>`: restores an archive made by `npm run export` into an empty station
// (DATABASE_URL / S3_* as for the server, or the embedded defaults under DATA_DIR). Refuses a
// station that already has data; run it before the first start (or on fresh volumes).
import { ConfigError, loadConfig } from "~/services/config.server";
import { DatabaseUnreachableError } from "~/services/database-check.server";
import { ArchiveError, importStation, withStation } from "~/services/station-archive.server";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run import -- <archive.tar.gz>");
  process.exit(1);
}
try {
  const summary = await withStation(loadConfig(), (station) => importStation({ ...station, file, log: console.log }));
  const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Imported ${rows} rows into ${summary.tables.length} tables and ${summary.files} files (${Math.round(summary.bytes / 1024)} KB) from ${file}`);
  process.exit(0);
} catch (error) {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if (error instanceof ArchiveError || error instanceof DatabaseUnreachableError) console.error(error.message);
  else if ((error as NodeJS.ErrnoException).code === "ENOENT") console.error(`No such archive: ${file}`);
  else console.error(`Import failed: ${(error as Error).message}`);
  process.exit(1);
}
