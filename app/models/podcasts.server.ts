import { db } from "~/services/db.server";

const cardSelect = {
  id: true,
  title: true,
  description: true,
  durationSeconds: true,
  publishedAt: true,
  cover: { select: { key: true, width: true, height: true, variantWidths: true } },
  audio: { select: { key: true, contentType: true, size: true } },
} as const;

/** The newest published episodes: the podcast cards of /listen (5) and /cardlistmore (10). */
export function listLatestEpisodes(limit: number) {
  return db().podcastEpisode.findMany({
    where: { publishedAt: { lte: new Date() } },
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: cardSelect,
  });
}

export type EpisodeCard = Awaited<ReturnType<typeof listLatestEpisodes>>[number];

export function getPublishedEpisode(id: number) {
  return db().podcastEpisode.findFirst({
    where: { id, publishedAt: { lte: new Date() } },
    select: cardSelect,
  });
}
