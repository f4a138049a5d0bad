import { getConfig } from "~/services/config.server";
import { fromDateTimeLocal } from "~/utils/time-zone";
import { db } from "~/services/db.server";
import { MIN_SESSION_SECONDS } from "./audience-rollup.server";
import { STALE_AFTER_MS, type SessionSource } from "./listening-sessions.server";
import { listAirings } from "./schedule.server";
import { showScope } from "./staff.server";
import type { StaffRole } from "~/utils/staff-roles";

/**
 * The figures of the Audience screen, `/audience.json` and `/audience.csv`, all aggregated in
 * PostgreSQL. Period figures read the roll-up (audience-rollup.server.ts) up to its last rolled
 * hour; "now" reads the open sessions and Icecast's last counts.
 *
 * The stream's audience is read from one source: Icecast's client list when the station gave its
 * admin password (every listener, the web player's included), else the web player's sessions.
 */
export interface AudienceScope {
  /** The shows whose figures may be shown; null: every show and the station-wide figures. */
  showIds: string[] | null;
}

/**
 * What one staff member may see: managers and producers every figure, a Host only the figures of
 * the shows they host (their airings, songs and episodes; not the station-wide ones).
 */
export async function audienceScopeFor(actor: { role: StaffRole; userId?: string | null }): Promise<AudienceScope> {
  return { showIds: await showScope(actor) };
}

const QUARTER_MS = 15 * 60_000;
// Songs and episodes listed at most.
const SONGS_LISTED = 50;
const EPISODES_LISTED = 100;
// Episodes fetched by someone within this long count as being played now.
const NOW_WINDOW_MS = 15 * 60_000;

export function primarySource(): SessionSource {
  return getConfig().icecastAdminPassword ? "icecast" : "web";
}

export interface AudienceFigures {
  from: string;
  to: string;
  /** Period figures cover hours up to here (the roll-up's last hour); null before the first roll-up. */
  measuredUntil: string | null;
  source: SessionSource;
  now: {
    icecastListeners: number | null;
    webPlayerListeners: number;
    /** Listening time so far of the sessions open now, per source (seconds). */
    icecastListeningSeconds: number;
    webPlayerListeningSeconds: number;
    topEpisodes: { episodeId: number; title: string; listeners: number }[];
  };
  period: {
    sessions: number;
    uniques: number;
    tlhHours: number;
    atslMinutes: number;
    aqh: number;
    peakConcurrent: number;
    /** Average listeners per hour of the week (station time), weekday 0 = Sunday. */
    byHourOfWeek: { weekday: number; hour: number; listeners: number }[];
    apps: Breakdown[];
    devices: Breakdown[];
    countries: Breakdown[];
  };
  shows: {
    showId: string;
    name: string;
    airings: { start: string; end: string; aqh: number; tlhHours: number }[];
    weeks: { week: string; aqh: number; tlhHours: number }[];
    downloads: number;
  }[];
  songs: { at: string; artist: string; title: string; show: string; listenersAtStart: number; listenersAtEnd: number }[];
  episodes: {
    episodeId: number;
    title: string;
    publishedAt: string;
    downloads7Days: number;
    downloads30Days: number;
    downloads90Days: number;
    downloadsInPeriod: number;
    webPlaysInPeriod: number;
  }[];
}

export interface Breakdown {
  name: string;
  sessions: number;
  tlhHours: number;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function getAudienceFigures(range: { from: Date; to: Date }, scope: AudienceScope, now = new Date()): Promise<AudienceFigures> {
  const source = primarySource();
  const [{ until }] = await db().$queryRawUnsafe<{ until: Date | null }[]>(`SELECT max(hour) + interval '1 hour' AS until FROM "AudienceRollup"`);
  const measuredEnd = until && until < range.to ? until : range.to;
  const [nowFigures, period, shows, songs, episodes] = await Promise.all([
    scope.showIds === null ? nowAudience(now) : emptyNow(),
    scope.showIds === null ? periodFigures(source, range.from, measuredEnd) : emptyPeriod(),
    showFigures(source, range.from, range.to, measuredEnd, scope),
    songFigures(source, range.from, range.to, scope),
    episodeFigures(range.from, range.to, scope),
  ]);
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    measuredUntil: until ? until.toISOString() : null,
    source,
    now: nowFigures,
    period,
    shows,
    songs,
    episodes,
  };
}

