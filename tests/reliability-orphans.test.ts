import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sweepOrphans } from "~/models/orphans.server";
import { loadConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";
import { startServer, type RunningServer } from "../server/app";
import { adminCookie, expectStorageConsistent, postAdminForm, recordedKeys, storageKeys, testImage } from "./helpers/admin";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { startTestServer, type TestServer } from "./helpers/server";

async function listFiles(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && !entry.name.startsWith(".")).map((entry) => entry.name);
}

describe("sweepOrphans", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("removes objects no row records (after the grace period) and rows nothing references, and nothing else", async () => {
    await expectStorageConsistent();
    const inUse = await recordedKeys();
    const storage = getStorage();
    await storage.put("event-posters/0123456789abcdef0123456789abcdef01234567.webp", Buffer.from("orphan"), "image/webp");
    await storage.put("event-posters/0123456789abcdef0123456789abcdef01234567-w640.webp", Buffer.from("orphan variant"), "image/webp");
    await storage.put("images/ffffffffffffffffffffffffffffffffffffffff.webp", Buffer.from("unused"), "image/webp");
    await db().storedFile.create({
      data: { key: "images/ffffffffffffffffffffffffffffffffffffffff.webp", contentType: "image/webp", size: 6, checksum: "f".repeat(64) },
    });

    // Young objects may be uploads in flight: kept. The unreferenced row goes at once, with its object.
    const first = await sweepOrphans({ graceMs: 60_000 });
    expect(first).toEqual({ unusedFiles: 1, orphanedObjects: [] });
    expect(await storageKeys()).toEqual(
      [...inUse, "event-posters/0123456789abcdef0123456789abcdef01234567.webp", "event-posters/0123456789abcdef0123456789abcdef01234567-w640.webp"].sort(),
    );

    const later = await sweepOrphans({ graceMs: 60_000, now: Date.now() + 61_000 });
    expect(later.orphanedObjects.sort()).toEqual([
      "event-posters/0123456789abcdef0123456789abcdef01234567-w640.webp",
      "event-posters/0123456789abcdef0123456789abcdef01234567.webp",
    ]);
    expect(await storageKeys()).toEqual(inUse);
    await expectStorageConsistent();
    expect(await sweepOrphans({ graceMs: 0 })).toEqual({ unusedFiles: 0, orphanedObjects: [] });
  });
});

describe("a server killed in the middle of uploads", () => {
  let database: TestDatabase;
  let dataDir: string;
  let child: ChildProcess | null = null;
  let restarted: RunningServer | null = null;

  beforeAll(async () => {
    // The database lives in this process, so it outlives the killed server as a real one would.
    database = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-kill-"));
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await restarted?.close();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const env = () => ({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    HOST: "127.0.0.1",
    PORT: "0",
    ADMIN_PIN: "123456",
    PUBLIC_PIN: "54321",
    SESSION_SECRET: "test-session-secret-0123456789",
    NEWS_API_URL: "http://127.0.0.1:9/unused",
    ORPHAN_GRACE_SECONDS: "0",
  });

  function spawnServer(extra: Record<string, string>) {
    const started = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", NODE_ENV: "production", ...env(), ...extra },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    started.stdout!.on("data", (chunk: Buffer) => (output += chunk));
    started.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    const exited = new Promise((resolve) => started.once("exit", resolve));
    return { process: started, output: () => output, exited };
  }

  async function restartInProcess() {
    restarted = await startServer(loadConfig({ NODE_ENV: "production", ...env(), SEED_CONTENT: "false", LOG_LEVEL: "warn" }));
    return restarted;
  }

  it("leaves no orphaned file after a kill during the first-start seeding", async () => {
    const server = spawnServer({ SEED_CONTENT: "true" });
    child = server.process;
    const files = path.join(dataDir, "files");
    const deadline = Date.now() + 60_000;
    while ((await listFiles(files)).length < 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    server.process.kill("SIGKILL");
    await server.exited;
    child = null;

    // The kill landed mid-upload: objects are on disk, and the seed's rows were never committed.
    expect(server.output()).not.toContain("on the air");
    const leftBehind = await listFiles(files);
    expect(leftBehind.length).toBeGreaterThanOrEqual(6);

    const running = await restartInProcess();
    expect(await db().storedFile.count()).toBe(0);
    expect(await storageKeys()).toEqual([]);
    await running.close();
    restarted = null;
  });

  it("keeps every committed change whole after a kill during admin uploads", async () => {
    const server = spawnServer({ SEED_CONTENT: "false" });
    child = server.process;
    const deadline = Date.now() + 60_000;
    while (!/on the air at ([^\s"]+)/.test(server.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const url = server.output().match(/on the air at ([^\s"]+)/)![1];
    const cookie = await adminCookie(url);

    // A stream of event uploads; the server dies while some are in flight.
    const posts = Array.from({ length: 12 }, async (_, i) => {
      const poster = await testImage(`#${(0x102030 + i * 0x0b0a09).toString(16).slice(-6)}`, 1400, 1800);
      await new Promise((resolve) => setTimeout(resolve, i * 60));
      return postAdminForm(
        url,
        "/eventsAdmin",
        cookie,
        { formId: "event", intent: "save-event", name: `Siaran ${i}`, date: "2026-12-01", time: "19:30" },
        { poster },
      )
        .then((response) => response.status)
        .catch(() => "killed");
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    server.process.kill("SIGKILL");
    await server.exited;
    child = null;
    const outcomes = await Promise.all(posts);
    expect(outcomes).toContain("killed");

    await restartInProcess();
    // Whatever was committed is whole (each event has its poster row and objects); nothing else is left.
    const events = await db().event.findMany({ select: { name: true, poster: { select: { key: true } } } });
    expect(events.length).toBeLessThan(12);
    for (const event of events) expect(await getStorage().stat(event.poster.key), event.name).not.toBeNull();
    await expectStorageConsistent();
  });
});
