// `npm run export -- [file]`: writes the whole station (every row and every stored file) to one
// .tar.gz. With the embedded defaults, stop the server first: only one process may open its database.
import { ConfigError, loadConfig } from "~/services/config.server";
import { DatabaseUnreachableError } from "~/services/database-check.server";
import { ArchiveError, exportStation, withStation } from "~/services/station-archive.server";

const file = process.argv[2] ?? `station-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.tar.gz`;
try {
  const summary = await withStation(loadConfig(), (station) => exportStation({ ...station, file }));
  const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Exported ${rows} rows from ${summary.tables.length} tables and ${summary.files} files (${Math.round(summary.bytes / 1024)} KB) to ${file}`);
  process.exit(0);
} catch (error) {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if (error instanceof ArchiveError || error instanceof DatabaseUnreachableError) console.error(error.message);
  else console.error(`Export failed: ${(error as Error).message}`);
  process.exit(1);
}
