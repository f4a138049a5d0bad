import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";

import { runServerProcess as run, startServerProcess as start, type ChildServer } from "./helpers/child-server";

async function stop(server: ChildServer): Promise<void> {
  expect(await server.stop()).toBe(0);
}

describe("starting the server", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-start-"));
  });
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("runs on the embedded database with no configuration and keeps data across restarts", async () => {
    const first = await start({ DATA_DIR: dataDir, PORT: "0" });
    expect(first.output()).toMatch(/applied migration \d+_init/);
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    expect((await health.json()).database.ok).toBe(true);
    const home = await fetch(`${first.url}/`, { redirect: "manual" });
    expect(home.headers.get("location")).toBe("/listen");
    expect(first.output()).toContain("Embedded PostgreSQL");
    await stop(first);

    const secret = await fs.readFile(path.join(dataDir, "session-secret"), "utf8");
    expect(secret.trim()).toMatch(/^[0-9a-f]{64}$/);

    const second = await start({ DATA_DIR: dataDir, PORT: "0" });
    expect(second.output()).not.toMatch(/applied migration/);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    await stop(second);
    expect(await fs.readFile(path.join(dataDir, "session-secret"), "utf8")).toBe(secret);
  }, 300_000); // two cold starts, one of them creating the database and seeding it

  it("refuses a second server on the same DATA_DIR with one line, and starts again after the first was killed", async () => {
    const env = { DATA_DIR: dataDir, PORT: "0", SEED_CONTENT: "false" };
    const first = await start(env);
    const postmaster = async () => Number((await fs.readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
    const isAlive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };

    const second = run(env);
    expect(await second.exit).toBe(1);
    const lines = second
      .output()
      .split("\n")
      .filter((l) => l.trim() && !l.includes("npm warn"));
    expect(lines).toEqual([`Another server (process ${first.child.pid}) is already using ${dataDir}; stop it first or set another DATA_DIR`]);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // kill -9 leaves the lock file and the database server behind.
    const orphan = await postmaster();
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    expect(isAlive(orphan)).toBe(true);

    const third = await start(env);
    expect(third.output()).toContain(`left running by a previous server (process ${orphan})`);
    expect(third.output()).not.toMatch(/Generated the admin PIN/);
    expect((await fetch(`${third.url}/healthz`)).status).toBe(200);
    const running = await postmaster();
    await stop(third);
    // Stopping the server stops its database and releases the directory.
    expect(isAlive(running)).toBe(false);
    expect(isAlive(orphan)).toBe(false);
    await expect(fs.access(path.join(dataDir, "server.lock"))).rejects.toThrow();
  });

  it.each([
    [{ PORT: "abc" }, 'Configuration error: PORT must be a whole number between 0 and 65535 (got "abc")'],
    [{ ADMIN_PIN: "12" }, "Configuration error: ADMIN_PIN must be exactly 6 digits"],
    [{ DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none" }, "Cannot reach the database at 127.0.0.1:1/none"],
  ])("stops with one clear line for %j", async (env, line) => {
    const { output, exit } = run({ DATA_DIR: dataDir, PORT: "0", ...env });
    expect(await exit).toBe(1);
    const lines = output()
      .split("\n")
      .filter((l) => l.trim() && !l.includes("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(line);
  });

  it.runIf(process.env.TEST_DATABASE_URL)("uses the PostgreSQL at DATABASE_URL when it is set", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const name = `spin_start_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      const server = await start({ DATA_DIR: dataDir, PORT: "0", DATABASE_URL: url.toString() });
      expect(server.output()).not.toMatch(/Embedded PostgreSQL/);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await stop(server);
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const rows = await client.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
      await client.end();
      expect(rows.rows[0].n).toBeGreaterThan(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
