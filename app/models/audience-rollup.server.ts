import { db, KEEPS_CACHED_READS } from "~/services/db.server";
import { forgetOldSalts } from "./audience.server";
import { closeStaleSessions, STALE_AFTER_MS } from "./listening-sessions.server";
import { forgetOldDownloadTallies } from "./podcast-downloads.server";

/**
 * The one job that turns raw listening sessions into the aggregates the figures read, run by any
 * instance (whoever takes the transaction lock; the others skip that round). Every complete hour
 * is rolled once (AudienceRollup is the bookmark, written in the same transaction), in SQL:
 * - AudienceHour: sessions of at least 60 s started in the hour, and the seconds listened in it;
 * - AudienceQuarter: listeners with at least 5 minutes in the quarter-hour (AQH), seconds, peak;
 * - AudienceBreakdown: sessions and seconds per day by app, device and country;
 * - AudienceDay: distinct listeners per UTC day (rolled with the day's last hour).
 * Then what the retention settings no longer keep is deleted.
 */
const ROLLUP_LOCK = 2026112632;
/** Sessions shorter than this are not sessions (industry practice for streams). */
export const MIN_SESSION_SECONDS = 60;
/** A quarter-hour counts a listener who listened at least this long in it (AQH). */
export const AQH_MIN_SECONDS = 300;
const HOUR_MS = 3600_000;
// An hour is rolled once its sessions cannot change any more: their heartbeats came or they went stale.
const SETTLE_MS = STALE_AFTER_MS + 60_000;
// Hours rolled per transaction: a year's backlog goes in steps that each take seconds.
const CHUNK_HOURS = 24 * 7;

export interface Retention {
  /** Days raw sessions are kept (AUDIENCE_SESSION_DAYS). */
  sessionDays: number;
  /** Days aggregates and counted downloads are kept (AUDIENCE_RETENTION_DAYS). */
  retentionDays: number;
}

