import fs from "node:fs/promises";
import path from "node:path";
import { getStorage, setStorage, type Storage } from "~/services/storage.server";
import { adminCookie } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";
import { expectUnchangedSince, stagedUploads, takeSnapshot } from "./helpers/snapshot";
import { postStreamedEpisode } from "./helpers/streamed-upload";

// Episode audio streams to a temp file (DATA_DIR/tmp/uploads) and from there into storage. Every
// way an upload can end leaves that folder empty, and a failed one leaves nothing in storage or
// the database.

const MB = 1024 * 1024;
const SEED = path.resolve("prisma/seed-assets");

const fields = (title: string) => ({
  formId: "episode-form",
  intent: "save-episode",
  title,
  description: "An episode used to test the upload's temp file.",
  publishedAt: "2026-01-10T20:00",
});

/** Waits (up to 20 s) until `check` holds; the test then asserts on the state itself. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("streamed episode uploads", () => {
  let server: TestServer;
  let cookie: string;
  let cover: Buffer;
  let real: Storage;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await adminCookie(server.url);
    cover = await fs.readFile(path.join(SEED, "covers/cover-01.jpg"));
    real = getStorage();
  });
  afterEach(() => setStorage(real));
  afterAll(async () => {
    await server?.stop();
  });

  it("removes the temp file of an upload the client cut off halfway, and takes the next upload", async () => {
    const before = await takeSnapshot();
    const upload = postStreamedEpisode(server.url, cookie, fields("Cut off"), cover, 20 * MB, { stopAfter: 8 * MB });
    upload.response.catch(() => {});
    // The audio is being written to disk...
    const staged = async () => {
      const names = await stagedUploads(server.dataDir);
      const sizes = await Promise.all(
        names.map((name) =>
          fs.stat(path.join(server.dataDir, "tmp", "uploads", name)).then(
            (s) => s.size,
            () => 0,
          ),
        ),
      );
      return sizes.some((size) => size > 4 * MB);
    };
    await until(staged);
    expect(await staged()).toBe(true);
    // ...when the client goes away.
    upload.request.destroy();
    await until(async () => (await stagedUploads(server.dataDir)).length === 0);
    expect(await stagedUploads(server.dataDir)).toEqual([]);
    await expectUnchangedSince(before);

    // Uploads run one at a time: the cut-off one must not hold up the next.
    const next = await postStreamedEpisode(server.url, cookie, fields("After the cut"), cover, 1 * MB).response;
    expect(next.status, next.body.slice(0, 300)).toBe(200);
    expect(await stagedUploads(server.dataDir)).toEqual([]);
  });

  it("removes the temp file when storage is down, says so, and stores nothing", async () => {
    const unreachable = () => Promise.reject(new Error("injected: storage unreachable"));
    setStorage({
      kind: real.kind,
      put: unreachable,
      putFile: unreachable,
      stat: (key) => real.stat(key),
      read: (key, range) => real.read(key, range),
      remove: (key) => real.remove(key),
      list: (prefix) => real.list(prefix),
      check: () => real.check(),
    });
    const before = await takeSnapshot();
    const response = await postStreamedEpisode(server.url, cookie, fields("Storage down"), cover, 3 * MB).response;
    expect(response.status).toBe(400);
    expect(response.body).toContain("media storage is not reachable right now");
    expect(await stagedUploads(server.dataDir)).toEqual([]);
    setStorage(real);
    await expectUnchangedSince(before);
  });

  it("removes the temp file of audio that is not audio after reading only its head", async () => {
    const before = await takeSnapshot();
    const response = await fetch(`${server.url}/episodes-admin`, {
      method: "POST",
      headers: { Cookie: cookie },
      body: (() => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields("Not audio"))) form.set(name, value);
        form.set("audio", new Blob([new Uint8Array(Buffer.alloc(3 * MB, 0x41))]), "episode.mp3");
        form.set("cover", new Blob([new Uint8Array(cover)]), "cover.jpg");
        return form;
      })(),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("That file is not audio we accept");
    expect(await stagedUploads(server.dataDir)).toEqual([]);
    await expectUnchangedSince(before);
  });
});