function emptyPeriod(): AudienceFigures["period"] {
  return { sessions: 0, uniques: 0, tlhHours: 0, atslMinutes: 0, aqh: 0, peakConcurrent: 0, byHourOfWeek: [], apps: [], devices: [], countries: [] };
}

function emptyNow(): AudienceFigures["now"] {
  return { icecastListeners: null, webPlayerListeners: 0, icecastListeningSeconds: 0, webPlayerListeningSeconds: 0, topEpisodes: [] };
}

async function nowAudience(now: Date): Promise<AudienceFigures["now"]> {
  const seen = new Date(now.getTime() - STALE_AFTER_MS);
  const [open, samples, top] = await Promise.all([
    db().$queryRawUnsafe<{ source: string; listeners: number; seconds: number }[]>(
      `SELECT source, count(*)::int AS listeners, COALESCE(sum(extract(epoch FROM "endedAt" - "startedAt")), 0)::float8 AS seconds
       FROM "ListeningSession" WHERE open AND "endedAt" >= $1 GROUP BY source`,
      seen,
    ),
    // Icecast's last count per mount, when it is recent.
    db().$queryRawUnsafe<{ listeners: number | null }[]>(
      `SELECT sum(listeners)::int AS listeners FROM (
         SELECT DISTINCT ON (mount) listeners FROM "StreamListenerSample" WHERE at >= $1 ORDER BY mount, at DESC) latest`,
      seen,
    ),
    db().$queryRawUnsafe<{ episodeId: number; title: string; listeners: number }[]>(
      `SELECT p."episodeId", e.title, count(*)::int AS listeners FROM "PodcastDownloadProgress" p
       JOIN "PodcastEpisode" e ON e.id = p."episodeId" WHERE p."lastAt" >= $1
       GROUP BY p."episodeId", e.title ORDER BY listeners DESC, p."episodeId" LIMIT 10`,
      new Date(now.getTime() - NOW_WINDOW_MS),
    ),
  ]);
  const bySource = (name: string) => open.find((row) => row.source === name);
  return {
    icecastListeners: samples[0]?.listeners ?? null,
    webPlayerListeners: bySource("web")?.listeners ?? 0,
    icecastListeningSeconds: Math.round(bySource("icecast")?.seconds ?? 0),
    webPlayerListeningSeconds: Math.round(bySource("web")?.seconds ?? 0),
    topEpisodes: top,
  };
}

async function periodFigures(source: SessionSource, from: Date, to: Date): Promise<AudienceFigures["period"]> {
  if (to <= from) return emptyPeriod();
  const timeZone = getConfig().stationTimezone;
  const [[totals], [quarters], [days], hours, breakdown] = await Promise.all([
    db().$queryRawUnsafe<{ sessions: number; seconds: number }[]>(
      `SELECT COALESCE(sum(sessions), 0)::float8 AS sessions, COALESCE(sum("listenSeconds"), 0)::float8 AS seconds
       FROM "AudienceHour" WHERE source = $1 AND hour >= $2 AND hour < $3`,
      source,
      from,
      to,
    ),
    db().$queryRawUnsafe<{ listeners: number; peak: number }[]>(
      `SELECT COALESCE(sum(listeners), 0)::float8 AS listeners, COALESCE(max(peak), 0)::int AS peak
       FROM "AudienceQuarter" WHERE source = $1 AND quarter >= $2 AND quarter < $3`,
      source,
      from,
      to,
    ),
    db().$queryRawUnsafe<{ uniques: number }[]>(
      `SELECT COALESCE(sum(uniques), 0)::float8 AS uniques FROM "AudienceDay"
       WHERE source = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date`,
      source,
      from,
      to,
    ),
    // Average listeners in each hour of the week: seconds listened in it over the hours of that kind in the period.
    db().$queryRawUnsafe<{ weekday: number; hour: number; listeners: number }[]>(
      `WITH slots AS (
         SELECT extract(dow FROM h AT TIME ZONE $4)::int AS weekday, extract(hour FROM h AT TIME ZONE $4)::int AS hour, count(*) AS n
         FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 hour', interval '1 hour') AS h GROUP BY 1, 2
       ), heard AS (
         SELECT extract(dow FROM hour AT TIME ZONE $4)::int AS weekday, extract(hour FROM hour AT TIME ZONE $4)::int AS hour, sum("listenSeconds") AS secs
         FROM "AudienceHour" WHERE source = $1 AND hour >= $2 AND hour < $3 GROUP BY 1, 2
       )
       SELECT slots.weekday, slots.hour, (COALESCE(heard.secs, 0) / 3600.0 / slots.n)::float8 AS listeners
       FROM slots LEFT JOIN heard USING (weekday, hour) ORDER BY 1, 2`,
      source,
      from,
      to,
      timeZone,
    ),
    db().$queryRawUnsafe<{ dimension: string; value: string; sessions: number; seconds: number }[]>(
      `SELECT dimension, value, sum(sessions)::float8 AS sessions, sum("listenSeconds")::float8 AS seconds FROM "AudienceBreakdown"
       WHERE source = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date
       GROUP BY dimension, value ORDER BY seconds DESC, value`,
      source,
      from,
      to,
    ),
  ]);
  const quarterCount = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / QUARTER_MS));
  const of = (dimension: string) =>
    breakdown.filter((row) => row.dimension === dimension).map((row) => ({ name: row.value, sessions: row.sessions, tlhHours: round(row.seconds / 3600) }));
  return {
    sessions: totals.sessions,
    uniques: days.uniques,
    tlhHours: round(totals.seconds / 3600),
    atslMinutes: totals.sessions > 0 ? round(totals.seconds / totals.sessions / 60) : 0,
    aqh: round(quarters.listeners / quarterCount),
    peakConcurrent: quarters.peak,
    byHourOfWeek: hours.map((row) => ({ ...row, listeners: round(row.listeners) })),
    apps: of("app"),
    devices: of("device"),
    countries: of("country"),
  };
}

