import { createHmac, randomUUID } from "node:crypto";
import { cardSelect, getPublishedEpisode } from "~/models/episodes.server";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { heardEnough, requiredSeconds } from "~/utils/play-rule";

export { PLAY_THRESHOLD_SECONDS } from "~/utils/play-rule";

const DAY_MS = 24 * 60 * 60 * 1000;
// Generous for a person skipping through episodes, tight enough that a script cannot stuff TRENDING.
const PLAY_LIMIT_PER_IP = 60;
const PLAY_LIMIT_WINDOW_MS = 10 * 60 * 1000;
/** New anonymous listener ids one address may be given (each id can count each episode once a day). */
export const NEW_LISTENERS_PER_IP = 10;
const NEW_LISTENERS_WINDOW_MS = 60 * 60 * 1000;
// The fastest playback speed the players offer: heard seconds cannot come faster than this.
const MAX_PLAYBACK_RATE = 2;
const KEPT_PLAY_STARTS = 20;

/** What the listener's session knows: its anonymous id and when it started recent episodes. */
export interface PlayListener {
  listenerId?: string;
  playStarts?: Record<string, number>;
}

export type RecordPlayResult =
  /** `remember`: the listener state the caller keeps in the listener's session, when it changed. */
  | { status: "counted" | "already-counted" | "started"; remember: Required<PlayListener> | null }
  | { status: "not-found" }
  | { status: "rate-limited"; retryAfterSeconds: number };

export interface PlayReport {
  /** Seconds of audio the listener really heard (the player adds up playback, not seeks). */
  heardSeconds: number;
}

/** The stored key for a listener and day: keyed with the session secret, so it cannot be traced back to a cookie. */
function listenerKey(listenerId: string, day: string): string {
  return createHmac("sha256", getConfig().sessionSecret!).update(`play:${listenerId}:${day}`).digest("hex");
}

/**
 * A play report from the player. The first report of an episode only notes
 * when this listener started it (and gives a cookie-less browser its
 * anonymous listener id, within a budget per address); a later report counts
 * the play once at least 30 s (or half of a shorter episode) were heard, as
 * reported and as the time since the start allows. Each listener counts each
 * episode once per day.
 */
export async function recordPlay(listener: PlayListener, episodeParam: string | undefined, clientIp: string, report: PlayReport): Promise<RecordPlayResult> {
  const episodeId = /^\d{1,9}$/.test(episodeParam ?? "") ? Number(episodeParam) : NaN;
  const episode = Number.isSafeInteger(episodeId) ? await getPublishedEpisode(episodeId) : null;
  if (!episode) return { status: "not-found" };

  const limit = await hitRateLimit(`plays:${clientIp}`, PLAY_LIMIT_PER_IP, PLAY_LIMIT_WINDOW_MS);
  if (!limit.allowed) return { status: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };

  let listenerId = listener.listenerId;
  if (!listenerId) {
    const budget = await hitRateLimit(`listener-ids:${clientIp}`, NEW_LISTENERS_PER_IP, NEW_LISTENERS_WINDOW_MS);
    if (!budget.allowed) return { status: "rate-limited", retryAfterSeconds: budget.retryAfterSeconds };
    listenerId = randomUUID();
  }
  const starts = { ...(listener.playStarts ?? {}) };
  const startedAt = starts[String(episodeId)];
  const now = Date.now();
  if (startedAt === undefined || now - startedAt > DAY_MS) {
    // Only the newest starts are kept, so the session stays small.
    const kept = Object.entries({ ...starts, [String(episodeId)]: now })
      .sort((a, b) => b[1] - a[1])
      .slice(0, KEPT_PLAY_STARTS);
    return { status: "started", remember: { listenerId, playStarts: Object.fromEntries(kept) } };
  }
  const needed = requiredSeconds(episode.durationSeconds);
  const heard = Number.isFinite(report.heardSeconds) ? report.heardSeconds : 0;
  if (!heardEnough(heard, episode.durationSeconds) || (now - startedAt) / 1000 < needed / MAX_PLAYBACK_RATE) return { status: "started", remember: null };
  const day = new Date(now).toISOString().slice(0, 10);
  const { count } = await db().episodePlay.createMany({
    data: [{ episodeId, listenerKey: listenerKey(listenerId, day) }],
    skipDuplicates: true,
  });
  return { status: count === 1 ? "counted" : "already-counted", remember: null };
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
