// The programme's scale figures (README "Benchmark"): /schedule with 50 shows whose weekly
// rules cover a year, and /history paging through 1,000,000 stored songs. They need rows the
// seeded bench server does not have, so they run against a second server in this process, on
// its own database: BENCH_DATABASE_URL (a real PostgreSQL) or a throw-away embedded one.
import fsp from "node:fs/promises";
import { createSlot, expandAirings, listAirings, readProgramme, validateSlot, WEEKDAYS } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { listSongHistory } from "~/models/song-history.server";
import { loadConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { startPostgresCluster } from "~/services/embedded-postgres.server";
import { makeTempDir } from "./processes";
import { percentile } from "./realtime";
import { figure, formatNumber, heading } from "./report";
import { ms, timed } from "./timing";

const SHOWS = 50;
const SONGS = 1_000_000;
const SAMPLES = 30;
const sampled = (run: () => Promise<unknown>) => timed(run, SAMPLES);

async function get(url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  await response.arrayBuffer();
}

export async function benchProgramme(log: (line: string) => void): Promise<void> {
  const dataDir = await makeTempDir("spin-bench-programme-");
  const embedded = process.env.BENCH_DATABASE_URL
    ? null
    : await startPostgresCluster({ dir: `${dataDir}/postgres`, passwordFile: `${dataDir}/postgres-password`, database: "programme" });
  const config = loadConfig({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? embedded!.url,
    ADMIN_PIN: "135790",
    PUBLIC_PIN: "bench",
    SEED_CONTENT: "false",
    STATION_TIMEZONE: "Europe/Amsterdam",
    LOG_LEVEL: "warn",
  });
  // React loads its development build (several times slower to render) unless NODE_ENV is
  // "production" when the server's build is first imported; the station always runs with it.
  process.env.NODE_ENV = "production";
  const { startServer } = await import("../../server/app");
  const server = await startServer(config);
  try {
    log(`programme: ${SHOWS} shows with weekly slots for a year`);
    const year = new Date().getUTCFullYear();
    // Each show gets one hour on two days a week, all within one year: 50 × 2 × 52 airings.
    for (let i = 0; i < SHOWS; i++) {
      const show = await createShow({
        name: `Bench Show ${i + 1}`,
        slug: `bench-show-${i + 1}`,
        description: "A show for the benchmark.",
        colour: "#336699",
        hostIds: [],
      });
      const hour = i % 24;
      const days = [WEEKDAYS[Math.floor(i / 24) * 2], WEEKDAYS[Math.floor(i / 24) * 2 + 1]];
      const check = validateSlot({
        kind: "weekly",
        days,
        startDate: `${year}-01-01`,
        startTime: `${String(hour).padStart(2, "0")}:00`,
        durationMinutes: 60,
        endDate: `${year}-12-31`,
      });
      if (!check.ok) throw new Error(check.message);
      await createSlot(show.id, check.value);
    }
    heading(`Programme: ${SHOWS} shows, a year of weekly airings`);
    const yearFrom = new Date(Date.UTC(year, 0, 1));
    const yearTo = new Date(Date.UTC(year + 1, 0, 1));
    let count = 0;
    // The first expansion runs rrule; later ones reuse its expanded weeks until a slot changes.
    const coldStarted = performance.now();
    await listAirings(yearFrom, yearTo);
    figure("expand a year, first time (cold rrule)", ms(performance.now() - coldStarted));
    const shows = await readProgramme();
    const expansion = await sampled(async () => {
      count = expandAirings(shows, yearFrom, yearTo, config.stationTimezone).length;
    });
    figure(`expand a year again (${formatNumber(count)} airings), CPU`, ms(expansion.cpuMs), { text: "< 50 ms", met: expansion.cpuMs < 50 });
    figure("expand a year again, wall p50", ms(percentile(expansion, 50)));
    const schedule = await sampled(() => get(`${server.url}/schedule`));
    // Server and client share this process, so the CPU figure is an upper bound of the server's.
    figure("/schedule server CPU per request (≤)", ms(schedule.cpuMs), { text: "< 50 ms", met: schedule.cpuMs < 50 });
    figure("/schedule loopback GET, wall p50", ms(percentile(schedule, 50)));
    figure("/schedule loopback GET, wall p95", ms(percentile(schedule, 95)));

    log(`song history: inserting ${formatNumber(SONGS)} songs`);
    const started = performance.now();
    await db().$executeRawUnsafe(
      `INSERT INTO "SongPlay" ("playedAt", raw, artist, title, "showName")
       SELECT now() - (n * interval '30 seconds'), 'Artist ' || (n % 997) || ' - Song ' || n, 'Artist ' || (n % 997), 'Song ' || n, ''
       FROM generate_series(1, ${SONGS}) AS n`,
    );
    await db().$executeRawUnsafe(`ANALYZE "SongPlay"`);
    log(`inserted in ${formatNumber((performance.now() - started) / 1000, 1)} s`);
    heading(`Song history: ${formatNumber(SONGS)} songs`);
    // A cursor 900,000 songs deep: keyset paging costs what the first page costs.
    const deepAt = new Date(Date.now() - 900_000 * 30_000);
    const deep = await listSongHistory({ at: deepAt });
    const cursor = deep.nextCursor!;
    const firstQuery = await sampled(() => listSongHistory({}));
    figure("history query, first page (50 songs), p50", ms(percentile(firstQuery, 50)), { text: "< 20 ms", met: percentile(firstQuery, 50) < 20 });
    const deepQuery = await sampled(() => listSongHistory({ cursor: { playedAt: new Date(Number(cursor.split(".")[0])), id: BigInt(cursor.split(".")[1]) } }));
    figure("history query, page 18,000 (keyset), p50", ms(percentile(deepQuery, 50)), { text: "< 20 ms", met: percentile(deepQuery, 50) < 20 });
    const first = await sampled(() => get(`${server.url}/history`));
    figure("/history first page (loopback GET), p50", ms(percentile(first, 50)), { text: "< 100 ms", met: percentile(first, 50) < 100 });
    const deepPage = await sampled(() => get(`${server.url}/history?before=${encodeURIComponent(cursor)}`));
    figure("/history page 18,000 (loopback GET), p50", ms(percentile(deepPage, 50)), { text: "< 100 ms", met: percentile(deepPage, 50) < 100 });
    const jump = await sampled(() => get(`${server.url}/history?at=${encodeURIComponent(new Date(deepAt.getTime() + 3_600_000).toISOString().slice(0, 16))}`));
    figure("/history jump to a time (loopback GET), p50", ms(percentile(jump, 50)), { text: "< 100 ms", met: percentile(jump, 50) < 100 });
    const json = await sampled(() => get(`${server.url}/history.json?from=${new Date(Date.now() - 86_400_000).toISOString()}`));
    figure("/history.json one day (1,000 songs), p50", ms(percentile(json, 50)));
    const plan = (
      await db().$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN SELECT id FROM "SongPlay" WHERE "playedAt" <= $1 ORDER BY "playedAt" DESC, id DESC LIMIT 51`,
        deepAt,
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join(" ");
    figure("/history paging uses the (playedAt, id) index", /Index (Only )?Scan/.test(plan) ? "yes" : plan.slice(0, 60), {
      text: "index scan",
      met: /Index (Only )?Scan/.test(plan),
    });
  } finally {
    await server.close();
    await embedded?.stop();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}
