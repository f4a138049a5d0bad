import { spawn } from "node:child_process";
import http from "node:http";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect } from "socket.io-client";
import { createEvent } from "~/models/events.server";
import { getStorage } from "~/services/storage.server";
import { createTestDatabase } from "./helpers/database";
import { startServerProcess } from "./helpers/child-server";
import { captureLog } from "./helpers/log";
import { startTestServer, type TestServer } from "./helpers/server";

describe("operations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("writes one structured log line per request", async () => {
    const log = captureLog("info");
    try {
      await (await fetch(`${server.url}/listen`, { headers: { Cookie: "theme=secret-cookie-value" } })).text();
      await (await fetch(`${server.url}/no-such-page`)).text();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      log.restore();
    }
    const entries = log.entries();
    const listen = entries.find((e) => e.path === "/listen");
    expect(listen).toMatchObject({ msg: "request", method: "GET", path: "/listen", status: 200, level: "info" });
    expect(listen?.reqId).toEqual(expect.any(Number));
    expect(typeof listen?.durationMs).toBe("number");
    // Flat fields only: no request or response objects, so no headers or cookies in the log.
    expect(listen).not.toHaveProperty("req");
    expect(listen).not.toHaveProperty("res");
    expect(JSON.stringify(entries)).not.toContain("secret-cookie-value");
    expect(new Date(String(listen?.time)).toString()).not.toBe("Invalid Date");
    expect(entries.find((e) => e.path === "/no-such-page")).toMatchObject({ status: 404 });
  });

  it("exposes Prometheus metrics: requests, latency, listeners, uploads and the process (heap, event loop, GC, files)", async () => {
    const socket = connect(server.url, { transports: ["websocket"] });
    await new Promise((resolve) => socket.once("connect", resolve as () => void));
    await createEvent({ name: "Metrics Night", date: "2026-12-01", time: "20:00", poster: await fs.readFile("prisma/seed-assets/covers/cover-02.jpg") });
    const response = await fetch(`${server.url}/metrics`);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toMatch(/^http_requests_total\{method="GET",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="\+Inf"\} [1-9]\d*$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count [1-9]\d*$/m);
    expect(text).toMatch(/^socketio_connected_listeners 1$/m);
    expect(text).toMatch(/^uploads_total\{kind="image"\} [1-9]\d*$/m);
    for (const processMetric of ["process_cpu_seconds_total", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_p99_seconds", "process_open_fds"]) {
      expect(text).toMatch(new RegExp(`^${processMetric}(\\{[^}]*\\})? [0-9.e+-]+$`, "m"));
    }
    // Garbage collections are observed as they happen: the histogram is there from the start.
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram");
    socket.close();
  });
});

describe("graceful shutdown", () => {
  it("stops accepting, finishes the request in flight, then closes", async () => {
    const server = await startTestServer();
    try {
      const body = Buffer.alloc(4 * 1024 * 1024, 7);
      await getStorage().put("audio/graceful-test.mp3", body, "audio/mpeg");

      // Start a download and stop reading it, so it is still in flight when the server closes.
      const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${server.url}/media/audio/graceful-test.mp3`, resolve).on("error", reject),
      );
      response.pause();
      const closing = server.close();
      let closed = false;
      void closing.then(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 200));

      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
      expect(closed).toBe(false);

      let received = 0;
      response.on("data", (chunk: Buffer) => (received += chunk.length));
      const ended = new Promise((resolve) => response.on("end", resolve));
      response.resume();
      await ended;
      expect(received).toBe(body.length);
      await closing;
      expect(closed).toBe(true);
    } finally {
      await server.database.drop();
      await fs.rm(server.dataDir, { recursive: true, force: true });
    }
  });
});

describe("a promise nobody awaited rejects", () => {
  // A real Node process each time: what matters is whether it goes on running.
  async function runScript(withGuard: boolean): Promise<{ code: number | null; stdout: string }> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-guard-"));
    const script = path.join(dir, "script.ts");
    await fs.writeFile(
      script,
      [
        `import { logUnhandledRejections } from ${JSON.stringify(path.resolve("server/process-guards.ts"))};`,
        withGuard ? "logUnhandledRejections();" : "",
        // Like pg-boss 10's un-awaited job completion when the database connection drops.
        `void Promise.reject(new Error("Connection terminated unexpectedly"));`,
        `setTimeout(() => console.log(JSON.stringify({ stillServing: true })), 300);`,
      ].join("\n"),
    );
    try {
      const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: process.cwd(), env: { ...process.env, LOG_LEVEL: "info" } });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      return { code, stdout };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  it("is logged with its stack and the server keeps running (without the guard, Node stops)", async () => {
    const unguarded = await runScript(false);
    expect(unguarded.code).not.toBe(0);
    expect(unguarded.stdout).not.toContain("stillServing");

    const guarded = await runScript(true);
    expect(guarded.code).toBe(0);
    const lines = guarded.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "error",
        msg: "Unhandled promise rejection; the server keeps running",
        error: "Connection terminated unexpectedly",
        stack: expect.stringContaining("Error: Connection terminated unexpectedly"),
      }),
    );
    expect(lines).toContainEqual({ stillServing: true });
  });

  it("the production entry point logs it and goes on serving", async () => {
    const database = await createTestDatabase();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-guard-server-"));
    // Loaded before the server: a rejection nobody handles, made on the test's signal.
    const inject = path.join(dir, "inject.mjs");
    await fs.writeFile(inject, `process.on("SIGUSR2", () => void Promise.reject(new Error("injected by the test")));\n`);
    const server = await startServerProcess(
      { DATA_DIR: path.join(dir, "data"), PORT: "0", HOST: "127.0.0.1", SEED_CONTENT: "false", DATABASE_URL: database.url },
      ["--import", inject],
    );
    try {
      server.child.kill("SIGUSR2");
      for (let waited = 0; !server.output().includes("injected by the test") && waited < 60_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const logged = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toContainEqual(expect.objectContaining({ level: "error", error: "injected by the test" }));
    } finally {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
