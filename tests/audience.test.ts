import { createHash } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { getAudienceFigures, primarySource } from "~/models/audience-figures.server";
import { runAudienceRollup } from "~/models/audience-rollup.server";
import { createSlot, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";
import { adminCookie } from "./helpers/admin";
import { ICECAST_TEST_ADMIN_PASSWORD, icecastAvailable, startIcecast, type RunningIcecast } from "./helpers/icecast";
import { startTestServer, type TestServer } from "./helpers/server";

/**
 * Podcast downloads (IAB v2.1) replayed against the real server: a scripted set of requests for
 * episode audio from several listeners (addresses through X-Forwarded-For), with Apple's 2-byte
 * probes, ranges summed over requests, repeats within the day, HEAD requests, robots and podcast
 * services' fetchers. The downloads the server counted must equal those the rules give, computed
 * here on the script alone.
 */
const BYTES_PER_SECOND = 1_000;
const LONG_SECONDS = 600;
const SHORT_SECONDS = 30;

type Step = {
  episode: "long" | "other" | "short";
  address: string;
  userAgent: string;
  range?: [number, number];
  method?: "GET" | "HEAD";
  dnt?: boolean;
  /** What the script's author knows the client to be (the rule under test does not read this). */
  robot?: boolean;
  app: string;
};

const APPLE = "AppleCoreMedia/1.0.0.20G75 (iPhone; U; CPU OS 16_6 like Mac OS X; en_us)";
const OVERCAST = "Overcast/3.0 (+http://overcast.fm/; iOS podcast app)";
const SPOTIFY = "Spotify/8.8.50 Android/33 (SM-G991B)";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const ANTENNAPOD = "AntennaPod/3.2.0";
const POCKET_CASTS = "Pocket Casts";

const SCRIPT: Step[] = [
  // Apple: the 2-byte probe, then the episode in two ranges: 70,000 bytes, past the minute (60,000).
  { episode: "long", address: "203.0.113.10", userAgent: APPLE, range: [0, 1], app: "Apple Podcasts" },
  { episode: "long", address: "203.0.113.10", userAgent: APPLE, range: [0, 29_999], app: "Apple Podcasts" },
  { episode: "long", address: "203.0.113.10", userAgent: APPLE, range: [30_000, 69_999], app: "Apple Podcasts" },
  // The same listener again within 24 hours: no second download.
  { episode: "long", address: "203.0.113.10", userAgent: APPLE, app: "Apple Podcasts" },
  // The same listener, another episode: its own download.
  { episode: "other", address: "203.0.113.10", userAgent: APPLE, range: [0, 99_999], app: "Apple Podcasts" },
  { episode: "long", address: "198.51.100.7", userAgent: OVERCAST, app: "Overcast" },
  // The same app from another address is another listener.
  { episode: "long", address: "198.51.100.8", userAgent: OVERCAST, app: "Overcast" },
  { episode: "long", address: "8.8.4.4", userAgent: SPOTIFY, range: [0, 99_999], app: "Spotify" },
  // Less than a minute of audio, in three requests and a probe: not a download.
  { episode: "long", address: "192.0.2.44", userAgent: CHROME, range: [0, 1], app: "Chrome" },
  { episode: "long", address: "192.0.2.44", userAgent: CHROME, range: [0, 19_999], app: "Chrome" },
  { episode: "long", address: "192.0.2.44", userAgent: CHROME, range: [20_000, 39_999], app: "Chrome" },
  { episode: "long", address: "192.0.2.44", userAgent: CHROME, range: [40_000, 59_998], app: "Chrome" },
  // HEAD sends no audio.
  { episode: "long", address: "192.0.2.50", userAgent: ANTENNAPOD, method: "HEAD", app: "AntennaPod" },
  // Ranges summed, not merged: the same 40,000 bytes twice make 80,000.
  { episode: "long", address: "192.0.2.51", userAgent: ANTENNAPOD, range: [0, 39_999], app: "AntennaPod" },
  { episode: "long", address: "192.0.2.51", userAgent: ANTENNAPOD, range: [0, 39_999], app: "AntennaPod" },
  // Do Not Track: counted, without a country.
  { episode: "long", address: "103.10.66.1", userAgent: POCKET_CASTS, dnt: true, app: "Pocket Casts" },
  // Robots and podcast services' own fetchers.
  { episode: "long", address: "66.249.66.1", userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", robot: true, app: "" },
  { episode: "long", address: "198.51.100.20", userAgent: "Overcast/1.0 Podcast Sync (+http://overcast.fm/)", robot: true, app: "" },
  { episode: "long", address: "198.51.100.21", userAgent: "PocketCasts/1.0 (Pocket Casts Feed Parser; +http://pocketcasts.com/)", robot: true, app: "" },
  { episode: "long", address: "198.51.100.22", userAgent: "", robot: true, app: "" },
  {
    episode: "long",
    address: "198.51.100.23",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/120.0 Safari/537.36",
    robot: true,
    app: "",
  },
  // A 30-second episode needs all of it: 20,000 of 30,000 bytes do not count, the rest completes it.
  { episode: "short", address: "203.0.113.77", userAgent: SPOTIFY, range: [0, 19_999], app: "Spotify" },
  { episode: "short", address: "203.0.113.78", userAgent: SPOTIFY, range: [0, 19_999], app: "Spotify" },
  { episode: "short", address: "203.0.113.78", userAgent: SPOTIFY, range: [20_000, 29_999], app: "Spotify" },
];

/** The IAB rules applied to the script alone: bytes summed per listener and episode, probes, HEAD and robots left out. */
function expectedDownloads(sizes: Record<Step["episode"], number>, seconds: Record<Step["episode"], number>) {
  const sums = new Map<string, { episode: Step["episode"]; app: string; bytes: number; needed: number }>();
  for (const step of SCRIPT) {
    if (step.robot || step.method === "HEAD") continue;
    const size = sizes[step.episode];
    const bytes = step.range ? Math.min(step.range[1], size - 1) - step.range[0] + 1 : size;
    if (bytes <= 2) continue;
    const key = `${step.address}|${step.userAgent}|${step.episode}`;
    const needed = seconds[step.episode] <= 60 ? size : Math.ceil((size * 60) / seconds[step.episode]);
    const sum = sums.get(key) ?? { episode: step.episode, app: step.app, bytes: 0, needed };
    sum.bytes += bytes;
    sums.set(key, sum);
  }
  return [...sums.values()].filter((sum) => sum.bytes >= sum.needed);
}

let server: TestServer;
let icecast: RunningIcecast | null = null;

beforeAll(async () => {
  icecast = icecastAvailable ? await startIcecast() : null;
  // Addresses come from X-Forwarded-For, as behind the station's proxy. Icecast is polled every second.
  server = await startTestServer({
    TRUST_PROXY: "1",
    STATION_TIMEZONE: "Asia/Jakarta",
    REWIND_HOURS: "0",
    AUDIENCE_POLL_SECONDS: "1",
    ...(icecast ? { STREAM_URL: icecast.streamUrl, ICECAST_ADMIN_PASSWORD: ICECAST_TEST_ADMIN_PASSWORD } : {}),
  });
});
afterAll(async () => {
  await server?.stop();
  await icecast?.stop();
});

describe("podcast downloads (IAB v2.1)", () => {
  const ids: Record<Step["episode"], number> = { long: 0, other: 0, short: 0 };
  const keys: Record<Step["episode"], string> = { long: "", other: "", short: "" };
  const sizes = { long: LONG_SECONDS * BYTES_PER_SECOND, other: LONG_SECONDS * BYTES_PER_SECOND, short: SHORT_SECONDS * BYTES_PER_SECOND };
  const seconds = { long: LONG_SECONDS, other: LONG_SECONDS, short: SHORT_SECONDS };

  beforeAll(async () => {
    const cover = await db().storedFile.create({
      data: { key: "images/iab-cover.webp", contentType: "image/webp", size: 10, checksum: "c".repeat(64), width: 400, height: 400 },
    });
    for (const name of ["long", "other", "short"] as const) {
      const bytes = Buffer.alloc(sizes[name], name.charCodeAt(0));
      keys[name] = `audio/iab-${name}.mp3`;
      await getStorage().put(keys[name], bytes, "audio/mpeg");
      const audio = await db().storedFile.create({
        data: { key: keys[name], contentType: "audio/mpeg", size: bytes.length, checksum: createHash("sha256").update(bytes).digest("hex") },
      });
      const episode = await db().podcastEpisode.create({
        data: {
          title: `IAB ${name}`,
          description: "-",
          coverId: cover.id,
          audioId: audio.id,
          durationSeconds: seconds[name],
          publishedAt: new Date(Date.now() - 3_600_000),
        },
      });
      ids[name] = episode.id;
    }
  });
  it("counts exactly the downloads the rules give, with the app, device and country of each", async () => {
    for (const step of SCRIPT) {
      const headers: Record<string, string> = { "X-Forwarded-For": step.address, "User-Agent": step.userAgent };
      if (step.range) headers.Range = `bytes=${step.range[0]}-${step.range[1]}`;
      if (step.dnt) headers.DNT = "1";
      const response = await fetch(`${server.url}/media/${keys[step.episode]}`, { method: step.method ?? "GET", headers });
      expect(response.status, JSON.stringify(step)).toBe(step.range ? 206 : 200);
      await response.arrayBuffer();
    }
    const expected = expectedDownloads(sizes, seconds);
    // Counting happens after each response closes: wait until the server has caught up.
    await expect.poll(async () => db().podcastDownload.count(), { timeout: 10_000 }).toBe(expected.length);
    const counted = await db().podcastDownload.findMany({ orderBy: { id: "asc" } });
    const perEpisode = (rows: { episodeId: number }[]) =>
      Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, rows.filter((row) => row.episodeId === id).length]));
    expect(perEpisode(counted)).toEqual(perEpisode(expected.map((row) => ({ episodeId: ids[row.episode] }))));
    expect(counted.map((row) => row.app).sort()).toEqual(expected.map((row) => row.app).sort());
    expect(expected.length).toBe(8);
    // Countries from the offline database; none for the listener who sent Do Not Track.
    expect(counted.find((row) => row.app === "Pocket Casts")?.country).toBe("");
    expect(counted.find((row) => row.app === "Apple Podcasts")?.device).toBe("phone");
    expect(counted.find((row) => row.app === "Spotify" && row.episodeId === ids.long)?.country).toBe("US");
    // Nothing of an address is stored anywhere: no column holds one.
    const stored = JSON.stringify([await db().podcastDownload.findMany(), await db().podcastDownloadProgress.findMany()], (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    );
    for (const step of SCRIPT) expect(stored).not.toContain(step.address);

    // The figures report them per episode id, for admins only.
    const cookie = await adminCookie(server.url);
    const today = new Date().toISOString().slice(0, 10);
    const anonymous = await fetch(`${server.url}/audience.json`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toContain("pin=admin");
    const response = await fetch(`${server.url}/audience.json?from=2026-01-01&to=2099-01-01`, { headers: { Cookie: cookie } });
    expect(response.status).toBe(400);
    const figures = (await (await fetch(`${server.url}/audience.json?to=${today}`, { headers: { Cookie: cookie } })).json()) as {
      episodes: { episodeId: number; downloads7Days: number; downloadsInPeriod: number }[];
    };
    for (const [name, id] of Object.entries(ids)) {
      const row = figures.episodes.find((episode) => episode.episodeId === id);
      const count = expected.filter((download) => download.episode === name).length;
      expect(row, name).toMatchObject({ downloads7Days: count, downloadsInPeriod: count });
    }
    const csv = await (await fetch(`${server.url}/audience.csv`, { headers: { Cookie: cookie } })).text();
    expect(csv).toContain(`"episode","${ids.long} IAB long","downloads7Days","${expected.filter((row) => row.episode === "long").length}"`);
  });
});

describe("audience figures from a generated stretch of sessions", () => {
  it("rolls them up so that the per-period and per-show figures equal an independent computation in SQL", async () => {
    const DAY = 24 * 3600_000;
    // Whole UTC days that end two days ago: all settled, all within the raw sessions' retention.
    const to = new Date(Math.floor(Date.now() / DAY) * DAY - 2 * DAY);
    const from = new Date(to.getTime() - 14 * DAY);
    const firstDay = new Date(from.getTime() + 7 * 3600_000).toISOString().slice(0, 10);
    const morning = await createShow({ name: "Pagi Kampus", slug: "pagi-kampus", description: "", colour: "#e11d48", hostIds: [] });
    const night = await createShow({ name: "Malam Musik", slug: "malam-musik", description: "", colour: "#2563eb", hostIds: [] });
    for (const [show, time, minutes, days] of [
      [morning, "07:00", 120, ["MO", "TU", "WE", "TH", "FR"]],
      [night, "20:30", 90, ["SA", "SU", "WE"]],
    ] as const) {
      const slot = validateSlot({ kind: "weekly", days: [...days], startDate: firstDay, startTime: time, durationMinutes: minutes, endDate: null });
      if (!slot.ok) throw new Error(JSON.stringify(slot));
      await createSlot(show.id, slot.value);
    }
    // 3,000 sessions spread over the fortnight: lengths from 10 s to 3 h, 400 listeners.
    await db().$executeRawUnsafe(
      `INSERT INTO "ListeningSession" (source, "clientKey", "listenerHash", "startedAt", "endedAt", open, app, device, country)
       SELECT $2, 'gen-' || i, 'listener-' || (i * 7919 % 400),
              $1::timestamptz + (i * 104729 % 1209600) * interval '1 second',
              $1::timestamptz + (i * 104729 % 1209600) * interval '1 second' + (10 + (i * 31337 % 10800)) * interval '1 second',
              false, (ARRAY['Chrome','Safari','Firefox'])[1 + i % 3], (ARRAY['phone','desktop'])[1 + i % 2], (ARRAY['ID','MY',''])[1 + i % 3]
       FROM generate_series(1, 3000) AS i`,
      from,
      primarySource(),
    );
    expect(await runAudienceRollup({ sessionDays: 30, retentionDays: 730 })).toBe(true);
    const figures = await getAudienceFigures({ from, to }, { showIds: null });
    expect(figures.source).toBe(icecast ? "icecast" : "web");

    // The same figures straight from the raw sessions, by brute force.
    const [truth] = await db().$queryRawUnsafe<{ sessions: number; seconds: number; aqh: number; peak: number; uniques: number }[]>(
      `WITH s AS (SELECT * FROM "ListeningSession" WHERE "clientKey" LIKE 'gen-%' AND "endedAt" - "startedAt" >= interval '60 seconds'),
       q AS (SELECT generate_series($1::timestamptz, $2::timestamptz - interval '15 minutes', interval '15 minutes') AS q)
       SELECT
         (SELECT count(*) FROM s WHERE "startedAt" >= $1 AND "startedAt" < $2)::float8 AS sessions,
         (SELECT sum(GREATEST(0, extract(epoch FROM LEAST("endedAt", $2) - GREATEST("startedAt", $1)))) FROM s)::float8 AS seconds,
         (SELECT avg(n) FROM (SELECT q, (SELECT count(*) FROM s WHERE extract(epoch FROM LEAST("endedAt", q + interval '15 minutes') - GREATEST("startedAt", q)) >= 300) AS n FROM q) x)::float8 AS aqh,
         (SELECT max((SELECT count(*) FROM s WHERE s."startedAt" <= t AND s."endedAt" > t)) FROM
            (SELECT GREATEST("startedAt", $1) AS t FROM s WHERE "startedAt" < $2 AND "endedAt" > $1 UNION SELECT q FROM q) times)::int AS peak,
         (SELECT sum(n) FROM (SELECT count(DISTINCT "listenerHash") AS n FROM s WHERE "startedAt" >= $1 AND "startedAt" < $2
            GROUP BY ("startedAt" AT TIME ZONE 'UTC')::date) d)::float8 AS uniques`,
      from,
      to,
    );
    expect(figures.period.sessions).toBe(truth.sessions);
    expect(figures.period.tlhHours).toBeCloseTo(truth.seconds / 3600, 1);
    expect(figures.period.aqh).toBeCloseTo(truth.aqh, 2);
    expect(figures.period.peakConcurrent).toBe(truth.peak);
    expect(figures.period.uniques).toBe(truth.uniques);
    expect(figures.period.apps.map((row) => row.name).sort()).toEqual(["Chrome", "Firefox", "Safari"]);
    expect(figures.period.byHourOfWeek).toHaveLength(168);

    const airings = figures.shows.flatMap((show) => show.airings.map((airing) => ({ ...airing, show: show.name })));
    // Weekdays at 07:00 and three evenings a week, over two weeks (some fall at the edges of the period).
    expect(airings.length).toBeGreaterThanOrEqual(14);
    for (const airing of airings) {
      const [expected] = await db().$queryRawUnsafe<{ aqh: number; seconds: number }[]>(
        `WITH s AS (SELECT * FROM "ListeningSession" WHERE "clientKey" LIKE 'gen-%' AND "endedAt" - "startedAt" >= interval '60 seconds')
         SELECT
           (SELECT avg((SELECT count(*) FROM s WHERE extract(epoch FROM LEAST("endedAt", q + interval '15 minutes') - GREATEST("startedAt", q)) >= 300))
              FROM generate_series($1::timestamptz, $2::timestamptz - interval '15 minutes', interval '15 minutes') AS q)::float8 AS aqh,
           (SELECT COALESCE(sum(GREATEST(0, extract(epoch FROM LEAST("endedAt", $2) - GREATEST("startedAt", $1)))), 0) FROM s)::float8 AS seconds`,
        new Date(airing.start),
        new Date(airing.end),
      );
      // The figures are given to two decimals.
      expect(airing.aqh, `${airing.show} ${airing.start}`).toBe(Math.round(expected.aqh * 100) / 100);
      expect(airing.tlhHours, `${airing.show} ${airing.start}`).toBe(Math.round((expected.seconds / 3600) * 100) / 100);
    }
    // The screen shows them (in English here), with the same period in its links.
    const cookie = await adminCookie(server.url);
    const day = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(at);
    const page = await fetch(`${server.url}/audience-admin?from=${day(from)}&to=${day(new Date(to.getTime() - 1))}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Average quarter-hour audience (AQH)");
    expect(html).toContain("Pagi Kampus");
    expect(html).toContain(`/audience.csv?from=${day(from)}`);
    // Rolling again changes nothing: every hour is rolled once.
    const before = await db().audienceHour.count();
    await runAudienceRollup({ sessionDays: 30, retentionDays: 730 });
    expect(await db().audienceHour.count()).toBe(before);
    expect((await getAudienceFigures({ from, to }, { showIds: null })).period.sessions).toBe(truth.sessions);
  });
});

describe.runIf(icecastAvailable)("the live stream's listeners from a real Icecast", () => {
  it("shows N real listeners (curl with chosen user agents) on the screen within the poll interval, with their listening time", async () => {
    const agents = [
      "VLC/3.0.18 LibVLC/3.0.18",
      "Lavf/59.27.100",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
    ];
    const listeners: ChildProcess[] = agents.map((agent) => spawn("curl", ["-s", "-o", "/dev/null", "-A", agent, icecast!.streamUrl], { stdio: "ignore" }));
    try {
      const cookie = await adminCookie(server.url);
      const nowFigures = async () =>
        (
          (await (await fetch(`${server.url}/audience.json`, { headers: { Cookie: cookie } })).json()) as {
            now: { icecastListeners: number | null; icecastListeningSeconds: number };
          }
        ).now;
      // The station's own reader of the stream is one more client of Icecast's count, never a session.
      await expect.poll(async () => (await nowFigures()).icecastListeners, { timeout: 10_000, interval: 250 }).toBeGreaterThanOrEqual(agents.length);
      await expect.poll(() => db().listeningSession.count({ where: { source: "icecast", open: true } }), { timeout: 5_000, interval: 250 }).toBe(agents.length);
      const sessions = await db().listeningSession.findMany({ where: { source: "icecast", open: true }, orderBy: { app: "asc" } });
      expect(sessions.map((row) => row.app)).toEqual(["FFmpeg", "Safari", "VLC"]);
      expect(sessions.find((row) => row.app === "Safari")?.device).toBe("phone");
      // Their listening time follows the clock within a few seconds.
      const startedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const listened = (await nowFigures()).icecastListeningSeconds;
      const elapsed = (Date.now() - startedAt) / 1000;
      expect(listened).toBeGreaterThanOrEqual(agents.length * (elapsed - 3));
      const html = await (await fetch(`${server.url}/audience-admin`, { headers: { Cookie: cookie } })).text();
      expect(html).toMatch(/Listeners on Icecast<\/dt><dd>[3-9]<\/dd>/);
      // One listener hangs up: its session ends at the next poll.
      listeners[0].kill();
      await expect
        .poll(() => db().listeningSession.count({ where: { source: "icecast", open: true } }), { timeout: 5_000, interval: 250 })
        .toBe(agents.length - 1);
    } finally {
      for (const listener of listeners) listener.kill();
    }
  });
});
