import { randomBytes } from "node:crypto";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { createMediaHandler } from "../server/media";
import { createStorage, type Storage } from "~/services/storage.server";

import { captureLog } from "./helpers/log";
import { startS3rver } from "./helpers/s3rver";

interface Backend {
  storage: Storage;
  /** A storage of the same kind whose backing service has failed. */
  broken: Storage;
  cleanup(): Promise<void>;
}

async function startFolderBackend(): Promise<Backend> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "media-folder-"));
  const storage = await createStorage({ dataDir: path.join(dataDir, "ok") });
  await writeFile(path.join(dataDir, "ok", "secret.txt"), "outside files/");
  const brokenDir = path.join(dataDir, "broken");
  const broken = await createStorage({ dataDir: brokenDir });
  // A symlink loop makes every lookup fail with ELOOP (a stand-in for a failed disk or mount).
  await rm(path.join(brokenDir, "files"), { recursive: true });
  await symlink("files", path.join(brokenDir, "files"));
  return { storage, broken, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

async function startS3Backend(): Promise<Backend> {
  const startStorage = async () => {
    const s3 = await startS3rver();
    const storage = await createStorage({
      s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: "media" },
    });
    return { storage, stop: s3.stop };
  };
  const working = await startStorage();
  const down = await startStorage();
  await down.stop();
  return { storage: working.storage, broken: down.storage, cleanup: working.stop };
}

async function closeServer(server: Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  // Sockets that carried a large body linger for seconds before Node sees them as idle.
  server.closeAllConnections();
  await closed;
}

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Buffer.equals: toEqual walks large buffers byte by byte and takes seconds. */
async function expectBody(response: Response, expected: Buffer): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  expect(body.length).toBe(expected.length);
  expect(body.equals(expected)).toBe(true);
}

