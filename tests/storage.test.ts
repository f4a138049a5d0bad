import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createStorage, InvalidStorageKeyError, type Storage } from "~/services/storage.server";

import { startS3rver } from "./helpers/s3rver";

interface Backend {
  storage: Storage;
  /** Takes the backend away (server closed / folder deleted) and cleans up. */
  stop(): Promise<void>;
}

async function startFolderBackend(): Promise<Backend & { dataDir: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storage-folder-"));
  const storage = await createStorage({ dataDir });
  return { storage, dataDir, stop: () => rm(dataDir, { recursive: true, force: true }) };
}

/** A real S3 API over HTTP: s3rver on a free port with its own temp folder. */
async function startS3Backend(): Promise<Backend> {
  const s3 = await startS3rver();
  const storage = await createStorage({
    s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: "media-test" },
  });
  return { storage, stop: s3.stop };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ESCAPING_KEYS = ["../x", "a/../../b", "/etc/passwd", "a\\b", "%2e%2e/x", "..", "a/./b", "a//b", "a/", ".hidden", "", "Upper.png", "a".repeat(201)];

describe.each([
  { kind: "folder", start: startFolderBackend },
  { kind: "s3", start: startS3Backend },
])("$kind storage", ({ kind, start }) => {
  let backend: Backend;
  let storage: Storage;
  const body = randomBytes(1000);

  beforeAll(async () => {
    backend = await start();
    storage = backend.storage;
  });
  afterAll(() => backend.stop());

  it("reports its kind and passes check()", async () => {
    expect(storage.kind).toBe(kind);
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it("puts, stats and reads an object", async () => {
    await storage.put("crud/track.mp3", body, "audio/mpeg");
    const info = await storage.stat("crud/track.mp3");
    expect(info).toMatchObject({ size: body.length });
    expect(info?.etag).toMatch(/^[^"]+$/);
    expect(Math.abs(info!.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await readAll(await storage.read("crud/track.mp3"))).toEqual(body);
  });

  it("puts a file from disk as a stream, larger than one S3 part (a multipart upload there)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "storage-putfile-"));
    try {
      // 20 MB: more than the 8 MB part size, so S3 gets several parts.
      const big = randomBytes(20 * 1024 * 1024 + 417);
      const source = path.join(dir, "upload");
      await writeFile(source, big);
      await storage.putFile("stream/episode.wav", source, "audio/wav");
      expect((await storage.stat("stream/episode.wav"))?.size).toBe(big.length);
      const stored = createHash("sha256");
      for await (const chunk of await storage.read("stream/episode.wav")) stored.update(chunk as Buffer);
      expect(stored.digest("hex")).toBe(createHash("sha256").update(big).digest("hex"));
      expect(await readAll(await storage.read("stream/episode.wav", { start: 20 * 1024 * 1024, end: big.length - 1 }))).toEqual(big.subarray(20 * 1024 * 1024));
      // The source stays where it was: it is the caller's to remove.
      expect((await readdir(dir)).sort()).toEqual(["upload"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("stores nothing when the file to put cannot be read", async () => {
    await expect(storage.putFile("stream/missing.mp3", path.join(os.tmpdir(), "no-such-upload-file"), "audio/mpeg")).rejects.toThrow();
    expect(await storage.stat("stream/missing.mp3")).toBeNull();
    expect(await collect(storage.list("stream/missing"))).toEqual([]);
  });

  it("reads inclusive byte ranges", async () => {
    await storage.put("range/image.webp", body, "image/webp");
    expect(await readAll(await storage.read("range/image.webp", { start: 0, end: 99 }))).toEqual(body.subarray(0, 100));
    expect(await readAll(await storage.read("range/image.webp", { start: 990, end: 999 }))).toEqual(body.subarray(990));
    expect(await readAll(await storage.read("range/image.webp", { start: 5, end: 5 }))).toEqual(body.subarray(5, 6));
  });

  it("overwrites an existing key and changes its etag", async () => {
    await storage.put("overwrite.png", body, "image/png");
    const before = await storage.stat("overwrite.png");
    const replacement = randomBytes(300);
    await storage.put("overwrite.png", replacement, "image/png");
    const after = await storage.stat("overwrite.png");
    expect(after?.size).toBe(300);
    expect(after?.etag).not.toBe(before?.etag);
    expect(await readAll(await storage.read("overwrite.png"))).toEqual(replacement);
  });

  it("treats missing keys as null on stat, an error on read, and a no-op on remove", async () => {
    expect(await storage.stat("missing/nothing.mp3")).toBeNull();
    await expect(storage.read("missing/nothing.mp3")).rejects.toThrow();
    await expect(storage.remove("missing/nothing.mp3")).resolves.toBeUndefined();
  });

  it("removes objects", async () => {
    await storage.put("remove/me.jpg", body, "image/jpeg");
    await storage.remove("remove/me.jpg");
    expect(await storage.stat("remove/me.jpg")).toBeNull();
    expect(await collect(storage.list("remove/"))).toEqual([]);
  });

  it("lists keys under a prefix", async () => {
    const keys = ["list/a.webp", "list/b/c.mp3", "list/b/d.m4a", "listing.wav", "other/x.png"];
    for (const key of keys) await storage.put(key, body, "application/octet-stream");
    expect((await collect(storage.list("list/"))).sort()).toEqual(["list/a.webp", "list/b/c.mp3", "list/b/d.m4a"]);
    expect((await collect(storage.list("list/b/c"))).sort()).toEqual(["list/b/c.mp3"]);
    expect((await collect(storage.list("list"))).sort()).toEqual(["list/a.webp", "list/b/c.mp3", "list/b/d.m4a", "listing.wav"]);
    expect(await collect(storage.list("nothing-here/"))).toEqual([]);
    const all = await collect(storage.list());
    expect(all).toEqual(expect.arrayContaining(keys));
  });

  it.each(ESCAPING_KEYS)("rejects the key %j everywhere", async (key) => {
    await expect(storage.put(key, body, "text/plain")).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.stat(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.read(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });

  it("rejects list prefixes that could escape", async () => {
    for (const prefix of ["../", "/etc", "a/../..", "%2e%2e/"]) {
      await expect(collect(storage.list(prefix))).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
  });

  it("accepts a 200-character key", async () => {
    const key = `long/${"k".repeat(195)}`;
    await storage.put(key, body, "application/octet-stream");
    expect((await storage.stat(key))?.size).toBe(body.length);
  });

  it("fails check() once the backend is gone", async () => {
    const doomed = await start();
    await doomed.stop();
    await expect(doomed.storage.check()).rejects.toThrow();
  });
});

describe("folder storage", () => {
  let backend: Awaited<ReturnType<typeof startFolderBackend>>;

  beforeAll(async () => {
    backend = await startFolderBackend();
  });
  afterAll(() => backend.stop());

  it("keeps files under <dataDir>/files and leaves no temp files behind", async () => {
    const body = randomBytes(64);
    await backend.storage.put("images/ab/cover.webp", body, "image/webp");
    const folder = path.join(backend.dataDir, "files", "images", "ab");
    expect(await readdir(folder)).toEqual(["cover.webp"]);
    expect(await readFile(path.join(folder, "cover.webp"))).toEqual(body);
  });

  it("puts a file without leaving a temp file beside it, also when the copy fails", async () => {
    const source = path.join(backend.dataDir, "upload-source");
    await writeFile(source, randomBytes(4096));
    await backend.storage.putFile("audio/ab/episode.mp3", source, "audio/mpeg");
    const folder = path.join(backend.dataDir, "files", "audio", "ab");
    expect(await readdir(folder)).toEqual(["episode.mp3"]);
    await expect(backend.storage.putFile("audio/ab/gone.mp3", path.join(backend.dataDir, "missing-source"), "audio/mpeg")).rejects.toThrow();
    expect(await readdir(folder)).toEqual(["episode.mp3"]);
  });

  it("never lists in-progress uploads", async () => {
    await writeFile(path.join(backend.dataDir, "files", ".upload.mp3.1234.tmp"), "partial");
    expect(await collect(backend.storage.list())).not.toContain(".upload.mp3.1234.tmp");
  });

  it("cannot reach files outside its folder", async () => {
    await writeFile(path.join(backend.dataDir, "secret.txt"), "secret");
    await expect(backend.storage.stat("../secret.txt")).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });

  it("reports I/O failures as errors, not as missing keys", async () => {
    const brokenDir = await mkdtemp(path.join(os.tmpdir(), "storage-broken-"));
    const broken = await createStorage({ dataDir: brokenDir });
    // A symlink loop fails every lookup with ELOOP, even for root.
    await rm(path.join(brokenDir, "files"), { recursive: true });
    await symlink("files", path.join(brokenDir, "files"));
    await expect(broken.stat("a.mp3")).rejects.toMatchObject({ code: "ELOOP" });
    await rm(brokenDir, { recursive: true, force: true });
  });
});

describe("s3 storage", () => {
  it("fails to start when the endpoint's port is closed", async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    await expect(createStorage({ s3: { endpoint, accessKey: "x", secretKey: "y", bucket: "media" } })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("rejects endpoints that are not http(s) URLs", async () => {
    await expect(createStorage({ s3: { endpoint: "ftp://minio:21", accessKey: "x", secretKey: "y", bucket: "media" } })).rejects.toThrow(/http/);
  });
});