/** Rolls every settled hour not rolled yet and applies the retention; false when another instance was at it. */
export async function runAudienceRollup(retention: Retention, now = new Date()): Promise<boolean> {
  await closeStaleSessions(now);
  const settled = new Date(Math.floor((now.getTime() - SETTLE_MS) / HOUR_MS) * HOUR_MS);
  for (;;) {
    const result = await db().$transaction(
      async (tx) => {
        const [{ locked }] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(`SELECT pg_try_advisory_xact_lock(${ROLLUP_LOCK}) AS locked`);
        if (!locked) return "busy" as const;
        const [{ next }] = await tx.$queryRawUnsafe<{ next: Date | null }[]>(
          `SELECT COALESCE((SELECT max(hour) + interval '1 hour' FROM "AudienceRollup"),
                           (SELECT date_trunc('hour', min("startedAt")) FROM "ListeningSession")) AS next`,
        );
        if (!next || next >= settled) return "done" as const;
        const to = new Date(Math.min(settled.getTime(), next.getTime() + CHUNK_HOURS * HOUR_MS));
        await tx.$executeRawUnsafe(`${KEEPS_CACHED_READS} ${ROLL_HOURS}`, next, to, MIN_SESSION_SECONDS);
        await tx.$executeRawUnsafe(`${KEEPS_CACHED_READS} ${ROLL_QUARTERS}`, next, to, MIN_SESSION_SECONDS, AQH_MIN_SECONDS);
        await tx.$executeRawUnsafe(`${KEEPS_CACHED_READS} ${ROLL_BREAKDOWN}`, next, to, MIN_SESSION_SECONDS);
        await tx.$executeRawUnsafe(`${KEEPS_CACHED_READS} ${ROLL_DAYS}`, next, to, MIN_SESSION_SECONDS);
        await tx.$executeRawUnsafe(
          `${KEEPS_CACHED_READS} INSERT INTO "AudienceRollup" (hour) SELECT generate_series($1::timestamptz, $2::timestamptz - interval '1 hour', interval '1 hour')`,
          next,
          to,
        );
        return "more" as const;
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
    if (result === "busy") return false;
    if (result === "done") break;
  }
  await applyRetention(retention, now);
  return true;
}

async function applyRetention({ sessionDays, retentionDays }: Retention, now: Date): Promise<void> {
  const sessionsBefore = new Date(now.getTime() - sessionDays * 24 * HOUR_MS);
  const aggregatesBefore = new Date(now.getTime() - retentionDays * 24 * HOUR_MS);
  // Only sessions of rolled hours go: their figures live on in the aggregates.
  await db().$executeRawUnsafe(
    `${KEEPS_CACHED_READS} DELETE FROM "ListeningSession" WHERE NOT open AND "endedAt" < $1
     AND "endedAt" < (SELECT COALESCE(max(hour), '-infinity') FROM "AudienceRollup")`,
    sessionsBefore,
  );
  await db().$executeRawUnsafe(`${KEEPS_CACHED_READS} DELETE FROM "StreamListenerSample" WHERE at < $1`, sessionsBefore);
  for (const [table, column] of [
    ["AudienceHour", "hour"],
    ["AudienceQuarter", "quarter"],
    ["AudienceBreakdown", "day"],
    ["AudienceDay", "day"],
    ["AudienceRollup", "hour"],
    ["PodcastDownload", "countedAt"],
  ]) {
    // The bookmark keeps its latest hour, so nothing is rolled twice.
    const keepLast = table === "AudienceRollup" ? ` AND hour < (SELECT max(hour) FROM "AudienceRollup")` : "";
    await db().$executeRawUnsafe(`${KEEPS_CACHED_READS} DELETE FROM "${table}" WHERE "${column}" < $1${keepLast}`, aggregatesBefore);
  }
  await forgetOldDownloadTallies(now);
  await forgetOldSalts(now);
}

// Sessions of at least $3 seconds overlapping [$1, $2), per source.
const SESSIONS = `
  SELECT source, "startedAt" AS s, "endedAt" AS e, "listenerHash" AS h, app, device, country
  FROM "ListeningSession"
  WHERE "startedAt" < $2 AND "endedAt" > $1 AND "endedAt" - "startedAt" >= make_interval(secs => $3)`;

// Each session's seconds within each hour it touches, and whether it started in that hour.
const ROLL_HOURS = `
  INSERT INTO "AudienceHour" (hour, source, sessions, "listenSeconds")
  SELECT hour, source, count(*) FILTER (WHERE s >= hour), sum(extract(epoch FROM LEAST(e, hour + interval '1 hour') - GREATEST(s, hour)))::bigint
  FROM (${SESSIONS}) x,
       LATERAL generate_series(GREATEST(date_trunc('hour', s), $1), LEAST(e, $2 - interval '1 microsecond'), interval '1 hour') AS hour
  WHERE hour < e
  GROUP BY hour, source`;

// Per quarter-hour: listeners with >= $4 s in it, seconds, and the peak of concurrent sessions
// (a running sum of starts and ends, ends first at the same instant, read at each event and at each quarter's start).
const ROLL_QUARTERS = `
  WITH x AS (${SESSIONS}),
  overlap AS (
    SELECT source, q, extract(epoch FROM LEAST(e, q + interval '15 minutes') - GREATEST(s, q)) AS secs
    FROM x, LATERAL generate_series(GREATEST(date_bin('15 minutes', s, 'epoch'), $1), LEAST(e, $2 - interval '1 microsecond'), interval '15 minutes') AS q
    WHERE q < e
  ),
  sums AS (
    SELECT source, q, count(*) FILTER (WHERE secs >= $4) AS listeners, sum(secs)::bigint AS secs FROM overlap GROUP BY source, q
  ),
  events AS (
    SELECT source, GREATEST(s, $1) AS t, 1 AS d, 1 AS k FROM x
    UNION ALL SELECT source, e, -1, 0 FROM x WHERE e < $2
    UNION ALL SELECT DISTINCT source, q, 0, 2 FROM sums
  ),
  running AS (
    SELECT source, t, k, sum(d) OVER (PARTITION BY source ORDER BY t, k ROWS UNBOUNDED PRECEDING) AS level FROM events
  ),
  peaks AS (
    SELECT source, date_bin('15 minutes', t, 'epoch') AS q, max(level) AS peak FROM running WHERE k <> 0 GROUP BY 1, 2
  )
  INSERT INTO "AudienceQuarter" (quarter, source, listeners, "listenSeconds", peak)
  SELECT sums.q, sums.source, sums.listeners, sums.secs, COALESCE(peaks.peak, 0)
  FROM sums LEFT JOIN peaks ON peaks.source = sums.source AND peaks.q = sums.q`;

// Sessions (counted in the hour, so the day, they started) and seconds per day and app, device, country.
const ROLL_BREAKDOWN = `
  WITH per AS (
    SELECT source, (hour AT TIME ZONE 'UTC')::date AS day, app, device, country,
           count(*) FILTER (WHERE s >= hour) AS sessions,
           sum(extract(epoch FROM LEAST(e, hour + interval '1 hour') - GREATEST(s, hour)))::bigint AS secs
    FROM (${SESSIONS}) x,
         LATERAL generate_series(GREATEST(date_trunc('hour', s), $1), LEAST(e, $2 - interval '1 microsecond'), interval '1 hour') AS hour
    WHERE hour < e
    GROUP BY 1, 2, 3, 4, 5
  )
  INSERT INTO "AudienceBreakdown" (day, source, dimension, value, sessions, "listenSeconds")
  SELECT day, source, dimension, value, sum(sessions), sum(secs)
  FROM per, LATERAL (VALUES ('app', app), ('device', device), ('country', country)) AS v(dimension, value)
  GROUP BY day, source, dimension, value
  ON CONFLICT (day, source, dimension, value) DO UPDATE
  SET sessions = "AudienceBreakdown".sessions + EXCLUDED.sessions, "listenSeconds" = "AudienceBreakdown"."listenSeconds" + EXCLUDED."listenSeconds"`;

// Distinct listeners of each UTC day whose last hour is in [$1, $2), by the day their session started.
const ROLL_DAYS = `
  INSERT INTO "AudienceDay" (day, source, uniques)
  SELECT ("startedAt" AT TIME ZONE 'UTC')::date, source, count(DISTINCT "listenerHash")
  FROM "ListeningSession"
  WHERE "startedAt" >= date_trunc('day', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND "startedAt" < date_trunc('day', $2::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND "endedAt" - "startedAt" >= make_interval(secs => $3)
  GROUP BY 1, 2
  ON CONFLICT (day, source) DO UPDATE SET uniques = EXCLUDED.uniques`;

/** Runs the roll-up every `everyMs` on this instance (each round on one instance only); returns the stop function. */
export function startAudienceRollup(retention: Retention, everyMs: number, log: (line: string) => void = () => {}): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const round = () => {
    running = runAudienceRollup(retention).catch((error: Error) => log(`Audience: the roll-up failed: ${error.message}`));
  };
  const timer = setInterval(round, everyMs);
  round();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
