import { Prisma } from "~/generated/prisma/client";
import type { MessageKey } from "~/i18n/keys";
import { db } from "~/services/db.server";

export interface EpisodeProgressValue {
  positionSeconds: number;
  played: boolean;
}

/** Where a signed-in listener is in an episode (zero and unplayed when they never started it). */
export async function getEpisodeProgress(userId: string, episodeId: number): Promise<EpisodeProgressValue> {
  const row = await db().episodeProgress.findUnique({
    where: { userId_episodeId: { userId, episodeId } },
    select: { positionSeconds: true, played: true },
  });
  return row ?? { positionSeconds: 0, played: false };
}

export type SaveProgressResult = { status: "saved" } | { status: "invalid"; message: MessageKey } | { status: "not-found" };

/**
 * Stores the listener's place in a published episode. The position must lie
 * within the episode; "played" never goes back to false by itself (finishing
 * again, or seeking back, keeps the mark).
 */
export async function saveEpisodeProgress(userId: string, episodeId: number, form: FormData): Promise<SaveProgressResult> {
  const positionText = String(form.get("positionSeconds") ?? "");
  const playedText = String(form.get("played") ?? "false");
  if (!/^\d{1,7}$/.test(positionText)) return { status: "invalid", message: "podcast.progressPositionInvalid" };
  if (playedText !== "true" && playedText !== "false") return { status: "invalid", message: "podcast.progressPlayedInvalid" };
  const episode = await db().podcastEpisode.findFirst({
    where: { id: episodeId, publishedAt: { lte: new Date() } },
    select: { durationSeconds: true },
  });
  if (!episode) return { status: "not-found" };
  const positionSeconds = Number(positionText);
  // The stored duration is rounded and may be unknown (0): allow a little past it.
  if (episode.durationSeconds > 0 && positionSeconds > episode.durationSeconds + 5) {
    return { status: "invalid", message: "podcast.progressPastEnd" };
  }
  const played = playedText === "true";
  const key = { userId_episodeId: { userId, episodeId } };
  try {
    await db().episodeProgress.upsert({
      where: key,
      create: { userId, episodeId, positionSeconds, played },
      update: { positionSeconds, ...(played ? { played } : {}) },
    });
  } catch (error) {
    // Two devices saving at once both tried to create the row: the later one updates it.
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
    await db().episodeProgress.update({ where: key, data: { positionSeconds, ...(played ? { played } : {}) } });
  }
  return { status: "saved" };
}
