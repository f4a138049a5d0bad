import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import PgBoss from "pg-boss";
import { ConfigError, loadConfig } from "~/services/config.server";
import { isDatabaseUnavailableError } from "~/services/database-check.server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { startTestServer, type TestServer } from "./helpers/server";
import { databaseTarget, startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy";

// The database "goes down" by cutting a TCP proxy between the app and a real
// PostgreSQL (or PGlite's socket server): the app sees exactly what a stopped
// server looks like, refused connections and dropped sockets.

async function proxyTo(database: TestDatabase): Promise<TcpProxy> {
  return startTcpProxy(databaseTarget(database.url));
}

async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("DB_CONNECT_RETRIES", () => {
  it("defaults to failing at once and accepts a bounded whole number", () => {
    expect(loadConfig({}).databaseConnectRetries).toBe(0);
    expect(loadConfig({ DB_CONNECT_RETRIES: "5" }).databaseConnectRetries).toBe(5);
    expect(() => loadConfig({ DB_CONNECT_RETRIES: "-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ DB_CONNECT_RETRIES: "101" })).toThrow('DB_CONNECT_RETRIES must be a whole number between 0 and 100 (got "101")');
  });
});

describe("the database is down at start", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await proxyTo(database);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-retry-"));
  });
  afterAll(async () => {
    await proxy.close();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  function startChild(env: Record<string, string>) {
    const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/root",
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        SEED_CONTENT: "false",
        DATABASE_URL: proxy.urlFor(database.url),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, output: () => output, exit };
  }

  it("retries with backoff when configured and starts once the database answers", async () => {
    await proxy.cut();
    const server = startChild({ DB_CONNECT_RETRIES: "6" });
    try {
      await waitFor(
        async () => server.output(),
        (out) => /retrying in 2 s \(2 of 6\)/.test(out),
        15_000,
      );
      expect(server.output()).toMatch(/Cannot reach the database at 127\.0\.0\.1:\d+\/\w+ \(.*ECONNREFUSED.*\); retrying in 1 s \(1 of 6\)/);
      await proxy.restore();
      const output = await waitFor(
        async () => server.output(),
        (out) => out.includes("on the air at"),
        30_000,
      );
      expect(output).toContain("on the air at");
      const url = output.match(/on the air at (http:\/\/[^\s"]+)/)![1];
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exit;
    }
  });

  it("gives up with one clear line and exit code 1 when the retries run out", async () => {
    await proxy.cut();
    const server = startChild({ DB_CONNECT_RETRIES: "1" });
    expect(await server.exit).toBe(1);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.trim() && !line.includes("npm warn"));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!).msg).toMatch(/retrying in 1 s \(1 of 1\)$/);
    expect(lines[1]).toMatch(/^Cannot reach the database at 127\.0\.0\.1:\d+\/\w+ .*Check DATABASE_URL/);
    await proxy.restore();
  });
});

describe("the database goes down while the server runs", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await proxyTo(database);
    server = await startTestServer({}, { database: { ...database, url: proxy.urlFor(database.url) } });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy.close();
    await database.drop();
  });

  it("answers 503 with a friendly page, says so on /healthz, and recovers by itself", async () => {
    const before = await fetch(`${server.url}/listen`);
    expect(before.status).toBe(200);
    await before.text();

    await proxy.cut();
    // Reads every page makes are kept in memory for up to 5 s (app/services/read-cache.server.ts),
    // so /listen still renders just after the cut; past that, pages need the database.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    // A fresh query string misses the page cache (server/page-cache.ts), so these really render.
    for (const page of ["/listen?outage=1", "/events?outage=1", "/cardlistmore?outage=1", "/watch"]) {
      const response = await fetch(`${server.url}${page}`);
      const html = await response.text();
      expect(response.status, page).toBe(503);
      expect(html).toContain("We&#x27;ll be right back");
      expect(html).toContain("This page will be back by itself in a moment.");
      // The site's own document: stylesheet, landmarks, the way back.
      expect(html).toMatch(/<link rel="stylesheet" href="\/build\/[^"]+\.css"/);
      expect(html).toContain('<main id="main"');
      expect(html).not.toMatch(/Unexpected Server Error|PrismaClient|at .*node_modules/);
    }
    // Client-side navigations (single-fetch data requests) get the same answer.
    expect((await fetch(`${server.url}/listen.data?outage=1`)).status).toBe(503);
    // A signed-in listener's page is never cached: it renders, and answers 503 too.
    expect((await fetch(`${server.url}/listen`, { headers: { Cookie: "__session=someone" } })).status).toBe(503);
    // An action (the PIN form) too, and it cannot have written anything.
    const pin = await fetch(`${server.url}/pin`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ pin: "123456" }),
      redirect: "manual",
    });
    expect(pin.status).toBe(503);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    const report = await health.json();
    expect(report.database.ok).toBe(false);
    expect(report.storage.ok).toBe(true);

    await proxy.restore();
    const recovered = await waitFor(
      () => fetch(`${server.url}/listen?outage=2`).then((r) => r.status),
      (status) => status === 200,
    );
    expect(recovered).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("survives repeated outages, including one that drops connections mid-request", async () => {
    for (let round = 0; round < 3; round++) {
      const inFlight = Promise.all(Array.from({ length: 8 }, (_, i) => fetch(`${server.url}/listen?round=${round}&i=${i}`).then((r) => r.status)));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await proxy.cut();
      const statuses = await inFlight;
      for (const status of statuses) expect([200, 503]).toContain(status);
      await proxy.restore();
      expect(
        await waitFor(
          () => fetch(`${server.url}/watch`).then((r) => r.status),
          (status) => status === 200,
        ),
      ).toBe(200);
    }
  });
});

