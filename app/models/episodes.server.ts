import { Prisma, type StoredFile } from "~/generated/prisma/client";
import { pageScoped, type AdminHandler } from "~/services/admin-forms.server";
import { renderStationCover, stationCoverChecksum } from "~/services/artwork.server";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { needsListeningCopy } from "~/services/audio.server";
import { podcastFeedXml, type PodcastFeed } from "~/services/feeds.server";
import { publish } from "~/services/realtime.server";
import { getStorage } from "~/services/storage.server";
import type { StagedFile } from "~/services/temp-files.server";
import type { EpisodeFormPost } from "~/services/episode-form.server";
import { UploadError } from "~/services/uploads.server";
import { episodeSchema } from "~/utils/forms/episode";
import { keyedMessage, parseForm, type FormResult } from "~/utils/forms/form";
import { type Chapter } from "~/utils/transcript";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";
import { feedIdentity, stationEmail } from "./feed-identity.server";
import { commitFileChange, discardFileIfUnused, uploadAudio, uploadImage, uploadTranscript, type UploadedFile } from "./files.server";
import { enqueueListeningCopy } from "./listening-copies.server";
import { getStationIdentity } from "./station.server";
import { podcastLiveItems } from "./live-items.server";

// Messages are keyed (see keyedMessage): the route translates them for its reader.
const EPISODE_REFUSED = "forms.episodeRefused";

const fileSelect = {
  select: { id: true, key: true, contentType: true, size: true, width: true, height: true, variantWidths: true, artworkSize: true },
} as const;

const episodeSelect = {
  id: true,
  guid: true,
  title: true,
  description: true,
  durationSeconds: true,
  publishedAt: true,
  updatedAt: true,
  cover: fileSelect,
  audio: fileSelect,
  originalAudio: fileSelect,
  transcript: fileSelect,
  listeningReady: true,
  encodeProgress: true,
  encodeError: true,
  chapters: true,
  seasonNumber: true,
  episodeNumber: true,
  show: { select: { id: true, slug: true, name: true } },
  credits: {
    orderBy: { position: "asc" },
    select: { role: true, crewMember: { select: { id: true, name: true, image: fileSelect } } },
  },
} as const;

/** The condition for an episode listeners can see: its date has come and its listening copy exists. */
function publishedEpisodes(now = new Date()) {
  return { publishedAt: { lte: now }, listeningReady: true } satisfies Prisma.PodcastEpisodeWhereInput;
}

/** The same condition for an episode in hand: whether listeners may see it (and anonymous sockets hear of it). */
export function isPublicEpisode(episode: { publishedAt: Date; listeningReady: boolean }, now = new Date()): boolean {
  return episode.publishedAt.getTime() <= now.getTime() && episode.listeningReady;
}

export type Episode = Prisma.PodcastEpisodeGetPayload<{ select: typeof episodeSelect }>;

/** Every episode, scheduled ones included, newest publish date first (the admin list). */
export function listAllEpisodes(): Promise<Episode[]> {
  return db().podcastEpisode.findMany({ orderBy: [{ publishedAt: "desc" }, { id: "desc" }], select: episodeSelect });
}

