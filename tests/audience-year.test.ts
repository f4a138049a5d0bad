import { getAudienceFigures, primarySource } from "~/models/audience-figures.server";
import { runAudienceRollup } from "~/models/audience-rollup.server";
import { createSlot, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { db } from "~/services/db.server";
import { adminCookie } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

/**
 * A generated year of listening sessions (issue 32): rolled up, the figures of the whole year, per
 * period and per show, must equal those computed here straight from the raw sessions in SQL.
 * (`npm run bench` measures the same screen over a year of 2,000 sessions a day.)
 */
const DAY = 24 * 3600_000;
const PER_DAY = 150;
const DAYS = 365;
// Raw sessions kept for the whole year, so the brute force below can read them all.
const RETENTION = { sessionDays: 400, retentionDays: 730 };
// The generated sessions last 10 s to 3 h: a session overlapping an instant started at most this
// long before it, which lets each brute-force count read a few sessions by start instead of all.
const LONGEST = "interval '3 hours 1 minute'";
const GENERATED = `"clientKey" LIKE 'year-%' AND "endedAt" - "startedAt" >= interval '60 seconds'`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    STATION_TIMEZONE: "Asia/Jakarta",
    REWIND_HOURS: "0",
    AUDIENCE_SESSION_DAYS: String(RETENTION.sessionDays),
    AUDIENCE_RETENTION_DAYS: String(RETENTION.retentionDays),
  });
});
afterAll(async () => {
  await server?.stop();
});

const hundredths = (value: number) => Math.round(value * 100) / 100;