describe("the job queue loses its database while a job finishes", () => {
  // pg-boss 10 completed and failed jobs without awaiting the query, so a
  // connection lost at that moment was an unhandled rejection, which stops a
  // Node server (patches/pg-boss+10.4.2.patch). This drops the connection
  // between a job's handler and its completion, through the same TCP proxy.
  let database: TestDatabase;
  let proxy: TcpProxy;
  let boss: PgBoss;
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    process.on("unhandledRejection", collect);
    database = await createTestDatabase();
    proxy = await proxyTo(database);
  });
  afterAll(async () => {
    process.off("unhandledRejection", collect);
    await boss?.stop({ graceful: false, wait: true }).catch(() => {});
    await proxy.close();
    await database.drop();
  });

  it("reports the lost completion as a queue error, keeps working and leaves nothing unhandled", async () => {
    boss = new PgBoss({ connectionString: proxy.urlFor(database.url), schema: "pgboss", max: 3 });
    const queueErrors: { message: string; queue?: string }[] = [];
    boss.on("error", (error: Error & { queue?: string }) => queueErrors.push(error));
    await boss.start();
    await boss.createQueue("outage");

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    await boss.work<{ n: number }>("outage", { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      handled.push(job.id);
      if (job.data.n === 1) {
        entered();
        await released;
      }
    });

    await boss.send("outage", { n: 1 });
    await handlerEntered;
    await proxy.cut();
    release(); // the handler succeeds, and the completion query finds the database gone
    const reported = await waitFor(
      async () => queueErrors.filter((error) => error.queue === "outage"),
      (errors) => errors.length > 0,
    );
    expect(reported.length).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);

    // Back up: the same worker takes the next job.
    await proxy.restore();
    const second = await waitFor(
      () => boss.send("outage", { n: 2 }).catch(() => null),
      (id) => id !== null,
    );
    expect(
      await waitFor(
        async () => handled.includes(second ?? ""),
        (done) => done,
      ),
    ).toBe(true);
    expect(unhandled).toEqual([]);
  });
});

describe("isDatabaseUnavailableError", () => {
  it("tells a lost connection from a failing query", () => {
    expect(isDatabaseUnavailableError(Object.assign(new Error("Can't reach database server at x:5432"), { code: "P1001" }))).toBe(true);
    expect(isDatabaseUnavailableError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailableError(Object.assign(new Error("Unique constraint failed on the fields: (`name`)"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailableError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailableError("Connection terminated")).toBe(false);
  });
});
