// Seeds a new station in a process of its own (started by server/app.ts on a first start):
// re-encoding the bundled images leaves memory behind in whichever process does it (libvips
// threads, allocator arenas), and the server that then runs for months should not carry it.
// Input: the server's configuration as JSON in SPIN_SEED_CONFIG, with the database URL set.
// Output: "seeded" or "already seeded" over the IPC channel; log lines on stdout, a failure on stderr.
import type { AppConfig } from "~/services/config.server";
import { setConfig } from "~/services/config.server";
import { connectDb, disconnectDb } from "~/services/db.server";
import { logger } from "~/services/log.server";
import { createStorage, setStorage } from "~/services/storage.server";
import { seedStation } from "~/models/seed.server";

// The server that started this process went away (IPC channel closed): stop before writing more.
process.on("disconnect", () => process.exit(1));

try {
  const config = JSON.parse(process.env.SPIN_SEED_CONFIG ?? "null") as AppConfig | null;
  if (!config?.databaseUrl) throw new Error("SPIN_SEED_CONFIG with a databaseUrl is required");
  setConfig(config);
  logger.level = config.logLevel;
  connectDb(config.databaseUrl);
  setStorage(await createStorage(config.s3 ? { s3: config.s3 } : { dataDir: config.dataDir }));
  const seeded = await seedStation();
  await disconnectDb();
  process.send!(seeded ? "seeded" : "already seeded", () => process.exit(0));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`, () => process.exit(1));
}
