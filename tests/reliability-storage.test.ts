import fs from "node:fs/promises";
import path from "node:path";
import { db } from "~/services/db.server";
import { adminCookie, expectStorageConsistent, postAdminForm, storageKeys, testImage } from "./helpers/admin";
import { startS3rver, type RunningS3 } from "./helpers/s3rver";
import { startTestServer, type TestServer } from "./helpers/server";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy";

// S3 "goes down" by cutting a TCP proxy in front of s3rver: the app's S3
// client sees refused connections, exactly as with a stopped MinIO.

const STORAGE_DOWN_MESSAGE = "The file could not be saved because media storage is not reachable right now. Nothing was changed; please try again in a moment.";

async function databaseState() {
  const client = db();
  return {
    files: await client.storedFile.findMany({ orderBy: { key: "asc" }, select: { key: true } }),
    events: await client.event.findMany({ orderBy: { id: "asc" }, select: { id: true, posterId: true } }),
    siteImages: await client.siteImage.findMany({ select: { slot: true, imageId: true } }),
    activity: await client.activityLog.count(),
  };
}

describe("S3 storage goes down while the server runs", () => {
  let s3: RunningS3;
  let proxy: TcpProxy;
  let server: TestServer;
  let cookie: string;
  let fallback: Buffer;

  beforeAll(async () => {
    s3 = await startS3rver();
    const endpoint = new URL(s3.endpoint);
    proxy = await startTcpProxy({ host: endpoint.hostname, port: Number(endpoint.port) });
    server = await startTestServer({ SEED_CONTENT: "true", ...s3.env("outage-media"), S3_ENDPOINT: proxy.urlFor(s3.endpoint).replace(/\/$/, "") });
    cookie = await adminCookie(server.url);
    fallback = await fs.readFile(path.resolve("public/media-fallback.webp"));
  });
  afterAll(async () => {
    await proxy?.restore();
    await server?.stop();
    await proxy?.close();
    await s3?.stop();
  });

  it("refuses uploads with a clear message, writes nothing, and pages still render with the bundled image", async () => {
    const listenHtml = await (await fetch(`${server.url}/listen?before-outage`)).text();
    const mediaUrls = [...new Set([...listenHtml.matchAll(/\/media\/[a-z0-9/._-]+\.webp/g)].map((m) => m[0]))];
    expect(mediaUrls.length).toBeGreaterThan(5);
    const realBytes = Buffer.from(await (await fetch(`${server.url}${mediaUrls[0]}`)).arrayBuffer());
    expect(realBytes.equals(fallback)).toBe(false);
    const before = await databaseState();
    const objectsBefore = await storageKeys();

    await proxy.cut();

    const poster = await testImage("#3355aa", 600, 800);
    const event = await postAdminForm(
      server.url,
      "/eventsAdmin",
      cookie,
      { formId: "event", intent: "save-event", name: "Malam Akustik", date: "2026-12-01", time: "19:30" },
      { poster },
    );
    expect(event.status).toBe(400);
    expect(await event.text()).toContain(STORAGE_DOWN_MESSAGE);
    const jumbotron = await postAdminForm(
      server.url,
      "/dashboard-admin",
      cookie,
      { formId: "jumbotron", intent: "replace-jumbotron" },
      { image: await testImage("#aa3300", 1600, 900) },
    );
    expect(jumbotron.status).toBe(400);
    expect(await jumbotron.text()).toContain(STORAGE_DOWN_MESSAGE);
    expect(await databaseState()).toEqual(before);

    // Pages render from the database; every image they show answers with the bundled picture.
    for (const page of ["/listen?during-outage", "/events?during-outage", "/CrewSpin?during-outage"]) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      await response.text();
    }
    for (const url of mediaUrls) {
      const response = await fetch(`${server.url}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
      // Never cached: the real image must come back once storage does.
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("etag")).toBeNull();
      expect(Buffer.from(await response.arrayBuffer()).equals(fallback)).toBe(true);
    }
    // Audio has no stand-in: it says storage is unavailable.
    const audioUrl = listenHtml.match(/\/media\/audio\/[a-z0-9._-]+/)?.[0];
    if (audioUrl) expect((await fetch(`${server.url}${audioUrl}`)).status).toBe(503);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    const report = await health.json();
    expect(report.storage).toMatchObject({ kind: "s3", ok: false });
    expect(report.database.ok).toBe(true);

    await proxy.restore();

    const restored = await fetch(`${server.url}${mediaUrls[0]}`);
    expect(restored.status).toBe(200);
    expect(restored.headers.get("cache-control")).toContain("immutable");
    expect(Buffer.from(await restored.arrayBuffer()).equals(realBytes)).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await storageKeys()).toEqual(objectsBefore);

    const retried = await postAdminForm(
      server.url,
      "/eventsAdmin",
      cookie,
      { formId: "event", intent: "save-event", name: "Malam Akustik", date: "2026-12-01", time: "19:30" },
      { poster },
    );
    expect(retried.status).toBe(200);
    expect(await db().event.count()).toBe(before.events.length + 1);
    await expectStorageConsistent();
  });
});
