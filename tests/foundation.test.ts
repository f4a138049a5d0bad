import { io as connect, type Socket } from "socket.io-client";
import { createEvent } from "~/models/events.server";
import { objectKeys } from "~/models/files.server";
import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";
import { startS3rver, type RunningS3 } from "./helpers/s3rver";
import { startTestServer, type TestServer } from "./helpers/server";

async function counts() {
  const client = db();
  return {
    files: await client.storedFile.count(),
    episodes: await client.podcastEpisode.count(),
    crewImages: await client.crewImage.count(),
    crewMembers: await client.crewMember.count(),
    siteImages: await client.siteImage.count(),
  };
}

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of getStorage().list()) keys.push(key);
  return keys.sort();
}

// The same end-to-end checks for both storage backends: seeded content is
// served through /media, audio seeks with Range, and a restart seeds nothing twice.
describe.each(["folder", "s3"] as const)("a fresh station on the %s backend", (backend) => {
  let s3: RunningS3 | undefined;
  let server: TestServer;
  beforeAll(async () => {
    if (backend === "s3") s3 = await startS3rver();
    server = await startTestServer({ SEED_CONTENT: "true", ...(s3?.env() ?? {}) });
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it("is seeded with the bundled content and reports its storage as healthy", async () => {
    expect(await counts()).toMatchObject({ episodes: 10, crewImages: 38, crewMembers: 5, siteImages: 1 });
    const health = await (await fetch(`${server.url}/healthz`)).json();
    expect(health.storage).toEqual({ kind: backend, ok: true });
  });

  it("serves the seeded jumbotron and cards on /listen as images", async () => {
    const html = await (await fetch(`${server.url}/listen`)).text();
    const urls = [...new Set(html.match(/\/media\/[a-z0-9/._-]+\.webp/g) ?? [])];
    expect(urls.length).toBeGreaterThanOrEqual(6);
    for (const url of urls) {
      const response = await fetch(`${server.url}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP");
    }
    const links = html.match(/href="\/play\/\d+"/g) ?? [];
    expect(new Set(links).size).toBe(5);
  });

  it("lets podcast audio seek with HTTP Range", async () => {
    const episode = await db().podcastEpisode.findFirstOrThrow({ include: { audio: true } });
    const url = `${server.url}/media/${episode.audio.key}`;
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    expect(Number(head.headers.get("content-length"))).toBe(episode.audio.size);
    expect(head.headers.get("content-type")).toMatch(/^audio\/(mpeg|wav)$/);

    const first = await fetch(url, { headers: { Range: "bytes=0-99" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-99/${episode.audio.size}`);
    expect((await first.arrayBuffer()).byteLength).toBe(100);

    const beyond = await fetch(url, { headers: { Range: "bytes=999999999-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${episode.audio.size}`);
  });

  it("keeps every stored object referenced by exactly one file row (no orphans)", async () => {
    const files = await db().storedFile.findMany();
    const expected = files.flatMap(objectKeys).sort();
    expect(await storedKeys()).toEqual(expected);
  });

  it("seeds nothing twice and keeps admin changes across a restart", async () => {
    const before = await counts();
    await db().crewMember.deleteMany();
    server = await server.restart();
    const after = await counts();
    // The members' photos are unreferenced now; the start-up sweeper may collect them.
    expect({ ...after, files: 0 }).toEqual({ ...before, crewMembers: 0, files: 0 });
    expect(after.files).toBeGreaterThanOrEqual(before.files - 5);
    expect(await db().setting.count({ where: { key: "seed.completedAt" } })).toBe(1);
  });
});

describe("the realtime contract", () => {
  let server: TestServer;
  let socket: Socket;
  beforeAll(async () => {
    server = await startTestServer();
    socket = connect(server.url, { transports: ["websocket"] });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
  });
  afterAll(async () => {
    socket?.close();
    await server?.stop();
  });

  it("broadcasts events:changed with the new event when one is written through the model", async () => {
    const poster = await (await import("node:fs/promises")).readFile("prisma/seed-assets/covers/cover-01.jpg");
    const received = new Promise<{ action: string; records: { name: string; time: string; poster: { key: string } }[] }>((resolve) =>
      socket.once("events:changed", resolve),
    );
    await createEvent({ name: "Malam Akustik", date: "2026-12-05", time: "19:30", poster });
    const change = await received;
    expect(change.action).toBe("created");
    expect(change.records).toHaveLength(1);
    expect(change.records[0]).toMatchObject({ name: "Malam Akustik", time: "19:30" });
    expect(change.records[0].poster.key).toMatch(/^event-posters\/[0-9a-f]{40}\.webp$/);
  });
});
