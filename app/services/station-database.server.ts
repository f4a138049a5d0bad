import fs from "node:fs/promises";
import path from "node:path";
import { lockDataDir, startPostgresCluster, type EmbeddedPostgres } from "./embedded-postgres.server";

/** The station's database name inside its embedded cluster. */
const DATABASE = "station";

/** Where the station's embedded database lives under DATA_DIR. */
export function stationDatabasePaths(dataDir: string) {
  return {
    dir: path.join(dataDir, "postgres"),
    passwordFile: path.join(dataDir, "postgres-password"),
    lockFile: path.join(dataDir, "server.lock"),
    /** Stations created before the embedded PostgreSQL server kept a PGlite data directory here. */
    pgliteDir: path.join(dataDir, "pgdata"),
    pgliteBackupDir: path.join(dataDir, "pgdata-pglite-backup"),
  };
}

export type StationDatabasePaths = ReturnType<typeof stationDatabasePaths>;

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/**
 * The zero-setup database of the station in `dataDir`: takes the directory's lock
 * (one server per DATA_DIR), moves a PGlite station of an earlier version into
 * PostgreSQL once, then starts the embedded server. stop() stops it and releases the lock.
 */
export async function startStationDatabase(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedPostgres> {
  const paths = stationDatabasePaths(path.resolve(dataDir));
  await fs.mkdir(dataDir, { recursive: true });
  const release = await lockDataDir(paths.lockFile, dataDir);
  try {
    const hasCluster = await exists(path.join(paths.dir, "PG_VERSION"));
    if (await exists(path.join(paths.pgliteDir, "PG_VERSION"))) {
      if (!hasCluster) {
        // Loaded only for this one-time upgrade: PGlite costs hundreds of MB once loaded.
        const { upgradeFromPglite } = await import("./pglite-upgrade.server");
        await upgradeFromPglite(paths, DATABASE, log);
      } else {
        // The upgrade finished but stopped before moving the old directory aside.
        await fs.rename(paths.pgliteDir, paths.pgliteBackupDir);
      }
      log(`The earlier PGlite database is kept in ${paths.pgliteBackupDir}; remove it once the station looks right`);
    }
    const cluster = await startPostgresCluster({ dir: paths.dir, database: DATABASE, passwordFile: paths.passwordFile, log });
    return {
      ...cluster,
      async stop() {
        await cluster.stop();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
