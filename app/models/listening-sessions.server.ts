import { db, KEEPS_CACHED_READS } from "~/services/db.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { readIcecastClients, readIcecastMounts, type IcecastClient } from "~/services/icecast-audience.server";
import { describeListener, listenerHash, type ListenerRequest } from "./audience.server";

/**
 * Listening sessions of the live stream, from two sources:
 * - "web": the site's player reports start, a heartbeat while it plays, and stop;
 * - "icecast": every client of the station's Icecast (the web player's included), from
 *   `/admin/listclients`, polled by the one instance that follows now-playing.
 * A session's end is the last moment its listener was seen; one nobody has seen for
 * STALE_AFTER_MS is closed. Raw sessions are rolled into hourly and quarter-hour aggregates
 * (audience-rollup.server.ts) and deleted after the configured days.
 */
export type SessionSource = "web" | "icecast";

/** The web player's heartbeat (app/utils/listening-session.ts sends one this often while playing). */
export const HEARTBEAT_SECONDS = 30;
/** An open session not seen for this long has ended where it was last seen. */
export const STALE_AFTER_MS = 3 * HEARTBEAT_SECONDS * 1000;
// Generous for a listener who pauses and plays often; a script cannot fill the table.
const STARTS_PER_ADDRESS = 60;
const STARTS_WINDOW_MS = 10 * 60 * 1000;

export type WebSessionEvent = "start" | "beat" | "stop";

export type WebSessionResult = { status: "ok" } | { status: "invalid" } | { status: "rate-limited"; retryAfterSeconds: number };

/**
 * The web player's report of one listening stretch, named by the random id the player chose
 * for it. The listener is the listener id they already have (the play counter's), else their
 * address and user agent, hashed with the day's salt like every other listener.
 */
export async function reportWebSession(
  event: WebSessionEvent,
  sessionId: string,
  listener: ListenerRequest & { listenerId?: string | null },
  at = new Date(),
): Promise<WebSessionResult> {
  if (!/^[0-9a-f-]{16,64}$/i.test(sessionId)) return { status: "invalid" };
  if (event !== "start") {
    // Only an open session moves on, and only to the server's clock.
    await db().$executeRawUnsafe(
      `${KEEPS_CACHED_READS} UPDATE "ListeningSession" SET "endedAt" = GREATEST("endedAt", $2), open = $3
       WHERE source = 'web' AND "clientKey" = $1 AND open`,
      sessionId,
      at,
      event === "beat",
    );
    return { status: "ok" };
  }
  const limit = await hitRateLimit(`listening:${listener.address}`, STARTS_PER_ADDRESS, STARTS_WINDOW_MS);
  if (!limit.allowed) return { status: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };
  const who = await describeListener(listener, at);
  if (who.bot) return { status: "ok" };
  const hash = who.hash && listener.listenerId ? await listenerHash(`listener:${listener.listenerId}`, "", at) : who.hash;
  await db().$executeRawUnsafe(
    `${KEEPS_CACHED_READS} INSERT INTO "ListeningSession" (source, "clientKey", "listenerHash", "startedAt", "endedAt", open, app, device, country)
     VALUES ('web', $1, $2, $3, $3, true, $4, $5, $6) ON CONFLICT (source, "clientKey") DO NOTHING`,
    sessionId,
    hash,
    at,
    who.app,
    who.device,
    who.country,
  );
  return { status: "ok" };
}

/**
 * One poll of Icecast's clients of `mount`: each is a session that started `connectedSeconds`
 * ago and was seen now; sessions of the mount no longer listed have ended.
 */
