import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "~/services/embedded-postgres.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The `postgres` database of this test run's embedded PostgreSQL server, when TEST_DATABASE_URL is unset. */
    embeddedServerUrl: string | null;
  }
}

// Integration and browser tests start the real server, which serves the Remix
// build: build it once per test run (as production, whatever NODE_ENV vitest
// set) so tests never see a stale or development bundle. Without
// TEST_DATABASE_URL, one embedded PostgreSQL server serves the whole run and
// each test file creates its own database on it.
export default async function setup(project: TestProject) {
  execFileSync("npx", ["remix", "build"], { stdio: "pipe", env: { ...process.env, NODE_ENV: "production" } });
  if (process.env.TEST_DATABASE_URL) {
    project.provide("embeddedServerUrl", null);
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-test-pg-"));
  const cluster = await startPostgresCluster({ dir: path.join(dir, "cluster"), passwordFile: path.join(dir, "password"), maxConnections: 200 });
  project.provide("embeddedServerUrl", cluster.urlFor("postgres"));
  return async () => {
    await cluster.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
