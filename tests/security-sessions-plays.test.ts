import { NEW_LISTENERS_PER_IP, PLAY_THRESHOLD_SECONDS } from "~/models/plays.server";
import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Findings 6 and 8 of the second security round: stuffing TRENDING with
 * cookie-less play reports, and listener sessions that outlived sign-out.
 */

const PASSWORD = "correct horse battery";
let nextAddress = 1;
const newAddress = () => `192.0.2.${nextAddress++}`;

describe("plays and listener sessions", () => {
  let server: TestServer;
  let episode: number;
  let shortEpisode: number;

  async function request(path: string, init: { method?: string; cookie?: string; address?: string; body?: BodyInit } = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      body: init.body,
      headers: { "X-Forwarded-For": init.address ?? "192.0.2.250", ...(init.cookie ? { Cookie: init.cookie } : {}) },
      redirect: "manual",
    });
    const setCookie = response.headers.getSetCookie()[0]?.split(";")[0];
    return { response, cookie: setCookie && !setCookie.endsWith("=") ? setCookie : init.cookie };
  }
  const play = (episodeId: number, heardSeconds: number, cookie?: string, address?: string) =>
    request(`/plays/${episodeId}`, { method: "POST", cookie, address, body: JSON.stringify({ heardSeconds }) });
  /** Moves this browser's recorded start of an episode into the past, as if that much time went by. */
  async function backdateStart(cookie: string, episodeId: number, seconds: number) {
    const rows = await db().listenerSession.findMany();
    for (const row of rows) {
      const data = row.data as { playStarts?: Record<string, number> };
      if (data.playStarts?.[episodeId]) {
        data.playStarts[episodeId] -= seconds * 1000;
        await db().listenerSession.update({ where: { id: row.id }, data: { data } });
      }
    }
    expect(cookie).toMatch(/^__session=/);
  }
  async function signIn(email: string, cookie?: string) {
    const { response, cookie: next } = await request("/login", {
      method: "POST",
      cookie,
      address: newAddress(),
      body: new URLSearchParams({ email, password: PASSWORD }),
    });
    expect(response.status).toBe(302);
    return next!;
  }
  async function profileName(cookie: string) {
    const html = await (await request("/register", { cookie })).response.text();
    const name = /aria-label="Profile: ([^"]*)"/.exec(html)?.[1];
    return name === "Guest" ? undefined : name;
  }

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "1" });
    const cover = await db().storedFile.create({
      data: { key: "images/s-cover.webp", contentType: "image/webp", size: 10, checksum: "c".repeat(64), width: 400, height: 400 },
    });
    const audio = await db().storedFile.create({ data: { key: "audio/s.mp3", contentType: "audio/mpeg", size: 10, checksum: "a".repeat(64) } });
    const create = (title: string, durationSeconds: number) =>
      db().podcastEpisode.create({
        data: { title, description: "-", coverId: cover.id, audioId: audio.id, durationSeconds, publishedAt: new Date(Date.now() - 60_000) },
      });
    episode = (await create("Long Episode", 1800)).id;
    shortEpisode = (await create("Jingle", 20)).id;
    const registered = await request("/register", {
      method: "POST",
      address: newAddress(),
      body: new URLSearchParams({ name: "Sesi Listener", email: "sesi@example.com", password: PASSWORD, conPassword: PASSWORD }),
    });
    expect(registered.response.status).toBe(302);
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await db().episodePlay.deleteMany();
    await db().rateLimit.deleteMany();
  });

  it("never counts a cookie-less play report, however often it comes or whatever it claims", async () => {
    for (let i = 0; i < 5; i++) {
      const { response } = await play(episode, 3600, undefined, newAddress());
      expect(response.status).toBe(202);
    }
    expect(await db().episodePlay.count()).toBe(0);
  });

  it("gives one address only a small budget of new listener ids", async () => {
    const address = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < NEW_LISTENERS_PER_IP + 2; i++) statuses.push((await play(episode, 0, undefined, address)).response.status);
    expect(statuses.slice(0, NEW_LISTENERS_PER_IP)).toEqual(Array(NEW_LISTENERS_PER_IP).fill(202));
    expect(statuses.slice(NEW_LISTENERS_PER_IP)).toEqual([429, 429]);
    // A listener who already has an id is not affected.
    expect(await db().episodePlay.count()).toBe(0);
  });

  it("counts a play once per listener and day, only after it really played", async () => {
    const { response: started, cookie } = await play(episode, 0);
    expect(started.status).toBe(202);
    expect(cookie).toMatch(/^__session=/);
    // Claiming an hour heard right after starting is not believed.
    expect((await play(episode, 3600, cookie)).response.status).toBe(202);
    await backdateStart(cookie!, episode, 120);
    // Not enough heard yet.
    expect((await play(episode, PLAY_THRESHOLD_SECONDS - 1, cookie)).response.status).toBe(202);
    expect(await db().episodePlay.count()).toBe(0);
    expect((await play(episode, PLAY_THRESHOLD_SECONDS, cookie)).response.status).toBe(204);
    expect((await play(episode, 600, cookie)).response.status).toBe(204);
    expect(await db().episodePlay.count({ where: { episodeId: episode } })).toBe(1);
    // Half of a short episode is enough.
    expect((await play(shortEpisode, 0, cookie)).response.status).toBe(202);
    await backdateStart(cookie!, shortEpisode, 60);
    expect((await play(shortEpisode, 10, cookie)).response.status).toBe(204);
    expect(await db().episodePlay.count()).toBe(2);
  });

  it("ends the session on sign-out: the old cookie no longer signs anyone in", async () => {
    const cookie = await signIn("sesi@example.com");
    expect(await profileName(cookie)).toBe("Sesi Listener");
    const { response } = await request("/logout", { method: "POST", cookie, body: new URLSearchParams({}) });
    expect(response.status).toBe(302);
    expect(await profileName(cookie)).toBeUndefined();
    // Nor does writing to the session bring it back.
    await play(episode, 0, cookie);
    expect(await profileName(cookie)).toBeUndefined();
  });

  it("signs out everywhere: every device's session of the account ends", async () => {
    const phone = await signIn("sesi@example.com");
    const laptop = await signIn("sesi@example.com");
    expect(phone).not.toBe(laptop);
    expect(await profileName(laptop)).toBe("Sesi Listener");
    const { response } = await request("/logout", { method: "POST", cookie: phone, body: new URLSearchParams({ scope: "everywhere" }) });
    expect(response.status).toBe(302);
    expect(await profileName(phone)).toBeUndefined();
    expect(await profileName(laptop)).toBeUndefined();
    expect(await db().listenerSession.count({ where: { userId: { not: null } } })).toBe(0);
  });

  it("gives a new session id at sign-in, so an id known before is worth nothing after", async () => {
    const { cookie: planted } = await play(episode, 0);
    const signedIn = await signIn("sesi@example.com", planted);
    expect(signedIn).not.toBe(planted);
    expect(await profileName(signedIn)).toBe("Sesi Listener");
    expect(await profileName(planted!)).toBeUndefined();
  });
});