/** fetch() normalises "..", so path-traversal attempts go over raw HTTP. */
function rawGet(base: string, rawPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(base, { path: rawPath }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

describe.each([
  { kind: "folder", start: startFolderBackend },
  { kind: "s3", start: startS3Backend },
])("media over $kind storage", ({ start }) => {
  const audio = randomBytes(300_000);
  const large = randomBytes(8 * 1024 * 1024);
  let backend: Backend;
  let currentStorage: Storage;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    backend = await start();
    currentStorage = backend.storage;
    await backend.storage.put("audio/ab12.mp3", audio, "audio/mpeg");
    await backend.storage.put("audio/large.wav", large, "audio/wav");
    await backend.storage.put("images/cover.jpg", Buffer.from("jpeg"), "image/jpeg");
    await backend.storage.put("uploads/page.html", Buffer.from("<script>alert(1)</script>"), "text/html");
    await backend.storage.put("uploads/logo.svg", Buffer.from("<svg onload=alert(1)>"), "image/svg+xml");
    await backend.storage.put("uploads/notes", Buffer.from("no extension"), "text/plain");
    await backend.storage.put("uploads/mp3", Buffer.from("a name, not an extension"), "text/plain");
    await backend.storage.put("uploads/x.constructor", Buffer.from("prototype lookup"), "text/plain");
    const app = express();
    app.get(
      "/media/*",
      createMediaHandler(() => currentStorage),
    );
    ({ server, base } = await listen(app));
  });

  afterAll(async () => {
    await closeServer(server);
    await backend.cleanup();
  });

  it("serves a full GET with caching and safety headers", async () => {
    const response = await fetch(`${base}/media/audio/ab12.mp3`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/mpeg");
    expect(response.headers.get("content-length")).toBe(String(audio.length));
    expect(response.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(new Date(response.headers.get("last-modified")!).getTime()).not.toBeNaN();
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toBeNull();
    await expectBody(response, audio);
  });

  it("answers HEAD with the same headers and no body", async () => {
    const get = await fetch(`${base}/media/audio/ab12.mp3`);
    await get.arrayBuffer();
    const head = await fetch(`${base}/media/audio/ab12.mp3`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(audio.length));
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-type")).toBe("audio/mpeg");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("serves bytes=0-99 as 206 with exactly those 100 bytes", async () => {
    const response = await fetch(`${base}/media/audio/ab12.mp3`, { headers: { Range: "bytes=0-99" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes 0-99/${audio.length}`);
    expect(response.headers.get("content-length")).toBe("100");
    await expectBody(response, audio.subarray(0, 100));
  });

  it("serves open-ended and suffix ranges", async () => {
    const open = await fetch(`${base}/media/audio/ab12.mp3`, { headers: { Range: "bytes=299000-" } });
    expect(open.status).toBe(206);
    expect(open.headers.get("content-range")).toBe(`bytes 299000-299999/${audio.length}`);
    await expectBody(open, audio.subarray(299_000));

    const suffix = await fetch(`${base}/media/audio/ab12.mp3`, { headers: { Range: "bytes=-500" } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get("content-range")).toBe(`bytes 299500-299999/${audio.length}`);
    await expectBody(suffix, audio.subarray(-500));

    const clamped = await fetch(`${base}/media/audio/ab12.mp3`, { headers: { Range: "bytes=299990-999999999" } });
    expect(clamped.headers.get("content-range")).toBe(`bytes 299990-299999/${audio.length}`);
    await expectBody(clamped, audio.subarray(299_990));
  });

  it("answers HEAD with a range as 206 without a body", async () => {
    const response = await fetch(`${base}/media/audio/ab12.mp3`, { method: "HEAD", headers: { Range: "bytes=10-19" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-length")).toBe("10");
    expect(response.headers.get("content-range")).toBe(`bytes 10-19/${audio.length}`);
  });

  it("answers an unsatisfiable range with 416", async () => {
    for (const range of ["bytes=999999999-", "bytes=-0"]) {
      const response = await fetch(`${base}/media/audio/ab12.mp3`, { headers: { Range: range } });
      expect(response.status).toBe(416);
      expect(response.headers.get("content-range")).toBe(`bytes */${audio.length}`);
      expect(response.headers.get("cache-control")).toBe("no-store");
      await response.arrayBuffer();
    }
  });

  it("answers multiple or malformed ranges with the full body", async () => {
    for (const range of ["bytes=0-1,5-6", "bytes=abc", "items=0-5", "bytes=9-3"]) {
      const response = await fetch(`${base}/media/audio/ab12.mp3`, { headers: { Range: range } });
      expect(response.status).toBe(200);
      await expectBody(response, audio);
    }
  });

  it("ignores the range when If-Range names another version", async () => {
    const response = await fetch(`${base}/media/audio/ab12.mp3`, {
      headers: { Range: "bytes=0-99", "If-Range": '"stale"' },
    });
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(audio.length);
  });

  it("answers If-None-Match with 304", async () => {
    const first = await fetch(`${base}/media/images/cover.jpg`);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await fetch(`${base}/media/images/cover.jpg`, { headers: { "If-None-Match": ifNoneMatch } });
      expect(response.status).toBe(304);
      expect(response.headers.get("etag")).toBe(etag);
      expect((await response.arrayBuffer()).byteLength).toBe(0);
    }
    const changed = await fetch(`${base}/media/images/cover.jpg`, { headers: { "If-None-Match": '"other"' } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe("jpeg");
  });

  it("answers If-Modified-Since with 304 when nothing changed", async () => {
    const first = await fetch(`${base}/media/images/cover.jpg`);
    await first.arrayBuffer();
    const response = await fetch(`${base}/media/images/cover.jpg`, {
      headers: { "If-Modified-Since": first.headers.get("last-modified")! },
    });
    expect(response.status).toBe(304);
  });

  it("derives image types from the extension", async () => {
    const response = await fetch(`${base}/media/images/cover.jpg`);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(await response.text()).toBe("jpeg");
  });

  it.each(["uploads/page.html", "uploads/logo.svg", "uploads/notes", "uploads/mp3", "uploads/x.constructor"])(
    "serves %s only as a downloadable octet-stream",
    async (key) => {
      const response = await fetch(`${base}/media/${key}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/octet-stream");
      expect(response.headers.get("content-disposition")).toBe("attachment");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      await response.arrayBuffer();
    },
  );

  it.each([
    "/media/../secret.txt",
    "/media/../../../../etc/passwd",
    "/media/%2e%2e/secret.txt",
    "/media/%2e%2e%2fsecret.txt",
    "/media/images/../../secret.txt",
    "/media//etc/passwd",
    "/media/a%5c..%5csecret.txt",
    "/media/%252e%252e/secret.txt",
    "/media/.%2e/secret.txt",
  ])("answers the traversal attempt %s with 404", async (rawPath) => {
    const response = await rawGet(base, rawPath);
    expect(response.status).toBe(404);
    expect(response.body).toBe("Not found");
  });

  it("answers a missing key with 404", async () => {
    const response = await fetch(`${base}/media/audio/missing.mp3`);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBeNull();
    await response.arrayBuffer();
  });

  it("answers 503 while the storage is down", async () => {
    const log = captureLog();
    currentStorage = backend.broken;
    try {
      const response = await fetch(`${base}/media/audio/ab12.mp3`);
      expect(response.status).toBe(503);
      expect(response.headers.get("cache-control")).toBe("no-store");
      await response.arrayBuffer();
      expect(log.entries()).toContainEqual(expect.objectContaining({ level: "error", msg: "media: storage unavailable" }));
    } finally {
      currentStorage = backend.storage;
      log.restore();
    }
  });

  it("survives clients that abort mid-download", async () => {
    const log = captureLog();
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        const controller = new AbortController();
        const response = await fetch(`${base}/media/audio/large.wav`, { signal: controller.signal });
        const reader = response.body!.getReader();
        await reader.read();
        controller.abort();
        await reader.read().catch(() => {});
      }
      const after = await fetch(`${base}/media/audio/large.wav`, { headers: { Range: "bytes=-10" } });
      await expectBody(after, large.subarray(-10));
      expect(log.writes).toEqual([]);
    } finally {
      log.restore();
    }
  });
});

describe("media handler mounted with app.use", () => {
  let dataDir: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "media-use-"));
    const storage = await createStorage({ dataDir });
    await storage.put("images/a.png", Buffer.from("png"), "image/png");
    const app = express();
    app.use(
      "/media",
      createMediaHandler(() => storage),
    );
    ({ server, base } = await listen(app));
  });

  afterAll(async () => {
    await closeServer(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("takes the key from the path below the mount point", async () => {
    const response = await fetch(`${base}/media/images/a.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(await response.text()).toBe("png");
    expect((await rawGet(base, "/media/../a.png")).status).toBe(404);
  });

  it("allows only GET and HEAD", async () => {
    const response = await fetch(`${base}/media/images/a.png`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
