// The audience figures at scale (README "Benchmark", issue 32): a year of generated listening
// sessions rolled up, then the Audience screen's answer time for the whole year and for its
// default week, as an admin over HTTP. Like the programme figures it runs a second server in this
// process on its own database: BENCH_DATABASE_URL (a real, empty PostgreSQL) or a throw-away
// embedded one.
import fsp from "node:fs/promises";
import { runAudienceRollup } from "~/models/audience-rollup.server";
import { createSlot, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { loadConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { startPostgresCluster } from "~/services/embedded-postgres.server";
import { adminCookie } from "./admin";
import { makeTempDir } from "./processes";
import { percentile } from "./realtime";
import { figure, formatNumber, heading } from "./report";
import { ms, timed } from "./timing";

const DAY_MS = 24 * 3600_000;
const DAYS = 365;
const SAMPLES = 10;
const sampled = (run: () => Promise<unknown>) => timed(run, SAMPLES);
const ADMIN_PIN = "135790";
const TIME_ZONE = "Europe/Amsterdam";
// Raw sessions are kept for the whole year here (the default keeps 30 days): the worst case for
// the figures that read them (listeners at each song's start and end).
const RETENTION = { sessionDays: 400, retentionDays: 730 };

function sessionsPerDay(): number {
  const raw = process.env.BENCH_AUDIENCE_SESSIONS_PER_DAY;
  const value = raw ? Number(raw) : 2_000;
  if (!Number.isInteger(value) || value < 1) throw new Error(`BENCH_AUDIENCE_SESSIONS_PER_DAY must be a whole number above 0 (got "${raw}")`);
  return value;
}

function stationDay(at: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

export async function benchAudience(log: (line: string) => void): Promise<void> {
  const perDay = sessionsPerDay();
  const dataDir = await makeTempDir("spin-bench-audience-");
  const embedded = process.env.BENCH_DATABASE_URL
    ? null
    : await startPostgresCluster({ dir: `${dataDir}/postgres`, passwordFile: `${dataDir}/postgres-password`, database: "audience" });
  const config = loadConfig({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? embedded!.url,
    ADMIN_PIN,
    PUBLIC_PIN: "bench",
    SEED_CONTENT: "false",
    STATION_TIMEZONE: TIME_ZONE,
    AUDIENCE_SESSION_DAYS: String(RETENTION.sessionDays),
    AUDIENCE_RETENTION_DAYS: String(RETENTION.retentionDays),
    LOG_LEVEL: "warn",
  });
  // React's production build, as the station runs it (see programme.ts).
  process.env.NODE_ENV = "production";
  const { startServer } = await import("../../server/app");
  const server = await startServer(config);
  try {
    const now = new Date();
    // Whole hours, ending a few hours ago: every hour of the year is settled and rolled.
    const end = new Date(Math.floor(now.getTime() / 3600_000) * 3600_000 - 3 * 3600_000);
    const start = new Date(end.getTime() - DAYS * DAY_MS);
    const total = perDay * DAYS;
    log(`audience: 6 shows with weekly slots for the past year, ${formatNumber(total)} listening sessions (${formatNumber(perDay)} a day)`);
    const firstDay = stationDay(start);
    const slots: [string, string[], string, number][] = [
      ["Breakfast", ["MO", "TU", "WE", "TH", "FR"], "07:00", 180],
      ["Lunch Mix", ["MO", "TU", "WE", "TH", "FR"], "12:00", 60],
      ["Drive Time", ["MO", "TU", "WE", "TH", "FR"], "17:00", 120],
      ["Weekend Beats", ["SA", "SU"], "10:00", 240],
      ["Night Owls", ["FR", "SA"], "22:00", 120],
      ["Sunday Talk", ["SU"], "19:00", 90],
    ];
    for (const [name, days, time, minutes] of slots) {
      const show = await createShow({
        name,
        slug: name.toLowerCase().replace(/ /g, "-"),
        description: "A show for the benchmark.",
        colour: "#336699",
        hostIds: [],
      });
      const slot = validateSlot({ kind: "weekly", days, startDate: firstDay, startTime: time, durationMinutes: minutes, endDate: null });
      if (!slot.ok) throw new Error(slot.message);
      await createSlot(show.id, slot.value);
    }
    let started = performance.now();
    // Starts spread evenly over the year (104729 is prime to the year's seconds), lengths from 10 s
    // to 3 h, 250,000 listeners (one in 50 with Do Not Track: no hash), 8 apps, 3 devices, 12 countries.
    await db().$executeRawUnsafe(
      `INSERT INTO "ListeningSession" (source, "clientKey", "listenerHash", "startedAt", "endedAt", open, app, device, country)
       SELECT 'web', 'bench-' || i, CASE WHEN i % 50 = 0 THEN NULL ELSE 'listener-' || (i * 7919 % 250000) END,
              $1::timestamptz + (i * 104729 % $3) * interval '1 second',
              $1::timestamptz + (i * 104729 % $3) * interval '1 second' + (10 + (i * 31337 % 10791)) * interval '1 second',
              false,
              (ARRAY['Chrome','Safari','Firefox','VLC','Apple Podcasts','Spotify','Edge','Samsung Internet'])[1 + i % 8],
              (ARRAY['phone','desktop','tablet'])[1 + i % 3],
              (ARRAY['ID','MY','SG','NL','DE','US','GB','AU','JP','IN','BR',''])[1 + i % 12]
       FROM generate_series(1::bigint, $2::bigint) AS i`,
      start,
      total,
      DAYS * 86_400,
    );
    // A song every four minutes of the year: the screen lists the listeners at the last ones' start and end.
    await db().$executeRawUnsafe(
      `INSERT INTO "SongPlay" ("playedAt", raw, artist, title, "showName")
       SELECT $1::timestamptz + n * interval '4 minutes', 'Artist ' || (n % 997) || ' - Song ' || n, 'Artist ' || (n % 997), 'Song ' || n, ''
       FROM generate_series(0, $2::int - 1) AS n`,
      start,
      (DAYS * DAY_MS) / 240_000,
    );
    await db().$executeRawUnsafe(`ANALYZE "ListeningSession"`);
    await db().$executeRawUnsafe(`ANALYZE "SongPlay"`);
    log(`inserted in ${formatNumber((performance.now() - started) / 1000, 1)} s`);

    heading(`Audience: a year of generated sessions (${formatNumber(total)}, ${formatNumber(perDay)} a day)`);
    started = performance.now();
    // The server's own roll-up job may take a round meanwhile (one instance per round): wait it out.
    while (!(await runAudienceRollup(RETENTION, now))) await new Promise((resolve) => setTimeout(resolve, 200));
    figure("roll-up of the year's backlog", `${formatNumber((performance.now() - started) / 1000, 1)} s`);
    const hours = await db().audienceHour.count();
    figure("hours rolled", formatNumber(hours), { text: `≥ ${formatNumber(DAYS * 24)}`, met: hours >= DAYS * 24 });

    const cookie = await adminCookie(server.url, ADMIN_PIN);
    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
      return response.text();
    };
    const yearPath = `/audience-admin?from=${stationDay(start)}&to=${stationDay(new Date(end.getTime() - 1))}`;
    if (!(await get(yearPath)).includes("Breakfast")) throw new Error(`${yearPath} does not show the shows' figures`);
    const year = await sampled(() => get(yearPath));
    figure("/audience-admin a year, wall p50", ms(percentile(year, 50)), { text: "< 500 ms", met: percentile(year, 50) < 500 });
    figure("/audience-admin a year, wall p95", ms(percentile(year, 95)));
    // Server and client share this process, so this is an upper bound of the server's (PostgreSQL's is not in it).
    figure("/audience-admin a year, Node CPU per request (≤)", ms(year.cpuMs));
    const week = await sampled(() => get("/audience-admin"));
    figure("/audience-admin default week, wall p50", ms(percentile(week, 50)), { text: "< 500 ms", met: percentile(week, 50) < 500 });
    figure("/audience-admin default week, wall p95", ms(percentile(week, 95)));
    figure("/audience-admin default week, Node CPU (≤)", ms(week.cpuMs));
  } finally {
    await server.close();
    await embedded?.stop();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}
