import fs from "node:fs/promises";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { objectKeys } from "~/models/files.server";
import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";
import { adminCookie, storageKeys as storedKeys } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";
import { stagedUploads } from "./helpers/snapshot";

const SEED = path.resolve("prisma/seed-assets");

async function snapshot() {
  return {
    episodes: await db().podcastEpisode.count(),
    files: await db().storedFile.count(),
    keys: await storedKeys(),
  };
}

/** A WAV of silence: valid audio of any length, so tests can make files of a given size. */
function silentWav(seconds: number, sampleRate = 8000): Buffer {
  const dataBytes = seconds * sampleRate * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}

describe("episode management", () => {
  let server: TestServer;
  let admin: string;
  let mp3: Buffer;
  let mp3Other: Buffer;
  let cover: Buffer;
  let coverOther: Buffer;

  beforeAll(async () => {
    server = await startTestServer();
    [mp3, mp3Other, cover, coverOther] = await Promise.all(
      ["audio/episode-1.mp3", "audio/episode-2.mp3", "covers/cover-01.jpg", "covers/cover-02.jpg"].map((file) => fs.readFile(path.join(SEED, file))),
    );
    admin = await adminCookie(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  function form(fields: Record<string, string | number>, files: { audio?: Buffer; cover?: Buffer; audioName?: string } = {}): FormData {
    const body = new FormData();
    body.set("formId", "episode-form");
    for (const [name, value] of Object.entries(fields)) body.set(name, String(value));
    body.set("audio", files.audio ? new Blob([new Uint8Array(files.audio)]) : new Blob([]), files.audio ? (files.audioName ?? "episode.mp3") : "");
    body.set("cover", files.cover ? new Blob([new Uint8Array(files.cover)]) : new Blob([]), files.cover ? "cover.jpg" : "");
    return body;
  }

  function post(body: FormData, cookie = admin) {
    return fetch(`${server.url}/episodes-admin`, { method: "POST", body, headers: { Cookie: cookie }, redirect: "manual" });
  }

  const saveFields = (over: Record<string, string | number> = {}) => ({
    intent: "save-episode",
    title: "Ngobrol Malam: Musik Indie Kampus",
    description: "Obrolan santai tentang band kampus, rekaman pertama dan panggung fakultas.",
    publishedAt: "2026-01-10T20:00",
    ...over,
  });

  it("keeps the screen and its action for admins only", async () => {
    const page = await fetch(`${server.url}/episodes-admin`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/listen?pin=admin&redirectTo=%2Fepisodes-admin");
    const before = await snapshot();
    // Refused before the body is read, so a small body keeps the test client's connection reusable.
    const refused = await post(form(saveFields()), "");
    expect(refused.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("shows an empty EPISODES screen with the upload form and the feed address", async () => {
    const response = await fetch(`${server.url}/episodes-admin`, { headers: { Cookie: admin } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(">EPISODES</h1>");
    expect(html).toContain("No episodes yet.");
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<input[^>]*type="datetime-local"[^>]*name="publishedAt"|name="publishedAt"[^>]*type="datetime-local"/);
    expect(html).toContain(`${server.url}/podcast.xml`);
  });

  it("refuses an incomplete form with a message per field and stores nothing", async () => {
    const before = await snapshot();
    const response = await post(form({ intent: "save-episode", title: " ", description: "", publishedAt: "not a date" }));
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [
      "Enter the episode&#x27;s title.",
      "Describe the episode in a sentence or two.",
      "Choose the date and time the episode goes out.",
      "Choose the episode&#x27;s audio file (MP3, M4A or WAV).",
      "Choose a cover image for the episode.",
    ]) {
      expect(html).toContain(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a file that is not audio, and an audio upload whose cover is bad leaves no file behind", async () => {
    const before = await snapshot();
    const notAudio = await post(form(saveFields(), { audio: Buffer.from("ID4 this is a text file pretending to be audio"), cover }));
    expect(notAudio.status).toBe(400);
    expect(await notAudio.text()).toContain("That file is not audio we accept: upload an MP3, M4A, WAV, FLAC or AIFF file.");
    expect(await snapshot()).toEqual(before);

    const badCover = await post(form(saveFields(), { audio: mp3, cover: Buffer.from("not an image at all, just text") }));
    expect(badCover.status).toBe(400);
    expect(await badCover.text()).toContain("That file is not an image we accept");
    expect(await snapshot()).toEqual(before);

    const truncated = await post(form(saveFields(), { audio: mp3.subarray(0, 64), cover }));
    expect(truncated.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  let created: { id: number; audioKey: string; coverKey: string };

  it("publishes an episode: files checked and stored, duration read from the file, logged, announced, first on /listen", async () => {
    const socket: Socket = connect(server.url, { transports: ["websocket"] });
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const announced = new Promise<{ action: string; records: { kind: string; id: number }[] }>((resolve) => socket.once("images:changed", resolve));
    try {
      const response = await post(form(saveFields({ publishedAt: "2026-01-10T20:00" }), { audio: mp3, cover }));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("Ngobrol Malam: Musik Indie Kampus&quot; published.");
      const episode = await db().podcastEpisode.findFirstOrThrow({ include: { audio: true, cover: true } });
      expect(episode.publishedAt.toISOString()).toBe("2026-01-10T13:00:00.000Z"); // 20:00 in Asia/Jakarta
      expect(episode.audio).toMatchObject({ contentType: "audio/mpeg", size: mp3.length });
      expect(episode.durationSeconds).toBeGreaterThanOrEqual(30);
      expect(episode.cover.contentType).toBe("image/webp");
      expect(await getStorage().stat(episode.audio.key)).toMatchObject({ size: mp3.length });
      const log = await db().activityLog.findFirstOrThrow({ where: { action: "episode.created" } });
      expect(log.summary).toContain("Ngobrol Malam");
      expect(log.adminSessionId).not.toBeNull();
      expect(await announced).toMatchObject({ action: "created", records: [{ kind: "episode", id: episode.id }] });
      created = { id: episode.id, audioKey: episode.audio.key, coverKey: episode.cover.key };

      const listen = await (await fetch(`${server.url}/listen`)).text();
      expect(listen.match(/href="\/play\/(\d+)"/)?.[1]).toBe(String(episode.id));
    } finally {
      socket.close();
    }
  });

  it("schedules an episode with a future date: listed for the admin, hidden from listeners until then", async () => {
    const response = await post(form(saveFields({ title: "Next Year's Show", publishedAt: "2099-01-01T08:00" }), { audio: mp3Other, cover: coverOther }));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("scheduled.");
    const scheduled = await db().podcastEpisode.findFirstOrThrow({ where: { title: "Next Year's Show" } });
    const listen = await (await fetch(`${server.url}/listen`)).text();
    expect(listen).not.toContain(`/play/${scheduled.id}"`);
    const adminPage = await (await fetch(`${server.url}/episodes-admin`, { headers: { Cookie: admin } })).text();
    expect(adminPage).toContain("Next Year&#x27;s Show");
    expect(adminPage).toContain("Scheduled");
    const feed = await (await fetch(`${server.url}/podcast.xml`)).text();
    expect(feed).not.toContain(scheduled.guid);
  });

  it("edits text and date without touching the files, then replaces the audio and removes the old file", async () => {
    const guid = (await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id } })).guid;
    const textOnly = await post(form(saveFields({ id: created.id, title: "Ngobrol Malam (edisi revisi)", publishedAt: "2026-01-11T21:15" })));
    expect(textOnly.status).toBe(200);
    let episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id }, include: { audio: true, cover: true } });
    expect(episode).toMatchObject({ title: "Ngobrol Malam (edisi revisi)", guid });
    expect(episode.publishedAt.toISOString()).toBe("2026-01-11T14:15:00.000Z");
    expect([episode.audio.key, episode.cover.key]).toEqual([created.audioKey, created.coverKey]);

    const wav = silentWav(3);
    const newAudio = await post(form(saveFields({ id: created.id }), { audio: wav, audioName: "episode.wav" }));
    expect(newAudio.status).toBe(200);
    // A WAV is kept as the original; the queue encodes the MP3 listeners get (wait for it, so nothing runs on behind the test).
    let withOriginal = await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id }, include: { audio: true, originalAudio: true } });
    for (let i = 0; i < 120 && !withOriginal.listeningReady; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      withOriginal = await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id }, include: { audio: true, originalAudio: true } });
    }
    expect(withOriginal.originalAudio).toMatchObject({ contentType: "audio/wav", size: wav.length });
    // The upload's temp file and the encoder's folder are gone.
    expect(await stagedUploads(server.dataDir)).toEqual([]);
    expect(withOriginal.audio.contentType).toBe("audio/mpeg");
    episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id }, include: { audio: true, cover: true } });
    expect(episode.guid).toBe(guid); // podcast apps must not see a new episode
    expect(episode.durationSeconds).toBe(3);
    expect(episode.cover.key).toBe(created.coverKey);
    expect(await getStorage().stat(created.audioKey)).toBeNull();
    expect(await db().storedFile.findUnique({ where: { key: created.audioKey } })).toBeNull();
    created.audioKey = episode.audio.key;
  });

  it("refuses a bad replacement file and keeps the episode as it was", async () => {
    const before = await snapshot();
    const row = await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id } });
    const response = await post(form(saveFields({ id: created.id, title: "Should not stick" }), { cover: Buffer.from("GIF8 broken") }));
    expect(response.status).toBe(400);
    expect(await snapshot()).toEqual(before);
    expect(await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id } })).toEqual(row);
  });

  it("deletes an episode with its files, but keeps a file another episode still uses", async () => {
    // Same cover bytes: both episodes point at one stored file.
    const twin = await post(form(saveFields({ title: "Twin cover" }), { audio: mp3Other, cover }));
    expect(twin.status).toBe(200);
    const twinRow = await db().podcastEpisode.findFirstOrThrow({ where: { title: "Twin cover" }, include: { cover: true, audio: true } });
    expect(twinRow.cover.key).toBe(created.coverKey);

    const body = new FormData();
    for (const [name, value] of Object.entries({ formId: `delete-${created.id}`, intent: "delete-episode", id: String(created.id), title: "x" }))
      body.set(name, value);
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(await db().podcastEpisode.findUnique({ where: { id: created.id } })).toBeNull();
    expect(await getStorage().stat(created.audioKey)).toBeNull();
    expect(await getStorage().stat(created.coverKey)).not.toBeNull();
    expect(await db().activityLog.count({ where: { action: "episode.deleted" } })).toBe(1);

    const again = await post(body);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("That episode was already deleted.");

    // Every stored object belongs to a file row, and every file row to an episode.
    const files = await db().storedFile.findMany({ include: { _count: { select: { episodeAudio: true, episodeCovers: true, episodeOriginals: true } } } });
    for (const file of files) expect(file._count.episodeAudio + file._count.episodeCovers + file._count.episodeOriginals, file.key).toBeGreaterThan(0);
    const expectedKeys = files.flatMap(objectKeys).sort();
    expect(await storedKeys()).toEqual(expectedKeys);
  });

  it("answers the browser's upload with progress as JSON at /episodes-admin/upload, for admins only", async () => {
    const upload = (body: FormData, cookie = admin) =>
      fetch(`${server.url}/episodes-admin/upload`, { method: "POST", body, headers: { Cookie: cookie }, redirect: "manual" });
    const before = await snapshot();
    expect((await upload(form(saveFields()), "")).status).toBe(403);
    const refused = await upload(form({ intent: "save-episode", title: " ", description: "", publishedAt: "2026-01-10T20:00" }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    const answer = (await refused.json()) as { formId: string; ok: boolean; errors: Record<string, string> };
    expect(answer).toMatchObject({ formId: "episode-form", ok: false });
    expect(answer.errors.title).toBe("Enter the episode's title.");
    expect(await snapshot()).toEqual(before);

    const saved = await upload(form(saveFields({ title: "Lewat unggahan" }), { audio: mp3, cover }));
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ formId: "episode-form", ok: true, message: 'Episode "Lewat unggahan" published.' });
    expect(await db().podcastEpisode.count({ where: { title: "Lewat unggahan" } })).toBe(1);
  });

  it("takes audio larger than ordinary forms allow, through the same endpoint the script uses", async () => {
    const big = silentWav(14 * 60); // ~13.4 MB
    expect(big.length).toBeGreaterThan(12 * 1024 * 1024);
    const body = form(saveFields({ title: "Long session" }), { audio: big, cover, audioName: "long.wav" });
    const response = await fetch(`${server.url}/episodes-admin.data`, { method: "POST", body, headers: { Cookie: admin } });
    expect(response.status).toBe(200);
    const episode = await db().podcastEpisode.findFirstOrThrow({ where: { title: "Long session" }, include: { audio: true } });
    expect(episode.audio.size).toBe(big.length);
    expect(episode.durationSeconds).toBe(14 * 60);
    expect(await stagedUploads(server.dataDir)).toEqual([]);
  });
});