export async function recordIcecastClients(serverStart: string, mount: string, clients: IcecastClient[], at = new Date()): Promise<void> {
  // Icecast numbers its clients from 1 again when it restarts: its start keeps the keys apart.
  const prefix = `${serverStart}${mount}#`;
  const rows: { key: string; hash: string | null; started: Date; app: string; device: string; country: string }[] = [];
  for (const client of clients) {
    const who = await describeListener({ address: client.address, userAgent: client.userAgent, doNotTrack: false }, at);
    if (who.bot) continue;
    rows.push({
      key: prefix + client.id,
      hash: who.hash,
      started: new Date(at.getTime() - client.connectedSeconds * 1000),
      app: who.app,
      device: who.device,
      country: who.country,
    });
  }
  await db().$transaction([
    db().$executeRawUnsafe(
      `${KEEPS_CACHED_READS} INSERT INTO "ListeningSession" (source, "clientKey", "listenerHash", "startedAt", "endedAt", open, app, device, country)
       SELECT 'icecast', k, h, s, $7, true, a, d, c
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[]) AS t(k, h, s, a, d, c)
       ON CONFLICT (source, "clientKey") DO UPDATE SET "endedAt" = EXCLUDED."endedAt", open = true`,
      rows.map((row) => row.key),
      rows.map((row) => row.hash),
      rows.map((row) => row.started),
      rows.map((row) => row.app),
      rows.map((row) => row.device),
      rows.map((row) => row.country),
      at,
    ),
    db().$executeRawUnsafe(
      `${KEEPS_CACHED_READS} UPDATE "ListeningSession" SET open = false
       WHERE source = 'icecast' AND open AND "clientKey" LIKE $1 ESCAPE '\\' AND NOT ("clientKey" = ANY($2::text[]))`,
      // This run's sessions of the mount; an earlier run's are closed as stale.
      `${prefix.replace(/[\\%_]/g, "\\$&")}%`,
      rows.map((row) => row.key),
    ),
  ]);
}

/** Listener counts per mount, as status-json.xsl gave them. */
export async function recordMountListeners(mounts: { mount: string; listeners: number }[], at = new Date()): Promise<void> {
  if (mounts.length === 0) return;
  await db().$executeRawUnsafe(
    `${KEEPS_CACHED_READS} INSERT INTO "StreamListenerSample" (at, mount, listeners)
     SELECT $1, m, l FROM unnest($2::text[], $3::int[]) AS t(m, l) ON CONFLICT DO NOTHING`,
    at,
    mounts.map((row) => row.mount),
    mounts.map((row) => row.listeners),
  );
}

/** Closes sessions nobody has seen for STALE_AFTER_MS (a closed tab, a dead leader). */
export async function closeStaleSessions(now = new Date()): Promise<void> {
  await db().$executeRawUnsafe(
    `${KEEPS_CACHED_READS} UPDATE "ListeningSession" SET open = false WHERE open AND "endedAt" < $1`,
    new Date(now.getTime() - STALE_AFTER_MS),
  );
}

export interface IcecastAudienceOptions {
  streamUrl: string;
  pollSeconds: number;
  admin: { user: string; password: string } | null;
  log?: (line: string) => void;
}

/**
 * Reads Icecast's listeners every `pollSeconds` until `signal` aborts: the counts per mount, and
 * with the admin password each mount's clients as sessions. Run by the now-playing leader only.
 */
export async function followIcecastAudience(options: IcecastAudienceOptions, signal: AbortSignal): Promise<void> {
  const { log = () => {} } = options;
  let refusedLogged = false;
  while (!signal.aborted) {
    const at = new Date();
    try {
      const status = await readIcecastMounts(options.streamUrl, signal);
      if (status) {
        await recordMountListeners(status.mounts, at);
        for (const { mount } of options.admin ? status.mounts : []) {
          const clients = await readIcecastClients(options.streamUrl, mount, options.admin!, signal);
          if (clients) await recordIcecastClients(status.serverStart, mount, clients, at);
          else if (!refusedLogged) {
            refusedLogged = true;
            log(`Audience: Icecast did not list the clients of ${mount} (is ICECAST_ADMIN_PASSWORD right?); counting listeners only`);
          }
        }
      }
    } catch (error) {
      if (!signal.aborted) log(`Audience: could not record Icecast's listeners: ${(error as Error).message}`);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.pollSeconds * 1000);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done);
    });
  }
}
