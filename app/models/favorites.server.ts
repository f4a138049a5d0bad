import { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { cardSelect } from "./episodes.server";

/** The listener's favourite episodes that are published, most recently marked first, as podcast cards. */
export async function listFavoriteEpisodes(userId: string) {
  const favorites = await db().favorite.findMany({
    where: { userId, episode: { publishedAt: { lte: new Date() }, listeningReady: true } },
    orderBy: { createdAt: "desc" },
    select: { episode: { select: cardSelect } },
  });
  return favorites.map((favorite) => favorite.episode);
}

/**
 * Marks or unmarks one episode as a favourite. Idempotent, so a double click
 * or a resubmitted form lands in the state the listener asked for.
 * Returns false when the episode does not exist (or is not published yet).
 */
export async function setFavorite(userId: string, episodeId: number, favorite: boolean): Promise<boolean> {
  const episode = await db().podcastEpisode.findFirst({
    where: { id: episodeId, publishedAt: { lte: new Date() }, listeningReady: true },
    select: { id: true },
  });
  if (!episode) return false;
  if (!favorite) {
    await db().favorite.deleteMany({ where: { userId, episodeId } });
    return true;
  }
  try {
    await db().favorite.upsert({ where: { userId_episodeId: { userId, episodeId } }, create: { userId, episodeId }, update: {} });
  } catch (error) {
    // A concurrent identical request inserted it first: the favourite exists, as asked.
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
  return true;
}