describe("audience figures from a generated year of sessions", () => {
  it("match an independent computation in SQL, for the whole year and for each airing of each show", async () => {
    // Whole UTC days that end two days ago: all settled.
    const to = new Date(Math.floor(Date.now() / DAY) * DAY - 2 * DAY);
    const from = new Date(to.getTime() - DAYS * DAY);
    const firstDay = new Date(from.getTime() + 7 * 3600_000).toISOString().slice(0, 10);
    const morning = await createShow({ name: "Pagi Setahun", slug: "pagi-setahun", description: "", colour: "#e11d48", hostIds: [] });
    const night = await createShow({ name: "Malam Setahun", slug: "malam-setahun", description: "", colour: "#2563eb", hostIds: [] });
    for (const [show, time, minutes, days] of [
      [morning, "07:00", 120, ["MO", "WE", "FR"]],
      [night, "20:30", 90, ["SA", "SU"]],
    ] as const) {
      const slot = validateSlot({ kind: "weekly", days: [...days], startDate: firstDay, startTime: time, durationMinutes: minutes, endDate: null });
      if (!slot.ok) throw new Error(JSON.stringify(slot));
      await createSlot(show.id, slot.value);
    }
    // 150 sessions a day, their starts spread evenly over the year (104729 is prime to its
    // seconds), lengths from 10 s to 3 h, 5,000 listeners, three apps, two devices, three countries.
    await db().$executeRawUnsafe(
      `INSERT INTO "ListeningSession" (source, "clientKey", "listenerHash", "startedAt", "endedAt", open, app, device, country)
       SELECT $2, 'year-' || i, 'listener-' || (i * 7919 % 5000),
              $1::timestamptz + (i * 104729 % $4) * interval '1 second',
              $1::timestamptz + (i * 104729 % $4) * interval '1 second' + (10 + (i * 31337 % 10791)) * interval '1 second',
              false, (ARRAY['Chrome','Safari','Firefox'])[1 + i % 3], (ARRAY['phone','desktop'])[1 + i % 2], (ARRAY['ID','MY',''])[1 + i % 3]
       FROM generate_series(1::bigint, $3::bigint) AS i`,
      from,
      primarySource(),
      PER_DAY * DAYS,
      DAYS * 86_400,
    );
    await db().$executeRawUnsafe(`ANALYZE "ListeningSession"`);
    // The server's own job may hold the roll-up's lock for a round: then this one waits its turn.
    while (!(await runAudienceRollup(RETENTION))) await new Promise((resolve) => setTimeout(resolve, 200));
    const figures = await getAudienceFigures({ from, to }, { showIds: null });
    expect(figures.source).toBe("web");

    // The same figures straight from the raw sessions, by brute force.
    const [truth] = await db().$queryRawUnsafe<{ sessions: number; seconds: number; aqh: number; peak: number; uniques: number }[]>(
      `WITH q AS (SELECT generate_series($1::timestamptz, $2::timestamptz - interval '15 minutes', interval '15 minutes') AS q)
       SELECT
         (SELECT count(*) FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" >= $1 AND "startedAt" < $2)::float8 AS sessions,
         (SELECT sum(GREATEST(0, extract(epoch FROM LEAST("endedAt", $2) - GREATEST("startedAt", $1)))) FROM "ListeningSession" WHERE ${GENERATED})::float8 AS seconds,
         (SELECT avg((SELECT count(*) FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" > q - ${LONGEST} AND "startedAt" < q + interval '15 minutes'
            AND extract(epoch FROM LEAST("endedAt", q + interval '15 minutes') - GREATEST("startedAt", q)) >= 300)) FROM q)::float8 AS aqh,
         (SELECT max((SELECT count(*) FROM "ListeningSession" s WHERE ${GENERATED} AND s."startedAt" > t - ${LONGEST} AND s."startedAt" <= t AND s."endedAt" > t))
            FROM (SELECT GREATEST("startedAt", $1) AS t FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" < $2 AND "endedAt" > $1
                  UNION SELECT q FROM q) times)::int AS peak,
         (SELECT sum(n) FROM (SELECT count(DISTINCT "listenerHash") AS n FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" >= $1 AND "startedAt" < $2
            GROUP BY ("startedAt" AT TIME ZONE 'UTC')::date) d)::float8 AS uniques`,
      from,
      to,
    );
    expect(truth.sessions).toBeGreaterThan(PER_DAY * DAYS * 0.9);
    expect(figures.period.sessions).toBe(truth.sessions);
    expect(figures.period.tlhHours).toBe(hundredths(truth.seconds / 3600));
    expect(figures.period.atslMinutes).toBe(hundredths(truth.seconds / truth.sessions / 60));
    expect(figures.period.aqh).toBe(hundredths(truth.aqh));
    expect(figures.period.peakConcurrent).toBe(truth.peak);
    expect(figures.period.uniques).toBe(truth.uniques);
    // Sessions (by the day they started) and hours listened in the year, per app.
    const apps = await db().$queryRawUnsafe<{ name: string; sessions: number; seconds: number }[]>(
      `SELECT app AS name, count(*) FILTER (WHERE "startedAt" >= $1)::float8 AS sessions,
              sum(extract(epoch FROM LEAST("endedAt", $2) - GREATEST("startedAt", $1)))::float8 AS seconds
       FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" < $2 AND "endedAt" > $1 GROUP BY app ORDER BY app`,
      from,
      to,
    );
    expect([...figures.period.apps].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      apps.map((row) => ({ name: row.name, sessions: row.sessions, tlhHours: hundredths(row.seconds / 3600) })),
    );

    // Each airing of each show: its AQH (the mean over its quarter-hours of the listeners with at
    // least 5 minutes in one) and its hours listened.
    const airings = figures.shows.flatMap((show) => show.airings.map((airing) => ({ ...airing, show: show.name })));
    // Three mornings and two evenings a week for 52 weeks (a few fall at the edges of the year).
    expect(airings.length).toBeGreaterThanOrEqual(5 * 52 - 2);
    const expected = await db().$queryRawUnsafe<{ aqh: number; seconds: number }[]>(
      `WITH a AS (SELECT * FROM unnest($1::timestamptz[], $2::timestamptz[]) WITH ORDINALITY AS a(start, "end", n))
       SELECT
         (SELECT avg((SELECT count(*) FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" > q - ${LONGEST} AND "startedAt" < q + interval '15 minutes'
            AND extract(epoch FROM LEAST("endedAt", q + interval '15 minutes') - GREATEST("startedAt", q)) >= 300))
          FROM generate_series(a.start, a."end" - interval '15 minutes', interval '15 minutes') AS q)::float8 AS aqh,
         (SELECT COALESCE(sum(extract(epoch FROM LEAST("endedAt", a."end") - GREATEST("startedAt", a.start))), 0) FROM "ListeningSession"
          WHERE ${GENERATED} AND "startedAt" > a.start - ${LONGEST} AND "startedAt" < a."end" AND "endedAt" > a.start)::float8 AS seconds
       FROM a ORDER BY n`,
      airings.map((airing) => new Date(airing.start)),
      airings.map((airing) => new Date(airing.end)),
    );
    expect(airings.map((airing) => ({ airing: `${airing.show} ${airing.start}`, aqh: airing.aqh, tlhHours: airing.tlhHours }))).toEqual(
      airings.map((airing, i) => ({
        airing: `${airing.show} ${airing.start}`,
        aqh: hundredths(expected[i].aqh),
        tlhHours: hundredths(expected[i].seconds / 3600),
      })),
    );
    // Each show's weeks add up its airings' hours.
    for (const show of figures.shows) {
      const weekly = show.weeks.reduce((sum, week) => sum + week.tlhHours, 0);
      const aired = show.airings.reduce((sum, airing) => sum + airing.tlhHours, 0);
      expect(weekly, show.name).toBeCloseTo(aired, 0);
    }

    // Listeners at the start and end of the last 50 songs of the year (60 songs, four minutes apart).
    await db().$executeRawUnsafe(
      `INSERT INTO "SongPlay" ("playedAt", raw, artist, title, "showName")
       SELECT $1::timestamptz - n * interval '4 minutes', 'Artist - Song ' || n, 'Artist', 'Song ' || n, '' FROM generate_series(1, 60) AS n`,
      to,
    );
    const { songs } = await getAudienceFigures({ from, to }, { showIds: null });
    const heard = await db().$queryRawUnsafe<{ at: Date; atStart: number; atEnd: number }[]>(
      `WITH songs AS (
         SELECT "playedAt", COALESCE(lead("playedAt") OVER (ORDER BY "playedAt"), now()) - interval '1 millisecond' AS "endAt" FROM "SongPlay"
       )
       SELECT "playedAt" AS at,
         (SELECT count(*) FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" <= "playedAt" AND "endedAt" > "playedAt")::int AS "atStart",
         (SELECT count(*) FROM "ListeningSession" WHERE ${GENERATED} AND "startedAt" <= "endAt" AND "endedAt" > "endAt")::int AS "atEnd"
       FROM songs WHERE "playedAt" >= $1 AND "playedAt" < $2 ORDER BY "playedAt" DESC LIMIT 50`,
      from,
      to,
    );
    expect(songs.map((song) => [song.at, song.listenersAtStart, song.listenersAtEnd])).toEqual(
      heard.map((row) => [row.at.toISOString(), row.atStart, row.atEnd]),
    );
    expect(heard.some((row) => row.atStart > 0)).toBe(true);

    // The screen answers for the whole year.
    const cookie = await adminCookie(server.url);
    const day = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(at);
    const page = await fetch(`${server.url}/audience-admin?from=${day(from)}&to=${day(new Date(to.getTime() - 1))}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Pagi Setahun");
    expect(html).toContain("Malam Setahun");
  });
});
