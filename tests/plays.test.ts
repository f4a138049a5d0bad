import { listTrendingEpisodes } from "~/models/plays.server";
import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("play counts and TRENDING", () => {
  let server: TestServer;
  const episodes: Record<"a" | "b" | "c" | "scheduled", number> = { a: 0, b: 0, c: 0, scheduled: 0 };

  beforeAll(async () => {
    server = await startTestServer();
    const cover = await db().storedFile.create({
      data: { key: "images/trend-cover.webp", contentType: "image/webp", size: 10, checksum: "c".repeat(64), width: 400, height: 400 },
    });
    const audio = await db().storedFile.create({
      data: { key: "audio/trend.mp3", contentType: "audio/mpeg", size: 10, checksum: "a".repeat(64) },
    });
    const create = (title: string, publishedAt: Date) =>
      db().podcastEpisode.create({
        data: { title, description: "-", coverId: cover.id, audioId: audio.id, durationSeconds: 600, publishedAt },
      });
    episodes.a = (await create("Episode A", new Date(Date.now() - 3 * DAY_MS))).id;
    episodes.b = (await create("Episode B", new Date(Date.now() - 2 * DAY_MS))).id;
    episodes.c = (await create("Episode C", new Date(Date.now() - DAY_MS))).id;
    episodes.scheduled = (await create("Scheduled", new Date(Date.now() + DAY_MS))).id;
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await db().episodePlay.deleteMany();
    await db().rateLimit.deleteMany();
  });

  /** POSTs one play report; `cookie` carries the listener session between calls. */
  async function report(episodeId: number | string, heardSeconds: number, cookie?: string) {
    const response = await fetch(`${server.url}/plays/${episodeId}`, {
      method: "POST",
      headers: cookie ? { Cookie: cookie } : {},
      body: JSON.stringify({ heardSeconds }),
    });
    const setCookie = response.headers.get("set-cookie");
    return { status: response.status, cookie: setCookie ? setCookie.split(";")[0] : cookie };
  }

  /** What the player does: report the start, let a minute of listening pass (moved back in the session), report 60 s heard. */
  async function play(episodeId: number | string, cookie?: string) {
    const started = await report(episodeId, 0, cookie);
    if (started.status !== 202) return started;
    for (const row of await db().listenerSession.findMany()) {
      const data = row.data as { playStarts?: Record<string, number> };
      if (data.playStarts?.[String(episodeId)]) {
        data.playStarts[String(episodeId)] -= 60_000;
        await db().listenerSession.update({ where: { id: row.id }, data: { data } });
      }
    }
    return report(episodeId, 60, started.cookie);
  }

  it("counts a play once per listener and day, anonymously", async () => {
    const first = await play(episodes.a);
    expect(first.status).toBe(204);
    expect(first.cookie).toMatch(/^__session=/);
    const again = await play(episodes.a, first.cookie);
    expect(again.status).toBe(204);
    expect(await play(episodes.a, first.cookie)).toMatchObject({ status: 204 });

    const rows = await db().episodePlay.findMany({ where: { episodeId: episodes.a } });
    expect(rows).toHaveLength(1);
    expect(rows[0].listenerKey).toMatch(/^[0-9a-f]{64}$/);

    // The same listener playing another episode, and a second listener, each count.
    await play(episodes.b, first.cookie);
    await play(episodes.a);
    expect(await db().episodePlay.count({ where: { episodeId: episodes.a } })).toBe(2);
    expect(await db().episodePlay.count({ where: { episodeId: episodes.b } })).toBe(1);
    const keys = new Set((await db().episodePlay.findMany()).map((row) => row.listenerKey));
    expect(keys.size).toBe(2);
  });

  it("does not count plays of unknown or unpublished episodes", async () => {
    expect((await play(999_999)).status).toBe(404);
    expect((await play(episodes.scheduled)).status).toBe(404);
    expect((await play("abc")).status).toBe(404);
    expect((await play("1e3")).status).toBe(404);
    expect(await db().episodePlay.count()).toBe(0);
  });

  it("only accepts POST", async () => {
    const response = await fetch(`${server.url}/plays/${episodes.a}`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await db().episodePlay.count()).toBe(0);
  });

  it("limits how many play reports one address can send", async () => {
    const { cookie } = await report(episodes.c, 0);
    const results: number[] = [];
    for (let i = 0; i < 60; i++) results.push((await report(episodes.c, 0, cookie)).status);
    expect(results.slice(0, 59).every((status) => status === 202)).toBe(true);
    expect(results[59]).toBe(429);
    expect(await db().episodePlay.count()).toBe(0);
  });

  it("ranks episodes by plays in the last 7 days only", async () => {
    const now = Date.now();
    const rows = [
      ...Array.from({ length: 3 }, (_, i) => ({ episodeId: episodes.b, listenerKey: `b${i}`, playedAt: new Date(now - DAY_MS) })),
      ...Array.from({ length: 2 }, (_, i) => ({ episodeId: episodes.a, listenerKey: `a${i}`, playedAt: new Date(now - 6 * DAY_MS) })),
      // Plenty of plays of C, but all older than a week.
      ...Array.from({ length: 5 }, (_, i) => ({ episodeId: episodes.c, listenerKey: `c${i}`, playedAt: new Date(now - 8 * DAY_MS) })),
      { episodeId: episodes.c, listenerKey: "c-recent", playedAt: new Date(now - 60_000) },
      { episodeId: episodes.scheduled, listenerKey: "s0", playedAt: new Date(now) },
      { episodeId: episodes.scheduled, listenerKey: "s1", playedAt: new Date(now) },
      { episodeId: episodes.scheduled, listenerKey: "s2", playedAt: new Date(now) },
      { episodeId: episodes.scheduled, listenerKey: "s3", playedAt: new Date(now) },
    ];
    await db().episodePlay.createMany({ data: rows });

    const trending = await listTrendingEpisodes();
    expect(trending.map((e) => [e.title, e.plays])).toEqual([
      ["Episode B", 3],
      ["Episode A", 2],
      ["Episode C", 1],
    ]);
    expect((await listTrendingEpisodes(7, 2)).map((e) => e.title)).toEqual(["Episode B", "Episode A"]);
    expect((await listTrendingEpisodes(30)).map((e) => [e.title, e.plays])[0]).toEqual(["Episode C", 6]);

    const response = await fetch(`${server.url}/watch`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("TRENDING");
    const order = ["Episode B", "Episode A", "Episode C"].map((title) => html.indexOf(title));
    expect(order.every((index) => index > 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(html).toContain("3 plays this week");
    expect(html).toContain("1 play this week");
    expect(html).toContain(`href="/play/${episodes.b}"`);
    expect(html).not.toContain("Scheduled");
  });

  it("says so when nothing was played this week", async () => {
    const html = await (await fetch(`${server.url}/watch`)).text();
    expect(html).toContain("Nothing has been played this week yet.");
  });
});
