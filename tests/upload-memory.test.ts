import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { adminCookie } from "./helpers/admin";
import { startServerProcess, type ChildServer } from "./helpers/child-server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { stagedUploads } from "./helpers/snapshot";
import { postStreamedEpisode } from "./helpers/streamed-upload";

// Issue 13, finding 5: episode audio (up to 200 MB) was read whole into memory; three parallel
// uploads took the server to 1.9 GB. It now streams to a temp file and from there into storage.
// The server runs as its own process, so its peak memory (VmHWM) is the upload's alone.

const MB = 1024 * 1024;
const AUDIO_BYTES = 190 * MB;
const SEED = path.resolve("prisma/seed-assets");

/** The process's peak resident memory so far, in bytes (Linux). */
async function peakRss(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

const fields = (title: string) => ({
  formId: "episode-form",
  intent: "save-episode",
  title,
  description: "An episode of silence, to measure memory.",
  publishedAt: "2026-01-10T20:00",
});

describe("a 190 MB episode upload", () => {
  let database: TestDatabase;
  let dataDir: string;
  let server: ChildServer;
  let cookie: string;
  let cover: Buffer;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-upload-memory-"));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      HOST: "127.0.0.1",
      PORT: "0",
      ADMIN_PIN: "123456",
      PUBLIC_PIN: "54321",
      SESSION_SECRET: "test-session-secret-0123456789",
      NEWS_API_URL: "http://127.0.0.1:9/unused",
      SEED_CONTENT: "false",
    });
    cookie = await adminCookie(server.url);
    cover = await fs.readFile(path.join(SEED, "covers/cover-01.jpg"));
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("streams through the server: its peak memory grows by far less than the file, and the file is stored whole", async () => {
    // An episode with small audio first, so every code path is loaded before measuring.
    const created = await postStreamedEpisode(server.url, cookie, fields("Silence"), cover, 2 * MB).response;
    expect(created.status, created.body.slice(0, 300)).toBe(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ id: number }>(`SELECT "id" FROM "PodcastEpisode"`);
    await client.end();
    const before = await peakRss(server.child.pid!);

    // Then its audio replaced by 190 MB (no cover this time: only the audio path is measured).
    const replaced = await postStreamedEpisode(server.url, cookie, { ...fields("Three hours of silence"), id: String(rows[0].id) }, null, AUDIO_BYTES).response;
    expect(replaced.status, replaced.body.slice(0, 300)).toBe(200);
    const growth = (await peakRss(server.child.pid!)) - before;
    console.log(`peak RSS ${Math.round(before / MB)} MB before the upload, +${Math.round(growth / MB)} MB for ${AUDIO_BYTES / MB} MB of audio`);
    expect(growth).toBeLessThan(60 * MB);

    // Stored whole under its content address (the 2 MB audio it replaced is gone), and nothing left in the temp folder.
    const files = path.join(dataDir, "files", "audio");
    const stored = await Promise.all((await fs.readdir(files)).map(async (name) => (await fs.stat(path.join(files, name))).size));
    expect(stored).toEqual([AUDIO_BYTES]);
    expect(await stagedUploads(dataDir)).toEqual([]);
  }, 120_000);
});