async function showFigures(source: SessionSource, from: Date, to: Date, measuredEnd: Date, scope: AudienceScope): Promise<AudienceFigures["shows"]> {
  const timeZone = getConfig().stationTimezone;
  const airings = (await listAirings(from, to)).filter(
    (airing) => airing.start >= from && airing.end <= measuredEnd && (scope.showIds === null || scope.showIds.includes(airing.showId)),
  );
  const shows = await db().show.findMany({
    where: scope.showIds === null ? {} : { id: { in: scope.showIds } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const [perAiring, downloads] = await Promise.all([
    // One index range scan of the quarters per airing: a year has about a thousand airings, and a
    // join on the range alone compared each airing with every quarter of the year.
    db().$queryRawUnsafe<{ showId: string; start: Date; end: Date; listeners: number; seconds: number; week: Date }[]>(
      `WITH a AS (SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS a("showId", start, "end"))
       SELECT a."showId", a.start, a."end", q.listeners, q.seconds, date_trunc('week', a.start AT TIME ZONE $5) AS week
       FROM a CROSS JOIN LATERAL (
         SELECT COALESCE(sum(listeners), 0)::float8 AS listeners, COALESCE(sum("listenSeconds"), 0)::float8 AS seconds
         FROM "AudienceQuarter" WHERE source = $4 AND quarter >= a.start AND quarter < a."end") q
       ORDER BY a.start`,
      airings.map((airing) => airing.showId),
      airings.map((airing) => airing.start),
      airings.map((airing) => airing.end),
      source,
      timeZone,
    ),
    db().$queryRawUnsafe<{ showId: string; downloads: number }[]>(
      `SELECT e."showId", count(*)::int AS downloads FROM "PodcastDownload" d JOIN "PodcastEpisode" e ON e.id = d."episodeId"
       WHERE d."countedAt" >= $1 AND d."countedAt" < $2 AND e."showId" IS NOT NULL GROUP BY e."showId"`,
      from,
      to,
    ),
  ]);
  const quarters = (start: Date, end: Date) => Math.max(1, Math.round((end.getTime() - start.getTime()) / QUARTER_MS));
  return shows.map((show) => {
    const mine = perAiring.filter((row) => row.showId === show.id);
    const weeks = new Map<string, { listeners: number; quarters: number; seconds: number }>();
    for (const row of mine) {
      const key = row.week.toISOString().slice(0, 10);
      const week = weeks.get(key) ?? { listeners: 0, quarters: 0, seconds: 0 };
      week.listeners += row.listeners;
      week.quarters += quarters(row.start, row.end);
      week.seconds += row.seconds;
      weeks.set(key, week);
    }
    return {
      showId: show.id,
      name: show.name,
      airings: mine.map((row) => ({
        start: row.start.toISOString(),
        end: row.end.toISOString(),
        aqh: round(row.listeners / quarters(row.start, row.end)),
        tlhHours: round(row.seconds / 3600),
      })),
      weeks: [...weeks].map(([week, sums]) => ({ week, aqh: round(sums.listeners / sums.quarters), tlhHours: round(sums.seconds / 3600) })),
      downloads: downloads.find((row) => row.showId === show.id)?.downloads ?? 0,
    };
  });
}

async function songFigures(source: SessionSource, from: Date, to: Date, scope: AudienceScope): Promise<AudienceFigures["songs"]> {
  // Each song ends where the next one starts (or now, for the last one).
  const songs = await db().$queryRawUnsafe<{ at: Date; artist: string; title: string; show: string; endAt: Date }[]>(
    `WITH songs AS (
       SELECT "playedAt", artist, title, "showName" FROM "SongPlay"
       WHERE "playedAt" >= $1 AND "playedAt" < $2 AND ($3::text[] IS NULL OR "showId" = ANY($3::text[]))
       ORDER BY "playedAt" DESC LIMIT ${SONGS_LISTED}
     )
     SELECT songs."playedAt" AS at, artist, title, "showName" AS show, next.at AS "endAt"
     FROM songs
     CROSS JOIN LATERAL (SELECT COALESCE(min(n."playedAt"), now()) - interval '1 millisecond' AS at FROM "SongPlay" n WHERE n."playedAt" > songs."playedAt") next
     ORDER BY songs."playedAt" DESC`,
    from,
    to,
    scope.showIds,
  );
  if (songs.length === 0) return [];
  // The listeners at each of those instants, from one read of the sessions that overlap them all:
  // with the instants' span as parameters the planner reads only those (by start or end, whichever
  // is narrower) instead of the sessions before or after each song, a hundred times over. The
  // columns keep milliseconds, so the instants' microseconds (now()) cannot change a count.
  const instants = songs.flatMap((song) => [song.at, song.endAt]);
  const times = instants.map((at) => at.getTime());
  const counts = await db().$queryRawUnsafe<{ at: Date; listeners: number }[]>(
    `WITH s AS MATERIALIZED (
       SELECT "startedAt", "endedAt" FROM "ListeningSession"
       WHERE source = $1 AND "startedAt" <= $3 AND "endedAt" > $2 AND "endedAt" - "startedAt" >= make_interval(secs => $4)
     )
     SELECT t AS at, (SELECT count(*)::int FROM s WHERE s."startedAt" <= t AND s."endedAt" > t) AS listeners
     FROM unnest($5::timestamptz[]) AS t`,
    source,
    new Date(Math.min(...times)),
    new Date(Math.max(...times)),
    MIN_SESSION_SECONDS,
    instants,
  );
  const listenersAt = new Map(counts.map((row) => [row.at.getTime(), row.listeners]));
  return songs.map((row) => ({
    at: row.at.toISOString(),
    artist: row.artist,
    title: row.title,
    show: row.show,
    listenersAtStart: listenersAt.get(row.at.getTime()) ?? 0,
    listenersAtEnd: listenersAt.get(row.endAt.getTime()) ?? 0,
  }));
}

async function episodeFigures(from: Date, to: Date, scope: AudienceScope): Promise<AudienceFigures["episodes"]> {
  const rows = await db().$queryRawUnsafe<
    { id: number; title: string; publishedAt: Date; d7: number; d30: number; d90: number; inPeriod: number; plays: number }[]
  >(
    `SELECT e.id, e.title, e."publishedAt",
       count(*) FILTER (WHERE d."countedAt" < e."publishedAt" + interval '7 days')::int AS d7,
       count(*) FILTER (WHERE d."countedAt" < e."publishedAt" + interval '30 days')::int AS d30,
       count(*) FILTER (WHERE d."countedAt" < e."publishedAt" + interval '90 days')::int AS d90,
       count(*) FILTER (WHERE d."countedAt" >= $1 AND d."countedAt" < $2)::int AS "inPeriod",
       (SELECT count(*)::int FROM "EpisodePlay" p WHERE p."episodeId" = e.id AND p."playedAt" >= $1 AND p."playedAt" < $2) AS plays
     FROM "PodcastEpisode" e LEFT JOIN "PodcastDownload" d ON d."episodeId" = e.id
     WHERE e."publishedAt" <= $2 AND ($3::text[] IS NULL OR e."showId" = ANY($3::text[]))
     GROUP BY e.id ORDER BY "inPeriod" DESC, e."publishedAt" DESC LIMIT ${EPISODES_LISTED}`,
    from,
    to,
    scope.showIds,
  );
  return rows.map((row) => ({
    episodeId: row.id,
    title: row.title,
    publishedAt: row.publishedAt.toISOString(),
    downloads7Days: row.d7,
    downloads30Days: row.d30,
    downloads90Days: row.d90,
    downloadsInPeriod: row.inPeriod,
    webPlaysInPeriod: row.plays,
  }));
}

/** The figures as CSV rows (section, name, figure, value): what `/audience.csv` sends. */
export function audienceCsvRows(figures: AudienceFigures): string[][] {
  const rows: string[][] = [["section", "name", "figure", "value"]];
  const add = (section: string, name: string, figure: string, value: number | string) => rows.push([section, name, figure, String(value)]);
  add("now", "stream", "icecastListeners", figures.now.icecastListeners ?? "");
  add("now", "stream", "webPlayerListeners", figures.now.webPlayerListeners);
  for (const episode of figures.now.topEpisodes) add("now", `episode ${episode.episodeId}`, "listeners", episode.listeners);
  const { period } = figures;
  for (const figure of ["sessions", "uniques", "tlhHours", "atslMinutes", "aqh", "peakConcurrent"] as const) add("period", "station", figure, period[figure]);
  for (const slot of period.byHourOfWeek) add("hourOfWeek", `${slot.weekday}-${String(slot.hour).padStart(2, "0")}`, "listeners", slot.listeners);
  for (const [section, list] of [
    ["app", period.apps],
    ["device", period.devices],
    ["country", period.countries],
  ] as const) {
    for (const row of list) {
      add(section, row.name || "unknown", "sessions", row.sessions);
      add(section, row.name || "unknown", "tlhHours", row.tlhHours);
    }
  }
  for (const show of figures.shows) {
    add("show", show.name, "downloads", show.downloads);
    for (const airing of show.airings) {
      add("airing", `${show.name} ${airing.start}`, "aqh", airing.aqh);
      add("airing", `${show.name} ${airing.start}`, "tlhHours", airing.tlhHours);
    }
  }
  for (const song of figures.songs) {
    add("song", `${song.at} ${song.artist} - ${song.title}`, "listenersAtStart", song.listenersAtStart);
    add("song", `${song.at} ${song.artist} - ${song.title}`, "listenersAtEnd", song.listenersAtEnd);
  }
  for (const episode of figures.episodes) {
    for (const figure of ["downloads7Days", "downloads30Days", "downloads90Days", "downloadsInPeriod", "webPlaysInPeriod"] as const) {
      add("episode", `${episode.episodeId} ${episode.title}`, figure, episode[figure]);
    }
  }
  return rows;
}

const DAY_MS = 24 * 3600_000;
/** Without dates: the last DEFAULT_DAYS days up to now. */
export const DEFAULT_DAYS = 7;
// A longer period is refused: a year and a bit is what the screen is built (and benchmarked) for.
const MAX_DAYS = 400;

/**
 * `?from=&to=` as ISO dates (station days, `to` included) or ISO times; null when either is
 * malformed, `to` is before `from`, or the period is longer than MAX_DAYS days.
 */
export function readAudienceRange(params: URLSearchParams, now = new Date()): { from: Date; to: Date } | null {
  const fromText = params.get("from") ?? "";
  const toText = params.get("to") ?? "";
  const timeZone = getConfig().stationTimezone;
  const from = fromText === "" ? new Date(now.getTime() - DEFAULT_DAYS * DAY_MS) : parseIsoBound(fromText, timeZone, false);
  const to = toText === "" ? now : parseIsoBound(toText, timeZone, true);
  if (!from || !to || to <= from || to.getTime() - from.getTime() > MAX_DAYS * DAY_MS) return null;
  return { from, to };
}

function parseIsoBound(text: string, timeZone: string, endOfDay: boolean): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) return null;
    if (endOfDay) day.setUTCDate(day.getUTCDate() + 1);
    return fromDateTimeLocal(`${day.toISOString().slice(0, 10)}T00:00`, timeZone);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}
