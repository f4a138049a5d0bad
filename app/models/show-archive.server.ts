import { activityMessage, logActivity, SYSTEM_ACTOR, type AdminActor } from "~/models/activity.server";
import type { Prisma } from "~/generated/prisma/client";
import { serverI18n, stationTranslator } from "~/i18n/catalogs.server";
import type { MessageKey } from "~/i18n/keys";
import { translator, type Translator } from "~/i18n/translate";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { readMp3Frames } from "~/services/mp3-frames.server";
import { getStorage, readStoredBytes } from "~/services/storage.server";
import { MAX_CHAPTERS, type Chapter } from "~/utils/transcript";
import { podcastArtwork } from "~/services/artwork.server";
import type { ArchiveMode } from "~/utils/forms/recordings";
import { createEpisode } from "./episodes.server";
import { getStationIdentity } from "./station.server";
import { readRecordedSpan } from "./rewind.server";
import { listAirings } from "./schedule.server";
import { listSongsBetween } from "./song-history.server";

/*
 * Shows become episodes: when an airing of a show whose archive is "draft" or "publish" has
 * ended (plus its post-roll), a ShowRecording row is written for it. That row is the job: any
 * instance claims it, joins the recorded segments of the airing (MP3 frames, nothing
 * re-encoded), names the songs of the song history as chapters, and either publishes an
 * episode or keeps a draft an admin trims and publishes. A restart in between loses nothing:
 * unclaimed and abandoned rows are picked up again.
 */

// The archive settings' modes and limits are the recordings form's (app/utils/forms/recordings.ts).
export { ARCHIVE_MODES, MAX_ROLL_SECONDS, type ArchiveMode } from "~/utils/forms/recordings";

// The recorder stores a segment every few seconds: wait for the one holding the airing's last moment.
const SETTLE_MS = 15_000;
// A claim older than this belongs to an instance that died while building.
const ABANDONED_MS = 5 * 60_000;
const CHECK_EVERY_MS = 5_000;
const DRAFT_PREFIX = "recordings/";

/** Writes a row for every archived show's airing that ended within the window and has none yet. */
export async function queueEndedAirings(rewindHours: number, now = new Date()): Promise<number> {
  const shows = await db().show.findMany({ where: { archive: { not: "off" } }, select: { id: true, archivePostrollSeconds: true } });
  if (shows.length === 0) return 0;
  const postroll = new Map(shows.map((show) => [show.id, show.archivePostrollSeconds]));
  const windowStart = new Date(now.getTime() - rewindHours * 3_600_000);
  const airings = await listAirings(new Date(windowStart.getTime() - 24 * 3_600_000), now);
  const ended = airings.filter((airing) => {
    const post = postroll.get(airing.showId);
    return post !== undefined && airing.end > windowStart && airing.end.getTime() + post * 1000 + SETTLE_MS <= now.getTime();
  });
  if (ended.length === 0) return 0;
  const { count } = await db().showRecording.createMany({
    data: ended.map((airing) => ({ showId: airing.showId, airingStart: airing.start, airingEnd: airing.end })),
    skipDuplicates: true,
  });
  return count;
}

/** Claims one row to build (pending, or abandoned by an instance that died); null when there is none. */
async function claimRecording(now: Date) {
  const candidate = await db().showRecording.findFirst({
    where: { OR: [{ status: "pending" }, { status: "building", updatedAt: { lt: new Date(now.getTime() - ABANDONED_MS) } }] },
    orderBy: { airingEnd: "asc" },
    select: { id: true, status: true, updatedAt: true },
  });
  if (!candidate) return null;
  const { count } = await db().showRecording.updateMany({
    where: { id: candidate.id, status: candidate.status, updatedAt: candidate.updatedAt },
    data: { status: "building" },
  });
  return count === 1 ? candidate.id : null;
}

function airingDate(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: getConfig().stationTimezone }).format(date);
}

/** The song history of [from, to) as chapters of a recording (the song already playing at `from` opens it). */
async function chaptersFor(from: Date, to: Date, offsetAt: (at: Date) => number): Promise<Chapter[]> {
  const [before] = await listSongsBetween({ from: null, to: new Date(from.getTime() + 1), limit: 1 });
  const during = (await listSongsBetween({ from: new Date(from.getTime() + 1), to, limit: MAX_CHAPTERS })).reverse();
  const chapters: Chapter[] = [];
  if (before) chapters.push({ startTime: 0, title: before.raw });
  for (const song of during) {
    const startTime = Math.round(offsetAt(new Date(song.playedAt)) * 10) / 10;
    // Two titles at the same moment (a gap swallowed one): the later one is what was heard.
    if (chapters.length > 0 && chapters[chapters.length - 1].startTime >= startTime) chapters.pop();
    chapters.push({ startTime, title: song.raw });
  }
  if (chapters.length > 0) chapters[0].startTime = 0;
  return chapters.slice(0, MAX_CHAPTERS);
}