/** A route parameter as an episode id, or null when it cannot be one. */
export function parseEpisodeId(value: string | undefined): number | null {
  if (!value || !/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

// ---------------------------------------------------------------- the admin form

export type EpisodeField =
  "title" | "description" | "publishedAt" | "audio" | "cover" | "transcript" | "chapters" | "seasonNumber" | "episodeNumber" | "credits" | "showId";
export type EpisodeFormErrors = Partial<Record<EpisodeField, string>>;

export interface EpisodeInput {
  title: string;
  description: string;
  publishedAt: Date;
  /** Null when editing and the audio stays as it is. An upload arrives staged on disk (see readEpisodeForm). */
  audio: Buffer | StagedFile | null;
  cover: Buffer | null;
  // The fields below are optional so callers that do not know them (scripts, older tests) leave them as they are.
  /** A new transcript file; null or absent keeps the current one (or none). */
  transcript?: Buffer | null;
  removeTranscript?: boolean;
  /** Null: no chapters. */
  chapters?: Chapter[] | null;
  seasonNumber?: number | null;
  episodeNumber?: number | null;
  /** Crew member ids credited as hosts, in order. */
  credits?: string[];
  /** The show the episode belongs to; null: none; absent: left as it is. */
  showId?: string | null;
}

function chaptersColumn(chapters: Chapter[] | null | undefined) {
  if (chapters === undefined) return {};
  return { chapters: chapters ? (chapters as unknown as Prisma.InputJsonArray) : Prisma.DbNull };
}

/** Checks the form with its schema. A new episode needs its audio and cover; the files' content is checked when stored. */
export function validateEpisode(post: EpisodeFormPost, editing: boolean): FormResult<EpisodeInput> {
  const check = parseForm(
    episodeSchema(editing, getConfig().stationTimezone),
    { ...post.fields, audio: post.files.audio, cover: post.files.cover },
    EPISODE_REFUSED,
  );
  // A file refused for its size says so, rather than that it is missing.
  if (!check.ok || Object.keys(post.errors).length > 0)
    return { ok: false, message: EPISODE_REFUSED, errors: { ...(check.ok ? {} : check.errors), ...post.errors } };
  const { audio: _audio, cover: _cover, showId, ...value } = check.value;
  return {
    ok: true,
    value: {
      ...value,
      audio: post.files.audio ?? null,
      cover: post.files.cover ?? null,
      transcript: post.files.transcript ?? null,
      ...(showId !== undefined ? { showId } : {}),
    },
  };
}

// ---------------------------------------------------------------- writes

export type SaveResult = { ok: true; episode: Episode } | { ok: false; errors: EpisodeFormErrors };

/**
 * Stores the new files (audio first: it is the likelier to be refused).
 * Returns field errors for files that fail their checks, with nothing left behind.
 */
async function uploadEpisodeFiles(
  input: EpisodeInput,
): Promise<{ ok: true; audio: UploadedFile | null; cover: UploadedFile | null; transcript: UploadedFile | null } | { ok: false; errors: EpisodeFormErrors }> {
  let audio: UploadedFile | null = null;
  let transcript: UploadedFile | null = null;
  try {
    if (input.audio) audio = await uploadAudio(input.audio, "audio");
  } catch (error) {
    if (error instanceof UploadError) return { ok: false, errors: { audio: error.message } };
    throw error;
  }
  try {
    if (input.transcript) transcript = await uploadTranscript(input.transcript, "transcripts");
  } catch (error) {
    if (audio) await discardFileIfUnused(audio);
    if (error instanceof UploadError) return { ok: false, errors: { transcript: error.message } };
    throw error;
  }
  try {
    // Covers also get the square JPEG podcast directories require.
    const cover = input.cover ? await uploadImage(input.cover, "covers", { artwork: true }) : null;
    return { ok: true, audio, cover, transcript };
  } catch (error) {
    await discardAll([audio, transcript]);
    if (error instanceof UploadError) return { ok: false, errors: { cover: error.message } };
    throw error;
  }
}

/** The audio columns for a new upload: a lossless file waits unpublished for its listening copy. */
function audioColumns(fileId: string, audio: UploadedFile) {
  const lossless = needsListeningCopy(audio.contentType);
  return {
    audioId: fileId,
    originalAudioId: lossless ? fileId : null,
    listeningReady: !lossless,
    encodeProgress: lossless ? 0 : 100,
    encodeError: null,
    durationSeconds: audio.durationSeconds ?? 0,
  };
}

/** Crew members that exist, in the order given (unknown ids are a field error, not a crash). */
async function creditRows(tx: Prisma.TransactionClient, ids: string[]) {
  if (ids.length === 0) return { ok: true as const, rows: [] as { crewMemberId: string; position: number; role: string }[] };
  const found = await tx.crewMember.findMany({ where: { id: { in: ids } }, select: { id: true } });
  if (found.length !== ids.length) return { ok: false as const };
  return { ok: true as const, rows: ids.map((crewMemberId, position) => ({ crewMemberId, position, role: "host" })) };
}

class CreditsRefused extends Error {}

function announce(action: "created" | "updated" | "deleted", episode: Pick<Episode, "id" | "publishedAt" | "listeningReady">) {
  // Cards on open pages show the newest episodes, so any change to one may change what they show.
  // Every anonymous socket hears this: it carries only what public pages show now (an episode
  // scheduled for later, or still being encoded, is not public, so not even its id goes out).
  publish("images:changed", { action, records: isPublicEpisode(episode) ? [{ kind: "episode", id: episode.id }] : [] });
}

async function discardAll(files: (Pick<StoredFile, "key" | "variantWidths"> | null | undefined)[]) {
  for (const file of files) if (file) await discardFileIfUnused(file);
}

class ShowRefused extends Error {}

async function requireShow(tx: Prisma.TransactionClient, showId: string | null | undefined): Promise<void> {
  if (showId && !(await tx.show.findUnique({ where: { id: showId }, select: { id: true } }))) throw new ShowRefused();
}

/** A show's published episodes, newest first (its page lists them). */
export function listShowEpisodes(showId: string, take = 50) {
  return db().podcastEpisode.findMany({
    where: { showId, ...publishedEpisodes() },
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take,
    select: {
      id: true,
      title: true,
      description: true,
      durationSeconds: true,
      publishedAt: true,
      cover: { select: { key: true, width: true, height: true, variantWidths: true } },
      audio: { select: { key: true, contentType: true } },
    },
  });
}

/** Upload → one transaction (files recorded, row written, change logged) → announce. */
export async function createEpisode(input: EpisodeInput, actor: AdminActor): Promise<SaveResult> {
  if (!input.audio || !input.cover) throw new Error("A new episode needs both its audio and its cover");
  const uploads = await uploadEpisodeFiles(input);
  if (!uploads.ok) return uploads;
  const { audio, cover, transcript } = uploads as { audio: UploadedFile; cover: UploadedFile; transcript: UploadedFile | null };
  let episode: Episode;
  try {
    episode = await commitFileChange([audio, cover, transcript], async (tx, [audioFile, coverFile, transcriptFile]) => {
      const credits = await creditRows(tx, input.credits ?? []);
      if (!credits.ok) throw new CreditsRefused();
      await requireShow(tx, input.showId);
      const created = await tx.podcastEpisode.create({
        data: {
          title: input.title,
          description: input.description,
          publishedAt: input.publishedAt,
          ...audioColumns(audioFile.id, audio),
          coverId: coverFile.id,
          transcriptId: transcriptFile?.id ?? null,
          ...chaptersColumn(input.chapters ?? null),
          seasonNumber: input.seasonNumber ?? null,
          episodeNumber: input.episodeNumber ?? null,
          showId: input.showId ?? null,
          credits: { create: credits.rows },
        },
        select: episodeSelect,
      });
      await logActivity(tx, actor, "episode.created", activityMessage("admin.activityEpisodeCreated", { title: created.title }));
      return { result: created, replaced: [] };
    });
  } catch (error) {
    if (error instanceof CreditsRefused) return { ok: false, errors: { credits: "forms.creditedCrewGone" } };
    if (error instanceof ShowRefused) return { ok: false, errors: { showId: "forms.showGone" } };
    throw error;
  }
  if (!episode.listeningReady) await enqueueListeningCopy(episode.id);
  announce("created", episode);
  return { ok: true, episode };
}

/** The episode was deleted while its new files were being stored. */
class EpisodeGone extends Error {}

/**
 * Changes an episode's text, date and optionally its files. Replaced files
 * are removed once the change committed and nothing else uses them.
 * Returns null when there is no such episode.
 */
export async function updateEpisode(id: number, input: EpisodeInput, actor: AdminActor): Promise<SaveResult | null> {
  if (!(await db().podcastEpisode.findUnique({ where: { id }, select: { id: true } }))) return null;
  const uploads = await uploadEpisodeFiles(input);
  if (!uploads.ok) return uploads;
  const { audio, cover, transcript } = uploads;
  let episode: Episode;
  try {
    episode = await commitFileChange([audio, cover, transcript], async (tx, [audioFile, coverFile, transcriptFile]) => {
      const previous = await tx.podcastEpisode.findUnique({ where: { id }, select: episodeSelect });
      if (!previous) throw new EpisodeGone();
      const credits = await creditRows(tx, input.credits ?? []);
      if (!credits.ok) throw new CreditsRefused();
      await requireShow(tx, input.showId);
      if (input.credits) await tx.episodeCredit.deleteMany({ where: { episodeId: id } });
      const updated = await tx.podcastEpisode.update({
        where: { id },
        data: {
          title: input.title,
          description: input.description,
          publishedAt: input.publishedAt,
          ...(audioFile && audio ? audioColumns(audioFile.id, audio) : {}),
          ...(coverFile ? { coverId: coverFile.id } : {}),
          ...(transcriptFile ? { transcriptId: transcriptFile.id } : input.removeTranscript ? { transcriptId: null } : {}),
          ...chaptersColumn(input.chapters),
          ...(input.seasonNumber !== undefined ? { seasonNumber: input.seasonNumber } : {}),
          ...(input.episodeNumber !== undefined ? { episodeNumber: input.episodeNumber } : {}),
          ...(input.showId !== undefined ? { showId: input.showId } : {}),
          ...(input.credits ? { credits: { create: credits.rows } } : {}),
        },
        select: episodeSelect,
      });
      await logActivity(tx, actor, "episode.updated", activityMessage("admin.activityEpisodeUpdated", { title: updated.title }));
      const gone = (file: Episode["audio"] | null) => (file && file.id !== updated.audio.id && file.id !== updated.originalAudio?.id ? file : null);
      return {
        result: updated,
        replaced: [
          audioFile ? gone(previous.audio) : null,
          audioFile ? gone(previous.originalAudio) : null,
          coverFile && coverFile.id !== previous.cover.id ? previous.cover : null,
          previous.transcript && previous.transcript.id !== updated.transcript?.id ? previous.transcript : null,
        ],
      };
    });
  } catch (error) {
    if (error instanceof EpisodeGone) return null;
    if (error instanceof CreditsRefused) return { ok: false, errors: { credits: "forms.creditedCrewGone" } };
    if (error instanceof ShowRefused) return { ok: false, errors: { showId: "forms.showGone" } };
    throw error;
  }
  if (!episode.listeningReady) await enqueueListeningCopy(episode.id);
  announce("updated", episode);
  return { ok: true, episode };
}

/** Deletes an episode and then its files, unless another row uses them. False when it did not exist. */
export async function deleteEpisode(id: number, actor: AdminActor): Promise<boolean> {
  const deleted = await db().$transaction(async (tx) => {
    const episode = await tx.podcastEpisode.findUnique({ where: { id }, select: episodeSelect });
    if (!episode) return null;
    await tx.podcastEpisode.delete({ where: { id } });
    await logActivity(tx, actor, "episode.deleted", activityMessage("admin.activityEpisodeDeleted", { title: episode.title }));
    return episode;
  });
  if (!deleted) return false;
  await discardAll([deleted.audio, deleted.cover, deleted.originalAudio, deleted.transcript]);
  announce("deleted", deleted);
  return true;
}

// ---------------------------------------------------------------- the podcast feed

/**
 * The podcast's RSS document: every published episode whose audio is
 * actually in storage (checked now, so podcast apps never get a dead enclosure),
 * with its exact stored byte length. Under a former public address it is a
 * redirect to the feed's new URL instead. The document itself is drawn by
 * services/feeds.server.ts.
 */
export async function buildPodcastFeed(requestUrl: string): Promise<PodcastFeed> {
  const identity = await feedIdentity(requestUrl);
  if (identity.redirectTo) return { redirectTo: identity.redirectTo };
  const episodes = await db().podcastEpisode.findMany({
    where: publishedEpisodes(),
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    select: episodeSelect,
  });
  const storage = getStorage();
  const stats = await Promise.all(episodes.map((episode) => storage.stat(episode.audio.key).catch(() => null)));
  const stored = episodes.flatMap((episode, index) => {
    const size = stats[index]?.size ?? 0;
    return size > 0 ? [{ ...episode, audioSize: size }] : [];
  });
  const xml = podcastFeedXml(
    {
      baseUrl: identity.baseUrl,
      station: getStationIdentity(),
      ownerEmail: await stationEmail(),
      guid: identity.guid,
      newFeedUrl: identity.newFeedUrl,
      liveItems: await podcastLiveItems(identity.baseUrl),
    },
    stored,
  );
  return { xml };
}

/** An episode's chapters as a Podcasting 2.0 JSON chapters document, or null (unpublished or none). */
export async function episodeChapters(id: number): Promise<{ version: string; chapters: Chapter[] } | null> {
  const episode = await db().podcastEpisode.findFirst({ where: { id, ...publishedEpisodes() }, select: { chapters: true } });
  if (!episode || !Array.isArray(episode.chapters) || episode.chapters.length === 0) return null;
  return { version: "1.2.0", chapters: episode.chapters as unknown as Chapter[] };
}

/** Which of chapters and a transcript a published episode has: the play page asks only for those (a 404 is a console error). */
export async function episodeMediaExtras(id: number): Promise<{ chapters: boolean; transcript: boolean }> {
  const episode = await db().podcastEpisode.findFirst({ where: { id, ...publishedEpisodes() }, select: { chapters: true, transcriptId: true } });
  return { chapters: Array.isArray(episode?.chapters) && episode.chapters.length > 0, transcript: Boolean(episode?.transcriptId) };
}

/** A published episode's transcript bytes and type, or null when it has none. */
export async function episodeTranscript(id: number): Promise<{ data: Buffer; contentType: string } | null> {
  const episode = await db().podcastEpisode.findFirst({ where: { id, ...publishedEpisodes() }, select: { transcript: fileSelect } });
  if (!episode?.transcript) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await getStorage().read(episode.transcript.key)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { data: Buffer.concat(chunks), contentType: episode.transcript.contentType };
}

// ---------------------------------------------------------------- podcast cards (listener pages)

export const cardSelect = {
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
  return cachedRead(`latestEpisodes:${limit}`, () =>
    db().podcastEpisode.findMany({
      where: { publishedAt: { lte: new Date() }, listeningReady: true },
      orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
      take: limit,
      select: cardSelect,
    }),
  );
}

export type EpisodeCard = Awaited<ReturnType<typeof listLatestEpisodes>>[number];

export function getPublishedEpisode(id: number) {
  return cachedRead(`publishedEpisode:${id}`, () =>
    db().podcastEpisode.findFirst({
      where: { id, publishedAt: { lte: new Date() }, listeningReady: true },
      select: cardSelect,
    }),
  );
}

/**
 * A published episode as its play page shows it: the card's fields, the show it belongs to and its
 * credited crew (linked to their profiles), in credit order.
 */
export function getEpisodePage(id: number) {
  return cachedRead(`episodePage:${id}`, () =>
    db().podcastEpisode.findFirst({
      where: { id, ...publishedEpisodes() },
      select: {
        ...cardSelect,
        show: { select: { slug: true, name: true } },
        credits: { orderBy: { position: "asc" }, select: { role: true, crewMember: { select: { id: true, name: true } } } },
      },
    }),
  );
}

// ---------------------------------------------------------------- card images (admin): each podcast card is an episode, its image the episode's cover

const coverSelect = { select: { key: true, width: true, height: true, variantWidths: true, checksum: true } } as const;

/** The cards as the admin pages manage them, with the audio each card plays. */
function listEpisodeCards(limit: number) {
  return cachedRead(`episodeCards:${limit}`, () =>
    db().podcastEpisode.findMany({
      where: { publishedAt: { lte: new Date() }, listeningReady: true },
      orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, title: true, publishedAt: true, cover: coverSelect, audio: { select: { id: true, key: true } } },
    }),
  );
}

/** The newest cards for the admin pages, each marked when it already shows the station artwork. */
export async function listCardImages(limit: number) {
  const [cards, stationChecksum] = await Promise.all([listEpisodeCards(limit), stationCoverChecksum(getStationIdentity())]);
  return cards.map(({ cover: { checksum, ...cover }, ...card }) => ({ ...card, cover, isStationCover: checksum === stationChecksum }));
}

export type CardImage = Awaited<ReturnType<typeof listCardImages>>[number];

async function switchCover(
  id: number,
  image: Buffer,
  actor: AdminActor,
  action: string,
  summary: "admin.activityCardImageReplaced" | "admin.activityCardImageDeleted",
) {
  const upload = await uploadImage(image, "covers", { artwork: true });
  const episode = await commitFileChange(upload, async (tx, file) => {
    const previous = await tx.podcastEpisode.findUnique({ where: { id }, select: { id: true, title: true, cover: coverSelect } });
    if (!previous) throw new UploadError("admin.cardGone");
    const updated = await tx.podcastEpisode.update({
      where: { id },
      data: { coverId: file!.id },
      select: { id: true, title: true, publishedAt: true, listeningReady: true, cover: coverSelect },
    });
    await logActivity(tx, actor, action, activityMessage(summary, { id: String(updated.id), title: updated.title }));
    return { result: updated, replaced: [previous.cover] };
  });
  // Anonymous sockets hear of a new cover only for an episode they may see (open pages refetch either way).
  const records = isPublicEpisode(episode) ? [{ kind: "episode-cover", episodeId: episode.id, image: episode.cover }] : [];
  publish("images:changed", { action: "updated", records });
  return episode;
}

/** Changes a card's image (the episode's cover). */
function replaceEpisodeCover(id: number, image: Buffer, actor: AdminActor) {
  return switchCover(id, image, actor, "card-image.replaced", "admin.activityCardImageReplaced");
}

/** Deletes a card's own image: the card falls back to the station's artwork, so it is never left without one. */
async function resetEpisodeCover(id: number, actor: AdminActor) {
  return switchCover(id, await renderStationCover(getStationIdentity()), actor, "card-image.deleted", "admin.activityCardImageDeleted");
}

// Episode ids are PostgreSQL integers: anything larger cannot name one (and would fail the query).
const MAX_EPISODE_ID = 2_147_483_647;

function cardEpisodeId(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0 || id > MAX_EPISODE_ID) throw new UploadError("admin.cardMissing");
  return id;
}

/** The card-image forms of /dashboard-admin and /cardlistmoreadmin: change, delete (back to the station artwork), add. */
export function cardImageHandlers(actor: AdminActor): Record<string, AdminHandler> {
  return {
    "replace-card-image": async ({ fields, files }) => {
      if (!files.image) return { ok: false, message: "forms.imageRequired", errors: { image: "forms.imageRequired" } };
      const card = await replaceEpisodeCover(cardEpisodeId(fields.id), files.image, actor);
      return { ok: true, message: keyedMessage("admin.cardImageChanged", { title: card.title }) };
    },
    "reset-card-image": pageScoped(async ({ fields }) => {
      const card = await resetEpisodeCover(cardEpisodeId(fields.id), actor);
      return { ok: true, message: keyedMessage("admin.cardImageDeleted", { title: card.title }) };
    }),
  };
}
