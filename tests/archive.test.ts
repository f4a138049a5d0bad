import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { DEMO_EVENTS } from "~/models/demo-content.server";
import { loadConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { ArchiveError, exportStation, importStation } from "~/services/station-archive.server";
import { createStorage, getStorage, type Storage } from "~/services/storage.server";
import { startServer } from "../server/app";
import { adminCookie, postAdminForm, testImage } from "./helpers/admin";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { startS3rver, type RunningS3 } from "./helpers/s3rver";
import { startTestServer, type TestServer } from "./helpers/server";

const run = promisify(execFile);

/** Every row of every station table, as PostgreSQL renders it, sorted. */
async function dumpRows(databaseUrl: string): Promise<Record<string, string[]>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
       AND table_name NOT IN ('_prisma_migrations', 'socket_io_attachments') ORDER BY table_name`,
    );
    const dump: Record<string, string[]> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
      dump[name] = rows.map((r) => r.row).sort();
    }
    return dump;
  } finally {
    await client.end();
  }
}

async function dumpFiles(storage: Storage): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const key of storage.list()) {
    const hash = createHash("sha256");
    for await (const chunk of (await storage.read(key)) as AsyncIterable<Buffer>) hash.update(chunk);
    files[key] = hash.digest("hex");
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}

describe("station export and import", () => {
  let source: TestServer;
  let target: TestDatabase;
  let s3: RunningS3;
  let workDir: string;
  let archive: string;
  let sourceRows: Record<string, string[]>;
  let sourceFiles: Record<string, string>;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-archive-"));
    archive = path.join(workDir, "station.tar.gz");
    // A database on the test run's PostgreSQL (embedded, or TEST_DATABASE_URL's) and a data folder.
    source = await startTestServer({ SEED_CONTENT: "true" });
    target = await createTestDatabase();
    s3 = await startS3rver();
  });
  afterAll(async () => {
    await source?.stop();
    await target?.drop();
    await s3?.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("round-trips a seeded and edited station into PostgreSQL + S3 with every row and file identical", async () => {
    // Edits on top of the seed: an admin upload over HTTP, a listener account, a favourite, a play, a renamed episode.
    const cookie = await adminCookie(source.url);
    const posted = await postAdminForm(
      source.url,
      "/eventsAdmin",
      cookie,
      { formId: "event", intent: "save-event", name: "Pentas Seni", date: "2026-12-24", time: "20:00" },
      { poster: await testImage("#884422", 900, 1200) },
    );
    expect(posted.status).toBe(200);
    // A show with artwork, and an episode that belongs to it.
    const showPosted = await postAdminForm(
      source.url,
      "/schedule-admin",
      cookie,
      { formId: "show-form", intent: "save-show", name: "Kopi Malam", slug: "", description: "Larut malam.", colour: "#224488" },
      { artwork: await testImage("#224488", 800, 800) },
    );
    expect(showPosted.status).toBe(200);
    // The station settings (one Setting row of JSON) move with the station.
    const settings = await postAdminForm(source.url, "/settings-admin", cookie, {
      formId: "settings",
      intent: "save-settings",
      name: "Radio Pindahan",
      accentColor: "#3366cc",
      timeZone: "Asia/Makassar",
      socialLabel0: "Mastodon",
      socialUrl0: "https://radio.example/@pindahan",
      historyDays: "90",
    });
    expect(settings.status, await settings.clone().text()).toBe(200);
    const show = await db().show.findUniqueOrThrow({ where: { slug: "kopi-malam" } });
    const episode = await db().podcastEpisode.findFirstOrThrow({ orderBy: { id: "desc" } });
    await db().podcastEpisode.update({ where: { id: episode.id }, data: { title: "Edisi Spesial — “kutip” & <tag>", showId: show.id } });
    const user = await db().user.create({ data: { name: "Sari", email: "sari@example.com", passwordHash: "scrypt$x" } });
    await db().favorite.create({ data: { userId: user.id, episodeId: episode.id } });
    await db().episodePlay.create({ data: { episodeId: episode.id, listenerKey: "k1" } });
    // A show's draft recording moves; the rolling rewind buffer does not.
    const driveShow = await db().show.create({ data: { slug: "drive", name: "Drive", archive: "draft" } });
    await getStorage().put("recordings/draft1.mp3", Buffer.from([0xff, 0xfb, 0x90, 0x00]), "audio/mpeg");
    await db().showRecording.create({
      data: { showId: driveShow.id, airingStart: new Date(), airingEnd: new Date(), status: "draft", audioKey: "recordings/draft1.mp3" },
    });
    await getStorage().put("rewind/1-1.mp3", Buffer.from([0xff, 0xfb, 0x90, 0x00]), "audio/mpeg");
    await db().rewindSegment.create({ data: { sequence: 1, startedAt: new Date(), durationMs: 6000, size: 4, key: "rewind/1-1.mp3" } });

    sourceRows = await dumpRows(source.databaseUrl);
    sourceFiles = await dumpFiles(getStorage());
    expect(sourceRows.RewindSegment).toHaveLength(1);
    sourceRows.RewindSegment = [];
    delete sourceFiles["rewind/1-1.mp3"];
    // The admin's event and the demo's upcoming ones.
    expect(sourceRows.Event).toHaveLength(1 + DEMO_EVENTS.length);
    expect(sourceRows.PodcastEpisode).toHaveLength(10);
    const showRows = sourceRows.Show.map((row) => JSON.parse(row) as { slug: string; artworkId: string | null });
    expect(showRows.find((row) => row.slug === "kopi-malam")?.artworkId).toBe(show.artworkId);
    expect(show.artworkId).not.toBeNull();
    expect(sourceRows.PodcastEpisode.filter((row) => (JSON.parse(row) as { showId: string | null }).showId === show.id)).toHaveLength(1);
    expect(Object.keys(sourceFiles).length).toBeGreaterThan(50);
    expect(sourceRows.Setting.find((row) => row.includes('"station.settings"'))).toContain("Radio Pindahan");

    const exported = await exportStation({ databaseUrl: source.databaseUrl, storage: getStorage(), file: archive });
    expect(exported.files).toBe(Object.keys(sourceFiles).length);

    const targetStorage = await createStorage({ s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: "moved-station" } });
    const imported = await importStation({ databaseUrl: target.url, storage: targetStorage, file: archive });
    expect(imported).toEqual(exported);

    expect(await dumpRows(target.url)).toEqual(sourceRows);
    expect(await dumpFiles(targetStorage)).toEqual(sourceFiles);
  });

  it("runs the moved station: pages, media and new episodes (ids continue after the imported ones)", async () => {
    // In-process servers share one Prisma client: the source (already dumped) goes first.
    await source.stop();
    source = undefined!;
    const moved = await startServer(
      loadConfig({
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: workDir,
        DATABASE_URL: target.url,
        ...s3.env("moved-station"),
        ADMIN_PIN: "123456",
        SESSION_SECRET: "test-session-secret-0123456789",
        SEED_CONTENT: "true",
        ORPHAN_GRACE_SECONDS: "0",
        LOG_LEVEL: "warn",
      }),
    );
    try {
      const events = await (await fetch(`${moved.url}/events`)).text();
      expect(events).toContain("Pentas Seni");
      // The moved station's settings are in force there (read from the imported row at start).
      expect(events).toContain("Radio Pindahan");
      expect(await (await fetch(`${moved.url}/schedule`)).text()).toContain("Asia/Makassar");
      const listen = await (await fetch(`${moved.url}/listen`)).text();
      const images = [...listen.matchAll(/\/media\/[a-z0-9/._-]+\.webp/g)].map((m) => m[0]);
      expect(images.length).toBeGreaterThan(5);
      for (const image of images) expect((await fetch(`${moved.url}${image}`)).status, image).toBe(200);
      // The show's page: its artwork (served from the moved storage) and its episode.
      const showPage = await (await fetch(`${moved.url}/shows/kopi-malam`)).text();
      expect(showPage).toContain("Edisi Spesial");
      const artwork = /class="show-page__art" src="(\/media\/[^"]+)"/.exec(showPage)?.[1];
      expect(artwork).toBeTruthy();
      expect((await fetch(`${moved.url}${artwork}`)).status).toBe(200);
      // Not re-seeded, nothing swept at start: the station's content is exactly the exported one.
      const rows = await dumpRows(target.url);
      for (const table of [
        "StoredFile",
        "SiteImage",
        "PodcastEpisode",
        "CrewImage",
        "CrewMember",
        "Event",
        "User",
        "Favorite",
        "EpisodePlay",
        "Embed",
        "Show",
      ]) {
        expect(rows[table], table).toEqual(sourceRows[table]);
      }
      const next = await db().podcastEpisode.create({
        data: {
          title: "Baru",
          description: "",
          coverId: (await db().storedFile.findFirstOrThrow()).id,
          audioId: (await db().storedFile.findFirstOrThrow({ where: { contentType: { startsWith: "audio/" } } })).id,
          durationSeconds: 1,
          publishedAt: new Date(),
        },
      });
      expect(next.id).toBeGreaterThan(Math.max(...sourceRows.PodcastEpisode.map((row) => JSON.parse(row).id as number)));
    } finally {
      await moved.close();
    }
  });

  it("refuses a station that is not empty, and changes nothing", async () => {
    const targetStorage = await createStorage({ s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: "moved-station" } });
    const rowsBefore = await dumpRows(target.url);
    const filesBefore = await dumpFiles(targetStorage);
    const refused = importStation({ databaseUrl: target.url, storage: targetStorage, file: archive });
    await expect(refused).rejects.toThrow(ArchiveError);
    await expect(refused).rejects.toThrow(
      /^This station is not empty \(\d+ .*rows.*, \d+ stored files\)\. Import only into a new station: an empty database and empty storage\.$/,
    );
    expect(await dumpRows(target.url)).toEqual(rowsBefore);
    expect(await dumpFiles(targetStorage)).toEqual(filesBefore);
  });

  it("imports an export that GNU tar unpacked and re-packed (directory entries, PAX and GNU headers)", async () => {
    const unpacked = await fs.mkdtemp(path.join(os.tmpdir(), "spin-archive-repack-"));
    await run("tar", ["-xzf", archive, "-C", unpacked]);
    try {
      for (const format of ["pax", "gnu"]) {
        const repacked = path.join(workDir, `repacked-${format}.tar.gz`);
        await run("tar", [`--format=${format}`, "-czf", repacked, "-C", unpacked, "."]);
        expect((await run("tar", ["-tvzf", repacked])).stdout, "GNU tar writes directory entries").toMatch(/^d/m);
        const fresh = await createTestDatabase();
        const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), `spin-archive-${format}-`));
        try {
          const storage = await createStorage({ dataDir: storageDir });
          const imported = await importStation({ databaseUrl: fresh.url, storage, file: repacked });
          expect(imported.files, format).toBe(Object.keys(sourceFiles).length);
          expect(await dumpRows(fresh.url), format).toEqual(sourceRows);
          expect(await dumpFiles(storage), format).toEqual(sourceFiles);
        } finally {
          await fresh.drop();
          await fs.rm(storageDir, { recursive: true, force: true });
        }
      }
    } finally {
      await fs.rm(unpacked, { recursive: true, force: true });
    }
  });

  it("refuses a damaged or foreign archive before touching anything", async () => {
    const fresh = await createTestDatabase();
    const storageDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-archive-empty-"));
    try {
      const storage = await createStorage({ dataDir: storageDir });
      const bytes = await fs.readFile(archive);
      const truncated = path.join(workDir, "truncated.tar.gz");
      await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
      await expect(importStation({ databaseUrl: fresh.url, storage, file: truncated })).rejects.toThrow(/is not a readable station archive/);
      const foreign = path.join(workDir, "foreign.tar.gz");
      await fs.writeFile(foreign, "just some text");
      await expect(importStation({ databaseUrl: fresh.url, storage, file: foreign })).rejects.toThrow(ArchiveError);
      // Nothing was written: not even the migrations ran.
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()`);
      await client.end();
      expect(rows[0].n).toBe(0);
      expect(await dumpFiles(storage)).toEqual({});
    } finally {
      await fresh.drop();
      await fs.rm(storageDir, { recursive: true, force: true });
    }
  });

  /** The real export with one more file of `size` zeros, listed in the manifest with its true size and checksum, packed again by tar and gzip. */
  async function archiveWithZeros(name: string, size: number): Promise<string> {
    const unpacked = await fs.mkdtemp(path.join(workDir, "zeros-"));
    try {
      await run("tar", ["-xzf", archive, "-C", unpacked]);
      const filePath = path.join(unpacked, "files", "covers", name);
      await fs.mkdir(path.dirname(filePath), { recursive: true });
      const handle = await fs.open(filePath, "w");
      await handle.truncate(size); // sparse: nothing written here, tar reads zeros
      await handle.close();
      const hash = createHash("sha256");
      const zeros = Buffer.alloc(8 * 1024 * 1024);
      for (let done = 0; done < size; done += zeros.length) hash.update(zeros.subarray(0, Math.min(zeros.length, size - done)));
      const manifestPath = path.join(unpacked, "manifest.json");
      const manifest = JSON.parse(await fs.readFile(manifestPath, "utf8")) as { files: { key: string; size: number; sha256: string }[] };
      manifest.files.push({ key: `covers/${name}`, size, sha256: hash.digest("hex") });
      await fs.writeFile(manifestPath, JSON.stringify(manifest));
      const packed = path.join(workDir, `${name}.tar.gz`);
      await run("tar", ["-czf", packed, "-C", unpacked, "."]);
      return packed;
    } finally {
      await fs.rm(unpacked, { recursive: true, force: true });
    }
  }

  /** `npm run import` as an operator runs it, in its own process, which reports its peak memory (MB) when it exits. */
  async function importInChild(file: string, databaseUrl: string, dataDir: string) {
    const reporter = path.join(workDir, "report-peak-rss.mjs");
    await fs.writeFile(reporter, `process.on("exit", () => process.stderr.write("peak-rss-kb=" + process.resourceUsage().maxRSS + "\\n"));\n`);
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/root",
      NODE_ENV: "production" as const,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
    };
    const outcome = await run(process.execPath, ["--import", "tsx", "--import", pathToFileURL(reporter).href, "scripts/import.ts", file], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      (result) => ({ code: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    return { ...outcome, peakMb: Number(/peak-rss-kb=(\d+)/.exec(outcome.stderr)?.[1]) / 1024 };
  }

  it("refuses a gzip bomb (a 1 MB archive holding a 1 GiB file) without unpacking it, and streams a large file it accepts (issue 27, finding 5f)", async () => {
    const fresh = await createTestDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-archive-bomb-data-"));
    try {
      const bomb = await archiveWithZeros("bomb.webp", 1024 * 1024 * 1024);
      expect((await fs.stat(bomb)).size).toBeLessThan(8 * 1024 * 1024);
      const refused = await importInChild(bomb, fresh.url, dataDir);
      expect(refused.code, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stderr).toMatch(/is refused: files\/covers\/bomb\.webp is 1024 MB unpacked, over the limit of 256 MB \(nothing was imported\)/);
      // Node with tsx is about 330 MB here; the whole entry in memory took it to 2.2 GB.
      expect(refused.peakMb).toBeGreaterThan(10);
      expect(refused.peakMb).toBeLessThan(700);
      // Nothing changed: not even the migrations ran, and no file was stored.
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()`);
      await client.end();
      expect(rows[0].n).toBe(0);
      expect(await dumpFiles(await createStorage({ dataDir }))).toEqual({});
      await fs.rm(bomb, { force: true });

      // A file under the limit (200 MiB) is imported, streamed: the process grows by far less than the file.
      const large = await archiveWithZeros("large.webp", 200 * 1024 * 1024);
      const accepted = await importInChild(large, fresh.url, dataDir);
      expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
      expect((await (await createStorage({ dataDir })).stat("covers/large.webp"))?.size).toBe(200 * 1024 * 1024);
      expect(accepted.peakMb - refused.peakMb).toBeLessThan(120);
      await fs.rm(large, { force: true });
    } finally {
      await fresh.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it("npm run export / npm run import move an embedded station (stopped) into another database", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-archive-embedded-"));
    const movedDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-archive-moved-"));
    const destination = await createTestDatabase();
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", NODE_ENV: "production" as const };
    try {
      // A station on the embedded defaults, on disk, stopped.
      const embedded = await startServer(
        loadConfig({ NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_PIN: "123456", SEED_CONTENT: "false", LOG_LEVEL: "warn" }),
      );
      const cookie = await adminCookie(embedded.url);
      expect(
        (
          await postAdminForm(
            embedded.url,
            "/eventsAdmin",
            cookie,
            { formId: "event", intent: "save-event", name: "Dari Laptop", date: "2026-11-30", time: "10:00" },
            { poster: await testImage("#226644") },
          )
        ).status,
      ).toBe(200);
      await embedded.close();

      const file = path.join(workDir, "embedded.tar.gz");
      const exported = await run(process.execPath, ["--import", "tsx", "scripts/export.ts", file], { env: { ...env, DATA_DIR: dataDir } });
      expect(exported.stdout).toMatch(/^Exported \d+ rows from \d+ tables and \d+ files \(\d+ KB\) to .*embedded\.tar\.gz$/m);

      const imported = await run(process.execPath, ["--import", "tsx", "scripts/import.ts", file], {
        env: { ...env, DATA_DIR: movedDir, DATABASE_URL: destination.url },
      });
      expect(imported.stdout).toMatch(/Imported \d+ rows into \d+ tables and \d+ files/);
      const client = new pg.Client({ connectionString: destination.url });
      await client.connect();
      const { rows } = await client.query(`SELECT name FROM "Event"`);
      await client.end();
      expect(rows).toEqual([{ name: "Dari Laptop" }]);

      const again = await run(process.execPath, ["--import", "tsx", "scripts/import.ts", file], {
        env: { ...env, DATA_DIR: movedDir, DATABASE_URL: destination.url },
      }).catch((error) => error);
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toMatch(/^This station is not empty/);
    } finally {
      await destination.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(movedDir, { recursive: true, force: true });
    }
  });
});