type RecordingShow = Prisma.ShowGetPayload<{ select: typeof showSelect }>;
const showSelect = {
  id: true,
  name: true,
  artwork: { select: { key: true } },
  description: true,
  archive: true,
  archivePrerollSeconds: true,
  archivePostrollSeconds: true,
  hosts: { select: { crewMemberId: true }, orderBy: { position: "asc" } },
} satisfies Prisma.ShowSelect;

function describe(show: RecordingShow, airingStart: Date, missingSeconds: number, { t, locale }: Translator): string {
  const text = show.description.trim() || t("schedule.archiveDescription", { show: show.name, date: airingDate(airingStart, locale) });
  return missingSeconds >= 5 ? `${text}\n\n${t("schedule.archiveMissing", { seconds: missingSeconds })}` : text;
}

/** The show's own artwork as the episode's cover, or the station's when the show has none. */
async function showCover(show: RecordingShow): Promise<Buffer> {
  if (show.artwork) {
    try {
      return await readStoredBytes(show.artwork.key);
    } catch {
      // Gone from storage meanwhile: the station's artwork still makes a valid episode.
    }
  }
  return podcastArtwork(getStationIdentity());
}

async function publishAsEpisode(
  recording: { id: string; airingStart: Date; missingSeconds: number },
  show: RecordingShow,
  audio: Buffer,
  chapters: Chapter[],
  actor: AdminActor,
): Promise<number> {
  const station = stationTranslator();
  const result = await createEpisode(
    {
      title: `${show.name} — ${airingDate(recording.airingStart, station.locale)}`,
      description: describe(show, recording.airingStart, recording.missingSeconds, station),
      publishedAt: new Date(),
      audio,
      cover: await showCover(show),
      chapters: chapters.length > 0 ? chapters : null,
      credits: show.hosts.map((host) => host.crewMemberId),
      showId: show.id,
    },
    actor,
  );
  if (!result.ok) throw new Error(Object.values(result.errors).join(" "));
  return result.episode.id;
}

/** A failed recording's error when the stream was down all along (the admin page shows it translated). */
export const NOTHING_RECORDED = "Nothing was recorded while this show was on air.";

/** Builds one claimed recording into an episode or a draft. */
async function buildRecording(id: string): Promise<void> {
  const recording = await db().showRecording.findUniqueOrThrow({ where: { id }, include: { show: { select: showSelect } } });
  const show = recording.show;
  const from = new Date(recording.airingStart.getTime() - show.archivePrerollSeconds * 1000);
  const to = new Date(recording.airingEnd.getTime() + show.archivePostrollSeconds * 1000);
  const span = await readRecordedSpan(from, to);
  if (!span) {
    await db().showRecording.update({ where: { id }, data: { status: "failed", error: NOTHING_RECORDED } });
    return;
  }
  const chapters = await chaptersFor(from, to, span.offsetAt);
  const common = { durationMs: Math.round(span.seconds * 1000), missingSeconds: span.missingSeconds, chapters: chapters as unknown as Prisma.InputJsonArray };
  if (show.archive === "publish") {
    const episodeId = await publishAsEpisode({ ...recording, missingSeconds: span.missingSeconds }, show, span.audio, chapters, SYSTEM_ACTOR);
    await db().showRecording.update({ where: { id }, data: { ...common, status: "published", episodeId, error: null } });
    return;
  }
  const audioKey = `${DRAFT_PREFIX}${id.toLowerCase()}.mp3`;
  await getStorage().put(audioKey, span.audio, "audio/mpeg");
  await db().showRecording.update({ where: { id }, data: { ...common, status: "draft", audioKey, error: null } });
}

/** Queues ended airings and builds what is waiting; returns how many were built. */
export async function runShowArchiver(rewindHours: number, now = new Date(), log: (line: string) => void = () => {}): Promise<number> {
  await queueEndedAirings(rewindHours, now);
  let built = 0;
  for (let id = await claimRecording(now); id; id = await claimRecording(now)) {
    try {
      await buildRecording(id);
      built += 1;
    } catch (error) {
      log(`Show archive: could not build a recording (${(error as Error).message})`);
      await db()
        .showRecording.update({ where: { id }, data: { status: "failed", error: (error as Error).message.slice(0, 500) } })
        .catch(() => {});
    }
  }
  return built;
}

/**
 * Looks for ended airings every few seconds; returns the stop function. `rewindHours` is asked each
 * round (an admin may change it in the settings); with 0 nothing is recorded, so nothing is archived.
 */
export function startShowArchiver({ rewindHours, log }: { rewindHours: () => number; log: (line: string) => void }): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    const hours = rewindHours();
    running = running.then(() => (stopped || hours === 0 ? 0 : runShowArchiver(hours, new Date(), log).catch(() => 0)));
  }, CHECK_EVERY_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}

// ---------------------------------------------------------------- settings

export function listShowArchiveSettings() {
  return db().show.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, archive: true, archivePrerollSeconds: true, archivePostrollSeconds: true },
  });
}

