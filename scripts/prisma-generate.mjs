// `prisma generate` never runs the native schema engine, but the CLI insists on
// downloading it unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file.
// Pointing it at node itself lets generation work on machines without internet.
import { spawnSync } from "node:child_process";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const result = spawnSync("npx", ["prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
