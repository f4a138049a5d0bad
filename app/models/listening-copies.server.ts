import { createWriteStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import PgBoss from "pg-boss";
import { encodeListeningCopy, EncoderUnavailableError } from "~/services/audio.server";
import { keyedMessage } from "~/utils/forms/form";
import { prepareImage } from "~/services/images.server";
import { artworkKey } from "~/utils/media";
import { db } from "~/services/db.server";
import { publish } from "~/services/realtime.server";
import { peekSingleton, setSingleton } from "~/services/singleton.server";
import { getStorage, readStoredBytes } from "~/services/storage.server";
import { stageExistingFile, withTempDir } from "~/services/temp-files.server";
import { discardFileIfUnused, recordFile, uploadAudio } from "./files.server";

/*
 * Listening copies: a WAV, FLAC or AIFF upload is kept as the episode's
 * original (admins can download it) while an MP3 at -16 LUFS is encoded for
 * listeners and podcast apps. The encoding runs as a job in a PostgreSQL
 * queue (pg-boss) that every app instance works from, so any instance may
 * take the job and a restart loses nothing. Until the copy exists the
 * episode is not published (listeningReady is false).
 */

const QUEUE = "listening-copy";
// Covers stored before podcast artwork existed get their square JPEG in the background too.
const ARTWORK_QUEUE = "podcast-artwork-backfill";
const BOSS = "listeningCopyQueue";
// Progress is written to the row at most this often (the admin list shows it).
const PROGRESS_STEP = 10;

interface EncodeJob {
  episodeId: number;
}

/** The running queue of this process, once it has started (null when it could not start). */
function queue(): Promise<PgBoss | null> | undefined {
  return peekSingleton<Promise<PgBoss | null>>(BOSS);
}

// Every anonymous socket hears this: progress and errors concern an episode no public page shows
// yet, so they go out without records (admin pages refetch); a finished copy names the episode
// only once it is public (not scheduled for later).
function announce(episode: { id: number; publishedAt: Date } | null) {
  const isPublic = episode !== null && episode.publishedAt.getTime() <= Date.now();
  publish("images:changed", { action: "updated", records: isPublic ? [{ kind: "episode", id: episode.id }] : [] });
}

/** Encodes one episode's listening copy and switches the episode to it. Safe to run twice. */
export async function encodeEpisodeListeningCopy(episodeId: number): Promise<void> {
  const episode = await db().podcastEpisode.findUnique({
    where: { id: episodeId },
    select: { id: true, publishedAt: true, listeningReady: true, durationSeconds: true, originalAudio: { select: { id: true, key: true } } },
  });
  if (!episode || episode.listeningReady || !episode.originalAudio) return;
  const original = episode.originalAudio;
  let written = 0;
  try {
    // The original streams from storage to a temp file and ffmpeg writes the copy to another:
    // a 200 MB original never sits in memory. The folder goes whatever happens.
    const upload = await withTempDir("listening-copy", async (dir) => {
      const source = path.join(dir, "original");
      const output = path.join(dir, "listening.mp3");
      await pipeline(await getStorage().read(original.key), createWriteStream(source));
      await encodeListeningCopy(source, output, episode.durationSeconds, (percent) => {
        if (percent < written + PROGRESS_STEP) return;
        written = percent;
        void db()
          .podcastEpisode.updateMany({ where: { id: episodeId, originalAudioId: original.id, listeningReady: false }, data: { encodeProgress: percent } })
          .then(() => announce(null))
          .catch(() => {});
      });
      return uploadAudio(await stageExistingFile(output), "audio");
    });
    const switched = await db().$transaction(async (tx) => {
      const file = await recordFile(tx, upload);
      // Only if the admin did not replace the audio meanwhile.
      const { count } = await tx.podcastEpisode.updateMany({
        where: { id: episodeId, originalAudioId: original.id, listeningReady: false },
        data: {
          audioId: file.id,
          durationSeconds: upload.durationSeconds ?? episode.durationSeconds,
          listeningReady: true,
          encodeProgress: 100,
          encodeError: null,
        },
      });
      return count > 0;
    });
    if (!switched) await discardFileIfUnused(upload);
  } catch (error) {
    // Keyed (see keyedMessage): EPISODES shows it in the admin's language.
    const message =
      error instanceof EncoderUnavailableError
        ? "admin.encoderUnavailable"
        : keyedMessage("admin.encodingFailed", { detail: (error as Error).message.slice(0, 400) });
    await db().podcastEpisode.updateMany({ where: { id: episodeId, originalAudioId: original.id, listeningReady: false }, data: { encodeError: message } });
    announce(null);
    throw error;
  }
  announce(episode);
}

/**
 * Makes the square JPEG for episode covers and credited crew portraits that
 * have none (stored before this existed), from the stored WebP (up to 2400 px).
 */
export async function backfillArtwork(): Promise<number> {
  const files = await db().storedFile.findMany({
    where: { artworkSize: null, contentType: "image/webp", OR: [{ episodeCovers: { some: {} } }, { crewMembers: { some: {} } }] },
    select: { id: true, key: true },
  });
  const storage = getStorage();
  for (const file of files) {
    const image = await prepareImage(await readStoredBytes(file.key), { artwork: true });
    if (!image.artwork) continue;
    await storage.put(artworkKey(file.key), image.artwork.data, "image/jpeg");
    await db().storedFile.update({ where: { id: file.id }, data: { artworkSize: image.artwork.size } });
  }
  return files.length;
}

/** Puts an episode's encoding on the shared queue (one pending job per episode). */
export async function enqueueListeningCopy(episodeId: number): Promise<void> {
  const boss = await queue();
  // Without a running queue (a script, a test without a server) the next server start picks it up.
  if (!boss) return;
  await boss.send(QUEUE, { episodeId } satisfies EncodeJob, { singletonKey: String(episodeId), retryLimit: 2, retryDelay: 5 });
}

/**
 * Starts this instance's worker on the shared queue, and queues every episode
 * still waiting for its copy (left by a crash or a restart).
 */
export function startListeningCopyQueue(databaseUrl: string, log: (line: string) => void): () => Promise<void> {
  // Started in the background so the server answers meanwhile; enqueueing waits for it.
  const starting = startQueue(databaseUrl, log).catch((error: Error) => {
    log(`Listening copy queue did not start: ${error.message}`);
    return null;
  });
  setSingleton(BOSS, starting);
  return async () => {
    const boss = await starting;
    setSingleton(BOSS, undefined);
    // wait: resolve only once workers and the pool are closed, before the database goes away.
    await boss?.stop({ graceful: true, timeout: 5_000, wait: true });
  };
}

async function startQueue(databaseUrl: string, log: (line: string) => void): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", max: 3 });
  boss.on("error", (error: Error) => log(`Listening copy queue: ${error.message}`));
  await boss.start();
  await boss.createQueue(QUEUE);
  await boss.work<EncodeJob>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    await encodeEpisodeListeningCopy(job.data.episodeId);
  });
  await boss.createQueue(ARTWORK_QUEUE);
  await boss.work(ARTWORK_QUEUE, async () => {
    const made = await backfillArtwork();
    if (made > 0) log(`Made podcast artwork for ${made} earlier images`);
  });
  await boss.send(ARTWORK_QUEUE, {}, { singletonKey: "all", retryLimit: 2, retryDelay: 30 });
  const waiting = await db().podcastEpisode.findMany({ where: { listeningReady: false, encodeError: null }, select: { id: true } });
  for (const episode of waiting) {
    await boss.send(QUEUE, { episodeId: episode.id } satisfies EncodeJob, { singletonKey: String(episode.id), retryLimit: 2, retryDelay: 5 });
  }
  return boss;
}