/** Sets what becomes of a show's airings; false when there is no such show. */
export async function setShowArchive(
  showId: string,
  settings: { archive: ArchiveMode; prerollSeconds: number; postrollSeconds: number },
  actor: AdminActor,
): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const { count } = await tx.show.updateMany({
      where: { id: showId },
      data: { archive: settings.archive, archivePrerollSeconds: settings.prerollSeconds, archivePostrollSeconds: settings.postrollSeconds },
    });
    if (count === 0) return false;
    const show = await tx.show.findUniqueOrThrow({ where: { id: showId }, select: { name: true } });
    const logged = ({ off: "admin.activityShowArchiveOff", draft: "admin.activityShowArchiveDraft", publish: "admin.activityShowArchivePublish" } as const)[
      settings.archive
    ];
    await logActivity(tx, actor, "show.archive", activityMessage(logged, { show: show.name }));
    return true;
  });
}

// ---------------------------------------------------------------- drafts

export function listShowRecordings() {
  return db().showRecording.findMany({
    orderBy: { airingStart: "desc" },
    take: 100,
    select: {
      id: true,
      status: true,
      airingStart: true,
      airingEnd: true,
      durationMs: true,
      missingSeconds: true,
      trimStartSeconds: true,
      trimEndSeconds: true,
      episodeId: true,
      error: true,
      audioKey: true,
      showId: true,
      show: { select: { name: true, slug: true } },
    },
  });
}

/** A refusal to publish a draft: its message key (the route translates it), English as the message. */
export class RecordingError extends Error {
  name = "RecordingError";
  constructor(readonly key: MessageKey) {
    super(translator(serverI18n("en")).t(key));
  }
}

const NOT_A_DRAFT = "schedule.notADraft";

/** Publishes a draft, cut by `trimStart` and `trimEnd` seconds (frame-exact, nothing re-encoded). */
export async function publishDraft(id: string, trim: { start: number; end: number }, actor: AdminActor): Promise<number> {
  const recording = await db().showRecording.findUnique({ where: { id }, include: { show: { select: showSelect } } });
  if (!recording || recording.status !== "draft" || !recording.audioKey) throw new RecordingError(NOT_A_DRAFT);
  const seconds = recording.durationMs / 1000;
  if (trim.start < 0 || trim.end < 0 || trim.start + trim.end >= seconds - 1) throw new RecordingError("schedule.trimTooMuch");
  // One publish per draft: a second click (or a second admin) meanwhile finds it taken.
  const { count } = await db().showRecording.updateMany({ where: { id, status: "draft" }, data: { status: "publishing" } });
  if (count === 0) throw new RecordingError(NOT_A_DRAFT);
  try {
    return await publishClaimedDraft({ ...recording, audioKey: recording.audioKey }, seconds, trim, actor);
  } catch (error) {
    await db()
      .showRecording.update({ where: { id }, data: { status: "draft" } })
      .catch(() => {});
    throw error;
  }
}

async function publishClaimedDraft(
  recording: Prisma.ShowRecordingGetPayload<{ include: { show: { select: typeof showSelect } } }> & { audioKey: string },
  seconds: number,
  trim: { start: number; end: number },
  actor: AdminActor,
): Promise<number> {
  const id = recording.id;
  const chunks: Buffer[] = [];
  for await (const chunk of await getStorage().read(recording.audioKey)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  const kept: Buffer[] = [];
  let at = 0;
  for (const frame of readMp3Frames(Buffer.concat(chunks))) {
    if (at >= trim.start && at < seconds - trim.end) kept.push(frame.data);
    at += frame.samples / frame.sampleRate;
  }
  const all = (Array.isArray(recording.chapters) ? recording.chapters : []) as unknown as Chapter[];
  const chapters: Chapter[] = [];
  for (const chapter of all) {
    const startTime = Math.round((chapter.startTime - trim.start) * 10) / 10;
    if (startTime >= seconds - trim.start - trim.end) continue;
    if (startTime <= 0) chapters.splice(0, chapters.length, { ...chapter, startTime: 0 });
    else chapters.push({ ...chapter, startTime });
  }
  const episodeId = await publishAsEpisode(recording, recording.show, Buffer.concat(kept), chapters, actor);
  await db().showRecording.update({
    where: { id },
    data: { status: "published", episodeId, trimStartSeconds: Math.round(trim.start), trimEndSeconds: Math.round(trim.end), audioKey: null },
  });
  await getStorage().remove(recording.audioKey);
  return episodeId;
}

/** Throws a draft away (its audio with it). */
export async function discardDraft(id: string): Promise<void> {
  const recording = await db().showRecording.findUnique({ where: { id }, select: { audioKey: true, status: true } });
  if (!recording || recording.status !== "draft") return;
  await db().showRecording.update({ where: { id }, data: { status: "discarded", audioKey: null } });
  if (recording.audioKey) await getStorage().remove(recording.audioKey);
}
