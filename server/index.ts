import { ConfigError, loadConfig } from "~/services/config.server";
import { DatabaseUnreachableError } from "~/services/database-check.server";
import { DataDirInUseError } from "~/services/embedded-postgres.server";
import { logger } from "~/services/log.server";
import { startServer } from "./app";
import { limitHeapGrowth } from "./heap";
import { logUnhandledRejections } from "./process-guards";

limitHeapGrowth();
logUnhandledRejections();

// The production and development entry point: configuration errors and an
// unreachable database end the process with one clear line, not a stack trace.
try {
  const config = loadConfig();
  const server = await startServer(config, { watchBuild: process.env.NODE_ENV === "development", seedInSeparateProcess: true });
  logger.info({ url: server.url }, `${config.station.name} is on the air at ${server.url}`);
  const shutdown = async (signal: string) => {
    logger.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
} catch (error) {
  // Plain text on stderr, not a JSON log line: whoever started the server reads it on a terminal,
  // and a configuration error may come before there is a valid LOG_LEVEL to log at.
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else if (error instanceof DatabaseUnreachableError) {
    console.error(`${error.message}. Check DATABASE_URL, or unset it to use the embedded database.`);
  } else if (error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error(`Could not start: ${(error as Error).message}`);
  }
  process.exit(1);
}
