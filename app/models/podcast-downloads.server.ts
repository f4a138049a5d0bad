import { db, KEEPS_CACHED_READS } from "~/services/db.server";
import { describeListener, listenerHash, utcDay, type ListenerRequest } from "./audience.server";

/**
 * Podcast downloads as the IAB Podcast Measurement Guidelines v2.1 count them on a single host,
 * at the server that serves the audio (`/media`, which the feed's enclosures point to):
 * - one download per listener (hash of address and user agent) per episode per UTC day;
 * - the bytes of all of that listener's requests for the episode are summed, and the download
 *   counts once at least one minute of audio was served (the whole file for a shorter episode);
 * - HEAD requests, requests of 2 bytes or fewer (Apple's `Range: bytes=0-1` probes), robots
 *   (isbot) and podcast services' own fetchers are left out.
 */
export const DOWNLOAD_MINIMUM_SECONDS = 60;
/** A request for this many bytes or fewer is a probe, not listening. */
export const PROBE_MAX_BYTES = 2;

export interface ServedAudio {
  /** The storage key served (`/media/<key>`). */
  key: string;
  /** Bytes of the file sent to the client by this request. */
  bytes: number;
  /** The bytes the request asked for (its range, or the whole file). */
  requestedBytes: number;
  method: string;
  listener: ListenerRequest;
  at: Date;
}

/**
 * One answered request for a stored file: when it is an episode's audio, its bytes are added to
 * the listener's tally for the episode and day, and the download is counted when the tally first
 * reaches a minute of audio. Returns whether this request completed a download.
 */
export async function recordServedAudio(served: ServedAudio): Promise<boolean> {
  if (served.method !== "GET" || served.bytes <= 0 || served.requestedBytes <= PROBE_MAX_BYTES) return false;
  const listener = await describeListener(served.listener, served.at);
  if (listener.bot) return false;
  // Also for a listener who asked not to be tracked: the hash only keeps their requests together
  // for the day (the tally row goes two days later); the download itself is kept without it.
  const hash = listener.hash ?? (await listenerHash(served.listener.address, served.listener.userAgent ?? "", served.at));
  const day = utcDay(served.at);
  // One statement finds the episode by its audio and adds the bytes; it reports the tally's
  // new total and the minimum it needs, or nothing when the file is no episode's audio.
  const rows = await db().$queryRawUnsafe<{ episodeId: number; bytes: bigint; needed: bigint; counted: boolean }[]>(
    `${KEEPS_CACHED_READS}
     WITH episode AS (
       SELECT e.id, CASE WHEN e."durationSeconds" <= $5 THEN f.size::bigint
                         ELSE ceil(f.size::numeric * $5 / e."durationSeconds")::bigint END AS needed
       FROM "PodcastEpisode" e JOIN "StoredFile" f ON f.id = e."audioId" WHERE f.key = $1
     )
     INSERT INTO "PodcastDownloadProgress" (day, "listenerHash", "episodeId", bytes, counted, "lastAt")
     SELECT $2, $3, episode.id, $4, false, $6 FROM episode
     ON CONFLICT (day, "listenerHash", "episodeId")
     DO UPDATE SET bytes = "PodcastDownloadProgress".bytes + EXCLUDED.bytes, "lastAt" = EXCLUDED."lastAt"
     RETURNING "episodeId", bytes, counted, (SELECT needed FROM episode) AS needed`,
    served.key,
    day,
    hash,
    served.bytes,
    DOWNLOAD_MINIMUM_SECONDS,
    served.at,
  );
  const tally = rows[0];
  if (!tally || tally.counted || tally.bytes < tally.needed) return false;
  // Exactly one request turns the tally into a download, however many arrive at once.
  const counted = await db().$executeRawUnsafe(
    `${KEEPS_CACHED_READS}
     WITH claimed AS (
       UPDATE "PodcastDownloadProgress" SET counted = true
       WHERE day = $1 AND "listenerHash" = $2 AND "episodeId" = $3 AND NOT counted RETURNING "episodeId"
     )
     INSERT INTO "PodcastDownload" ("episodeId", "countedAt", app, device, country)
     SELECT "episodeId", $4, $5, $6, $7 FROM claimed`,
    day,
    hash,
    tally.episodeId,
    served.at,
    listener.app,
    listener.device,
    listener.country,
  );
  return counted === 1;
}

/** Tallies of days before yesterday: their downloads are counted, and their hashes mean nothing any more. */
export async function forgetOldDownloadTallies(now: Date): Promise<void> {
  const yesterday = utcDay(new Date(now.getTime() - 24 * 3600_000));
  await db().$executeRawUnsafe(`${KEEPS_CACHED_READS} DELETE FROM "PodcastDownloadProgress" WHERE day < $1`, yesterday);
}
