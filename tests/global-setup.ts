import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "~/services/embedded-postgres.server";
import { seededTemplateNames } from "./helpers/seeded-station";

declare module "vitest" {
  export interface ProvidedContext {
    /** The `postgres` database of this test run's embedded PostgreSQL server, when TEST_DATABASE_URL is unset. */
    embeddedServerUrl: string | null;
    /** Names this run's shared fixtures (the seeded station of tests/helpers/server.ts). */
    testRunId: string;
  }
}

interface SharedRun {
  id: string;
  ready: Promise<string | null>;
  users: number;
  stop: () => Promise<void>;
}

// Every project that needs it (integration, browser, soak) runs this setup in the one vitest
// process; they share a single build and a single embedded server, kept on globalThis because
// each project may load this module afresh.
const shared = globalThis as typeof globalThis & { __spinTestRun?: SharedRun };

function startRun(): SharedRun {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  let stop = async () => {};
  // The seeded station a worker may have built (tests/helpers/server.ts); on the embedded server it goes with the server.
  const dropSeeded = async () => {
    const { database, dataDir } = seededTemplateNames(id);
    await fs.rm(dataDir, { recursive: true, force: true });
    if (!process.env.TEST_DATABASE_URL) return;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  };
  const ready = (async () => {
    // Integration and browser tests start the real server, which serves the Remix build: build
    // it once per test run (as production, whatever NODE_ENV vitest set) so tests never see a
    // stale or development bundle.
    // A production build newer than every source (CI's build step just made one) is used as it is.
    if (!(await buildIsCurrent()))
      execFileSync(process.execPath, ["scripts/remix-build.mjs"], { stdio: "pipe", env: { ...process.env, NODE_ENV: "production" } });
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
  return {
    id,
    ready,
    users: 0,
    stop: async () => {
      await dropSeeded();
      await stop();
    },
  };
}

const BUILD = "build/index.js";
// What the Remix build is made from (public/ is served as it is, apart from public/build).
const BUILD_SOURCES = ["app", "remix.config.js", "package.json", "package-lock.json", "tsconfig.json"];

async function newestChange(file: string): Promise<number> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  const entries = await fs.readdir(file);
  // A folder's own time changes when a file in it is added, removed or renamed.
  return Math.max(stat.mtimeMs, ...(await Promise.all(entries.map((entry) => newestChange(path.join(file, entry))))));
}

/** True when the server build is a production build made after the last change to its sources. */
async function buildIsCurrent(): Promise<boolean> {
  const stat = await fs.stat(BUILD).catch(() => null);
  if (!stat || !(await fs.stat("public/build").catch(() => null))) return false;
  // `remix dev` writes a development build to the same place.
  if (!(await fs.readFile(BUILD, "utf8")).includes('mode = "production"')) return false;
  const sources = await Promise.all(BUILD_SOURCES.map(newestChange));
  return stat.mtimeMs > Math.max(...sources);
}

export default async function setup(project: TestProject) {
  const run = (shared.__spinTestRun ??= startRun());
  run.users += 1;
  project.provide("embeddedServerUrl", await run.ready);
  project.provide("testRunId", run.id);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    shared.__spinTestRun = undefined;
    await run.stop();
  };
}
