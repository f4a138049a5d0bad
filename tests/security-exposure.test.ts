import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { io as connect, type Socket } from "socket.io-client";
import { db } from "~/services/db.server";
import { adminCookie, postAdminForm, testImage } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Findings 7 and 9 of the second security round: what an anonymous caller
 * learns from realtime events, POST /users, /metrics and /healthz, and image
 * bombs that stay under the pixel limit but not under the memory they cost.
 */

const SEED = path.resolve("prisma/seed-assets");

/** A real, decodable PNG of zeros with 16 bits per sample, built row by row (it is megabytes, not hundreds). */
async function sixteenBitPng(width: number, height: number): Promise<Buffer> {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([16, 2, 0, 0, 0], 8); // 16-bit RGB
  const deflate = zlib.createDeflate({ level: 1 });
  const compressed: Buffer[] = [];
  deflate.on("data", (data: Buffer) => compressed.push(data));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const row = Buffer.alloc(1 + width * 6);
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((resolve) => deflate.once("drain", resolve));
  deflate.end();
  await done;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", Buffer.concat(compressed)), chunk("IEND", Buffer.alloc(0))]);
}

describe("what anonymous callers can learn or cost", () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: "metrics-token-for-tests" });
    admin = await adminCookie(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("never sends a scheduled episode's title (or id) to anonymous realtime clients", async () => {
    const socket: Socket = connect(server.url, { transports: ["websocket"] });
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const heard: unknown[] = [];
    socket.onAny((_event, payload) => heard.push(payload));
    try {
      const [audio, cover] = await Promise.all(["audio/episode-1.mp3", "covers/cover-01.jpg"].map((file) => fs.readFile(path.join(SEED, file))));
      const form = new FormData();
      for (const [name, value] of Object.entries({
        formId: "episode-form",
        intent: "save-episode",
        title: "Secret Christmas Special",
        description: "Not yet.",
        publishedAt: "2099-12-24T20:00",
      }))
        form.set(name, value);
      form.set("audio", new Blob([new Uint8Array(audio)]), "episode.mp3");
      form.set("cover", new Blob([new Uint8Array(cover)]), "cover.jpg");
      const response = await fetch(`${server.url}/episodes-admin`, { method: "POST", body: form, headers: { Cookie: admin } });
      expect(response.status).toBe(200);
      const scheduled = await db().podcastEpisode.findFirstOrThrow({ where: { title: "Secret Christmas Special" } });
      // Then an edit of it, still scheduled.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard.length).toBeGreaterThan(0);
      const said = JSON.stringify(heard);
      expect(said).not.toContain("Secret Christmas");
      expect(said).not.toContain(`"id":${scheduled.id}`);
    } finally {
      socket.close();
    }
  });

  it("never pushes a scheduled episode's id or new cover to anonymous sockets, on any change of it (issue 27, finding 5d)", async () => {
    const [audio, cover] = await Promise.all(["audio/episode-1.mp3", "covers/cover-01.jpg"].map((file) => fs.readFile(path.join(SEED, file))));
    const addEpisode = async (title: string, publishedAt: string) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ formId: "episode-form", intent: "save-episode", title, description: "Later.", publishedAt }))
        form.set(name, value);
      form.set("audio", new Blob([new Uint8Array(audio)]), "episode.mp3");
      form.set("cover", new Blob([new Uint8Array(cover)]), "cover.jpg");
      expect((await fetch(`${server.url}/episodes-admin`, { method: "POST", body: form, headers: { Cookie: admin } })).status).toBe(200);
      return db().podcastEpisode.findFirstOrThrow({ where: { title } });
    };
    const scheduled = await addEpisode("Unannounced Special", "2099-06-01T20:00");
    const published = await addEpisode("Out Already", "2020-06-01T20:00");

    const socket: Socket = connect(server.url, { transports: ["websocket"] });
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const heard: unknown[] = [];
    socket.onAny((_event, payload) => heard.push(payload));
    const cardForm = (id: number, intent: string, image?: Buffer) =>
      postAdminForm(server.url, "/cardlistmoreadmin", admin, { formId: `card-${id}`, intent, id: String(id) }, image ? { image } : {});
    try {
      // The scheduled episode's card image replaced, then reset to the station artwork.
      expect((await cardForm(scheduled.id, "replace-card-image", await testImage("#aa0000"))).status).toBe(200);
      const newCover = (await db().podcastEpisode.findUniqueOrThrow({ where: { id: scheduled.id }, include: { cover: true } })).cover.key;
      expect((await cardForm(scheduled.id, "reset-card-image")).status).toBe(200);
      // A public episode's card as well: its change is pushed (the socket does hear such changes).
      expect((await cardForm(published.id, "replace-card-image", await testImage("#00aa00"))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const said = JSON.stringify(heard);
      expect(said).toContain(`"episodeId":${published.id}`);
      expect(said).not.toMatch(new RegExp(`"(id|episodeId)":${scheduled.id}\\b`));
      expect(said).not.toContain(newCover);
      expect(said).not.toContain("Unannounced");
    } finally {
      socket.close();
    }
  });

  it("answers POST /users the same whether or not the email is registered", async () => {
    const register = (email: string, name: string) =>
      fetch(`${server.url}/users`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, email, password: "correct horse battery", conPassword: "correct horse battery" }),
      });
    const first = await register("someone@example.com", "Someone");
    const again = await register("SOMEONE@example.com", "Prober");
    const fresh = await register("nobody@example.com", "Prober");
    expect(again.status).toBe(first.status);
    expect(again.status).toBe(fresh.status);
    const [a, b] = [await again.json(), await fresh.json()];
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    expect(JSON.stringify(a)).not.toMatch(/already|registered/i);
    expect(await db().user.count({ where: { email: "someone@example.com" } })).toBe(1);
    expect((await db().user.findFirstOrThrow({ where: { email: "someone@example.com" } })).name).toBe("Someone");
  });

  it("serves /metrics only to loopback callers no proxy relayed, or with METRICS_TOKEN", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    const relayed: Record<string, string>[] = [
      { "X-Forwarded-For": "203.0.113.9" },
      { Forwarded: "for=203.0.113.9" },
      { "X-Forwarded-For": "203.0.113.9", Authorization: "Bearer wrong" },
      { "X-Forwarded-For": "1.2.3.4", Authorization: "Basic metrics-token-for-tests" },
    ];
    for (const headers of relayed) {
      const refused = await fetch(`${server.url}/metrics`, { headers });
      expect(refused.status, JSON.stringify(headers)).toBe(404);
      expect(await refused.text()).not.toContain("http_requests");
    }
    const withToken = await fetch(`${server.url}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.9", Authorization: "Bearer metrics-token-for-tests" } });
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toContain("# TYPE");
  });

  it("never echoes internal error texts from /healthz to anonymous callers", async () => {
    const files = path.join(server.dataDir, "files");
    await fs.rename(files, `${files}-away`);
    try {
      const anonymous = await fetch(`${server.url}/healthz`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
      expect(anonymous.status).toBe(503);
      const text = await anonymous.text();
      expect(JSON.parse(text)).toEqual({ ok: false, database: { ok: true }, storage: { kind: "folder", ok: false } });
      expect(text).not.toContain(server.dataDir);
      const operator = await (await fetch(`${server.url}/healthz`)).json();
      expect(operator.storage.error).toMatch(/ENOENT/);
    } finally {
      await fs.rename(`${files}-away`, files);
    }
  });

  it("refuses images that would cost too much memory once decoded (16-bit near the pixel limit)", async () => {
    const bomb = await sixteenBitPng(6300, 6300);
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const before = await db().storedFile.count();
    const response = await postAdminForm(server.url, "/dashboard-admin", admin, { formId: "crew-add", intent: "add-crew-image" }, { image: bomb });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("too large to process");
    expect(await db().storedFile.count()).toBe(before);
  });

  it("refuses form bodies over the field limits while reading them, on public and admin forms", async () => {
    const manyFields = "a=1&".repeat(3_000_000); // 12 MB, under the request size limit, ~3 million fields
    const oneHugeField = `email=${"x".repeat(3 * 1024 * 1024)}`;
    const targets = [
      { path: "/login", cookie: "" },
      { path: "/register", cookie: "" },
      { path: "/pin", cookie: "" },
      { path: "/favorites/1", cookie: "" },
      { path: "/logout", cookie: "" },
      { path: "/dashboard-admin", cookie: admin },
      { path: "/episodes-admin", cookie: admin },
    ];
    for (const body of [manyFields, oneHugeField]) {
      const answers = await Promise.all(
        targets.map(({ path, cookie }) =>
          fetch(`${server.url}${path}`, {
            method: "POST",
            body,
            headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
            redirect: "manual",
          }),
        ),
      );
      for (const [i, response] of answers.entries()) {
        expect(response.status, `${targets[i].path} ${body.length}`).toBe(413);
        expect(await response.text()).toContain("too large");
      }
    }
    // A public form sent as multipart with a file is refused the same way.
    const multipart = new FormData();
    multipart.set("email", "a@example.com");
    multipart.set("password", new Blob([new Uint8Array(1024)]), "file.bin");
    expect((await fetch(`${server.url}/login`, { method: "POST", body: multipart })).status).toBe(413);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("refuses JSON bodies over their small limits while reading them (POST /users, play reports)", async () => {
    const users = await db().user.count();
    const big = JSON.stringify({
      name: "x".repeat(1024 * 1024),
      email: "big@example.com",
      password: "correct horse battery",
      conPassword: "correct horse battery",
    });
    for (const path of ["/users", "/plays/1"]) {
      const response = await fetch(`${server.url}${path}`, { method: "POST", body: big, headers: { "Content-Type": "application/json" } });
      expect(response.status, path).toBe(413);
      expect(await response.text()).toContain("too large");
    }
    // Sent in chunks with no length announced: refused before anything is read.
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    });
    expect(
      (await fetch(`${server.url}/users`, { method: "POST", body: chunked, headers: { "Content-Type": "application/json" }, duplex: "half" } as RequestInit))
        .status,
    ).toBe(411);
    expect(await db().user.count()).toBe(users);
  });
});
