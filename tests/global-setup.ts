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

interface SharedRun {
  ready: Promise<string | null>;
  users: number;
  stop: () => Promise<void>;
}

// Every project that needs it (integration, browser, soak) runs this setup in the one vitest
// process; they share a single build and a single embedded server, kept on globalThis because
// each project may load this module afresh.
const shared = globalThis as typeof globalThis & { __spinTestRun?: SharedRun };

function startRun(): SharedRun {
  let stop = async () => {};
  const ready = (async () => {
    // Integration and browser tests start the real server, which serves the Remix build: build
    // it once per test run (as production, whatever NODE_ENV vitest set) so tests never see a
    // stale or development bundle.
    execFileSync("npx", ["remix", "build"], { stdio: "pipe", env: { ...process.env, NODE_ENV: "production" } });
    if (process.env.TEST_DATABASE_URL) return null;
    // Without TEST_DATABASE_URL, one embedded PostgreSQL server serves the whole run and each
    // test file creates its own database on it.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-test-pg-"));
    const cluster = await startPostgresCluster({ dir: path.join(dir, "cluster"), passwordFile: path.join(dir, "password"), maxConnections: 200 });
    stop = async () => {
      await cluster.stop();
      await fs.rm(dir, { recursive: true, force: true });
    };
    return cluster.urlFor("postgres");
  })();
  return { ready, users: 0, stop: () => stop() };
}

export default async function setup(project: TestProject) {
  const run = (shared.__spinTestRun ??= startRun());
  run.users += 1;
  project.provide("embeddedServerUrl", await run.ready);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    shared.__spinTestRun = undefined;
    await run.stop();
  };
}
