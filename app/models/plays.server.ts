import { createHmac, randomUUID } from "node:crypto";
import { cardSelect, getPublishedEpisode } from "~/models/podcasts.server";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { getListenerSession, listenerSessionStorage } from "~/services/session.server";

const DAY_MS = 24 * 60 * 60 * 1000;
// Generous for a person skipping through episodes, tight enough that a script cannot stuff TRENDING.
const PLAY_LIMIT_PER_IP = 60;
const PLAY_LIMIT_WINDOW_MS = 10 * 60 * 1000;

export type RecordPlayResult =
  | { status: "counted" | "already-counted"; setCookie: string | null }
  | { status: "not-found" }
  | { status: "rate-limited"; retryAfterSeconds: number };

/** The stored key for a listener: keyed with the session secret, so it cannot be traced back to a cookie. */
function listenerKey(listenerId: string): string {
  return createHmac("sha256", getConfig().sessionSecret!).update(`play:${listenerId}`).digest("hex");
}

/**
 * Counts one play of a published episode for this listener session; a
 * listener playing the same episode again is not counted again. Gives the
 * listener an anonymous id (in their session cookie) on their first play.
 */
export async function recordPlay(request: Request, episodeParam: string | undefined, clientIp: string): Promise<RecordPlayResult> {
  const episodeId = /^\d{1,9}$/.test(episodeParam ?? "") ? Number(episodeParam) : NaN;
  if (!Number.isSafeInteger(episodeId) || !(await getPublishedEpisode(episodeId))) return { status: "not-found" };

  const limit = await hitRateLimit(`plays:${clientIp}`, PLAY_LIMIT_PER_IP, PLAY_LIMIT_WINDOW_MS);
  if (!limit.allowed) return { status: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };

  const session = await getListenerSession(request);
  let listenerId = session.get("listenerId");
  let setCookie: string | null = null;
  if (!listenerId) {
    listenerId = randomUUID();
    session.set("listenerId", listenerId);
    setCookie = await listenerSessionStorage().commitSession(session);
  }
  const { count } = await db().episodePlay.createMany({
    data: [{ episodeId, listenerKey: listenerKey(listenerId) }],
    skipDuplicates: true,
  });
  return { status: count === 1 ? "counted" : "already-counted", setCookie };
}

/** TRENDING: published episodes with the most listener sessions playing them in the last `days` days. */
export async function listTrendingEpisodes(days = 7, limit = 10) {
  const now = new Date();
  const counts = await db().episodePlay.groupBy({
    by: ["episodeId"],
    where: { playedAt: { gte: new Date(now.getTime() - days * DAY_MS) }, episode: { publishedAt: { lte: now }, listeningReady: true } },
    _count: { _all: true },
    orderBy: [{ _count: { episodeId: "desc" } }, { episodeId: "desc" }],
    take: limit,
  });
  if (counts.length === 0) return [];
  const episodes = await db().podcastEpisode.findMany({
    where: { id: { in: counts.map((row) => row.episodeId) } },
    select: cardSelect,
  });
  const byId = new Map(episodes.map((episode) => [episode.id, episode]));
  return counts.flatMap((row) => {
    const episode = byId.get(row.episodeId);
    return episode ? [{ ...episode, plays: row._count._all }] : [];
  });
}

export type TrendingEpisode = Awaited<ReturnType<typeof listTrendingEpisodes>>[number];
