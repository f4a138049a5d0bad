import { unstable_parseMultipartFormData, type UploadHandlerPart } from "@remix-run/node";
import sharp from "sharp";
import { Prisma, type StoredFile } from "~/generated/prisma/client";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { needsListeningCopy } from "~/services/audio.server";
import { buildPodcastRss, type PodcastItem } from "~/services/feeds.server";
import { publish } from "~/services/realtime.server";
import { getStorage } from "~/services/storage.server";
import { readPartBounded, readUrlEncoded } from "~/services/form-body.server";
import { formatBytes, MAX_AUDIO_BYTES, MAX_IMAGE_BYTES, UploadError } from "~/services/uploads.server";
import { artworkKey, mediaUrl } from "~/utils/media";
import { ChaptersError, parseChapters, type Chapter } from "~/utils/transcript";
import { isPlainText } from "~/utils/plain-text";
import { fromDateTimeLocal } from "~/utils/time-zone";
import { logActivity, type AdminActor } from "./activity.server";
import { feedIdentity, stationEmail } from "./feed-identity.server";
import { discardFileIfUnused, MAX_TRANSCRIPT_BYTES, recordFile, uploadAudio, uploadImage, uploadTranscript, type UploadedFile } from "./files.server";
import { enqueueListeningCopy } from "./listening-copies.server";
import { getStationIdentity, stationIconSvg } from "./station.server";

export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 4000;

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
  credits: {
    orderBy: { position: "asc" },
    select: { role: true, crewMember: { select: { id: true, name: true, image: fileSelect } } },
  },
} as const;

/** The condition for an episode listeners can see: its date has come and its listening copy exists. */
export function publishedEpisodes(now = new Date()) {
  return { publishedAt: { lte: now }, listeningReady: true } satisfies Prisma.PodcastEpisodeWhereInput;
}

export type Episode = Prisma.PodcastEpisodeGetPayload<{ select: typeof episodeSelect }>;

/** Every episode, scheduled ones included, newest publish date first (the admin list). */
export function listAllEpisodes(): Promise<Episode[]> {
  return db().podcastEpisode.findMany({ orderBy: [{ publishedAt: "desc" }, { id: "desc" }], select: episodeSelect });
}

export function getEpisode(id: number): Promise<Episode | null> {
  return db().podcastEpisode.findUnique({ where: { id }, select: episodeSelect });
}

/** A route parameter as an episode id, or null when it cannot be one. */
export function parseEpisodeId(value: string | undefined): number | null {
  if (!value || !/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

// ---------------------------------------------------------------- the admin form

export type EpisodeField =
  "title" | "description" | "publishedAt" | "audio" | "cover" | "transcript" | "chapters" | "seasonNumber" | "episodeNumber" | "credits";
export type EpisodeFormErrors = Partial<Record<EpisodeField, string>>;

export interface EpisodeInput {
  title: string;
  description: string;
  publishedAt: Date;
  /** Null when editing and the audio stays as it is. */
  audio: Buffer | null;
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
}

function chaptersColumn(chapters: Chapter[] | null | undefined) {
  if (chapters === undefined) return {};
  return { chapters: chapters ? (chapters as unknown as Prisma.InputJsonArray) : Prisma.DbNull };
}

/** An episode form post: text fields, chosen files, and files refused for their size before they were kept. */
export interface EpisodeFormPost {
  fields: Record<string, string>;
  files: { audio?: Buffer; cover?: Buffer; transcript?: Buffer };
  errors: EpisodeFormErrors;
}

// Files are bounded by their own limits; text fields are short; anything else is refused unread.
const PART_LIMITS: Record<string, number> = { audio: MAX_AUDIO_BYTES, cover: MAX_IMAGE_BYTES, transcript: MAX_TRANSCRIPT_BYTES };
const FIELD_LIMIT = 64 * 1024;
// Room for one "credits" checkbox per crew member.
const MAX_PARTS = 120;
const FILE_PARTS = new Set(["audio", "cover", "transcript"]);
type FilePart = "audio" | "cover" | "transcript";
const TOO_LARGE: Record<FilePart, string> = {
  audio: `The audio file is too large; the limit is ${formatBytes(MAX_AUDIO_BYTES)}.`,
  cover: `The image is too large; the limit is ${formatBytes(MAX_IMAGE_BYTES)}.`,
  transcript: `The transcript is too large; the limit is ${formatBytes(MAX_TRANSCRIPT_BYTES)}.`,
};
// A repeated field (one checkbox per credited crew member) is kept as a comma-separated list.
const LIST_FIELDS = new Set(["credits"]);

function addField(post: EpisodeFormPost, name: string, value: string) {
  post.fields[name] = LIST_FIELDS.has(name) && post.fields[name] ? `${post.fields[name]},${value}` : value;
}

export class EpisodeFormRefused extends Error {
  name = "EpisodeFormRefused";
}

/**
 * Reads the episode form (multipart with files, or urlencoded for deletes)
 * with bounded memory. Throws EpisodeFormRefused for a post that is not a
 * form this screen sends.
 */
export async function readEpisodeForm(request: Request): Promise<EpisodeFormPost> {
  const post: EpisodeFormPost = { fields: {}, files: {}, errors: {} };
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_AUDIO_BYTES + MAX_IMAGE_BYTES + FIELD_LIMIT) {
    throw new EpisodeFormRefused(
      `The upload is too large: audio may be up to ${formatBytes(MAX_AUDIO_BYTES)} and the cover up to ${formatBytes(MAX_IMAGE_BYTES)}.`,
    );
  }
  // Refusals wait for the end of the body: a browser shows an answer sent before its upload finished as a dropped connection.
  let refusal: string | null = null;
  try {
    await readEpisodeParts(request, post, (message) => (refusal ??= message));
  } catch (error) {
    // A Response is the 413 of a form over the limits (see readUrlEncoded).
    if (error instanceof Response) throw error;
    throw new EpisodeFormRefused("The form could not be read: it arrived incomplete or was not a form. Nothing was saved; please send it again.");
  }
  if (refusal) throw new EpisodeFormRefused(refusal);
  for (const [name, value] of Object.entries(post.fields)) {
    if (!isPlainText(value))
      throw new EpisodeFormRefused(`The field ${name} contains characters that are not allowed (control characters or invalid UTF-8). Nothing was saved.`);
  }
  return post;
}

async function readEpisodeParts(request: Request, post: EpisodeFormPost, refuse: (message: string) => void): Promise<void> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) {
    if (!type.startsWith("application/x-www-form-urlencoded")) throw new Error("not a form");
    for (const [name, value] of await readUrlEncoded(request, { maxBytes: 1024 * 1024, maxFields: MAX_PARTS, maxFieldBytes: FIELD_LIMIT }))
      addField(post, name, value);
    return;
  }
  let parts = 0;
  await unstable_parseMultipartFormData(request, async (part: UploadHandlerPart) => {
    if (++parts > MAX_PARTS || (part.filename !== undefined && !FILE_PARTS.has(part.name))) {
      refuse(parts > MAX_PARTS ? "That form has too many fields." : "That form has an unexpected file.");
      await readPartBounded(part.data, 0);
      return undefined;
    }
    if (part.filename === undefined) {
      const bytes = await readPartBounded(part.data, FIELD_LIMIT);
      if (bytes === null) refuse(`The field ${part.name} is too long.`);
      else addField(post, part.name, bytes.toString("utf8"));
      return undefined;
    }
    const name = part.name as FilePart;
    const bytes = await readPartBounded(part.data, PART_LIMITS[name]);
    if (bytes === null) post.errors[name] = TOO_LARGE[name];
    // An empty file input still posts a nameless, empty part.
    else if (bytes.length > 0) post.files[name] = bytes;
    return undefined;
  });
}

export type EpisodeCheck = { ok: true; input: EpisodeInput } | { ok: false; errors: EpisodeFormErrors };

/** Checks the form's values. A new episode needs its audio and cover; the files' content is checked when stored. */
export function validateEpisode(post: EpisodeFormPost, editing: boolean): EpisodeCheck {
  const title = (post.fields.title ?? "").trim();
  const description = (post.fields.description ?? "").trim();
  const errors: EpisodeFormErrors = { ...post.errors };
  if (!title) errors.title = "Enter the episode's title.";
  else if (title.length > TITLE_MAX_LENGTH) errors.title = `Keep the title under ${TITLE_MAX_LENGTH} characters.`;
  if (!description) errors.description = "Describe the episode in a sentence or two.";
  else if (description.length > DESCRIPTION_MAX_LENGTH) errors.description = `Keep the description under ${DESCRIPTION_MAX_LENGTH} characters.`;
  const publishedAt = fromDateTimeLocal(post.fields.publishedAt ?? "", getConfig().stationTimezone);
  if (!publishedAt) errors.publishedAt = "Choose the date and time the episode goes out.";
  if (!editing && !post.files.audio && !errors.audio) errors.audio = "Choose the episode's audio file (MP3, M4A or WAV).";
  if (!editing && !post.files.cover && !errors.cover) errors.cover = "Choose a cover image for the episode.";
  let chapters: Chapter[] | null = null;
  const chaptersText = (post.fields.chapters ?? "").trim();
  if (chaptersText) {
    try {
      chapters = parseChapters(chaptersText);
      if (chapters.length === 0) chapters = null;
    } catch (error) {
      if (!(error instanceof ChaptersError)) throw error;
      errors.chapters = error.message;
    }
  }
  const number = (field: "seasonNumber" | "episodeNumber", label: string): number | null => {
    const text = (post.fields[field] ?? "").trim();
    if (!text) return null;
    if (!/^\d{1,4}$/.test(text) || Number(text) < 1) {
      errors[field] = `The ${label} number is a whole number from 1 to 9999, or empty.`;
      return null;
    }
    return Number(text);
  };
  const seasonNumber = number("seasonNumber", "season");
  const episodeNumber = number("episodeNumber", "episode");
  const credits = [
    ...new Set(
      (post.fields.credits ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (credits.length > 50 || credits.some((id) => !/^[a-z0-9]{1,40}$/i.test(id))) errors.credits = "Choose the credited crew from the list.";
  if (Object.keys(errors).length > 0 || !publishedAt) return { ok: false, errors };
  return {
    ok: true,
    input: {
      title,
      description,
      publishedAt,
      audio: post.files.audio ?? null,
      cover: post.files.cover ?? null,
      transcript: post.files.transcript ?? null,
      removeTranscript: post.fields.removeTranscript === "on",
      chapters,
      seasonNumber,
      episodeNumber,
      credits,
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

function announce(action: "created" | "updated" | "deleted", episode: Pick<Episode, "id" | "publishedAt">) {
  // Cards on open pages show the newest episodes, so any change to one may change what they show.
  // Every anonymous socket hears this: it carries only what public pages show now (an episode
  // scheduled for later is not public, so not even its id goes out, let alone its title).
  const isPublic = episode.publishedAt.getTime() <= Date.now();
  publish("images:changed", { action, records: isPublic ? [{ kind: "episode", id: episode.id }] : [] });
}

async function discardAll(files: (Pick<StoredFile, "key" | "variantWidths"> | null | undefined)[]) {
  for (const file of files) if (file) await discardFileIfUnused(file);
}

/** Upload → one transaction (files recorded, row written, change logged) → announce. */
export async function createEpisode(input: EpisodeInput, actor: AdminActor): Promise<SaveResult> {
  if (!input.audio || !input.cover) throw new Error("A new episode needs both its audio and its cover");
  const uploads = await uploadEpisodeFiles(input);
  if (!uploads.ok) return uploads;
  const { audio, cover, transcript } = uploads as { audio: UploadedFile; cover: UploadedFile; transcript: UploadedFile | null };
  let episode: Episode;
  try {
    episode = await db().$transaction(
      async (tx) => {
        const credits = await creditRows(tx, input.credits ?? []);
        if (!credits.ok) throw new CreditsRefused();
        const audioFile = await recordFile(tx, audio);
        const coverFile = await recordFile(tx, cover);
        const transcriptFile = transcript ? await recordFile(tx, transcript) : null;
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
            credits: { create: credits.rows },
          },
          select: episodeSelect,
        });
        await logActivity(tx, actor, "episode.created", `Added the episode "${created.title}"`);
        return created;
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    await discardAll([audio, cover, transcript]);
    if (error instanceof CreditsRefused) return { ok: false, errors: { credits: "A credited crew member no longer exists: choose again." } };
    throw error;
  }
  if (!episode.listeningReady) await enqueueListeningCopy(episode.id);
  announce("created", episode);
  return { ok: true, episode };
}

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
  let outcome: { episode: Episode; replaced: (Episode["audio"] | null)[] } | null;
  try {
    outcome = await db().$transaction(
      async (tx) => {
        const previous = await tx.podcastEpisode.findUnique({ where: { id }, select: episodeSelect });
        if (!previous) return null;
        const credits = await creditRows(tx, input.credits ?? []);
        if (!credits.ok) throw new CreditsRefused();
        const audioFile = audio ? await recordFile(tx, audio) : null;
        const coverFile = cover ? await recordFile(tx, cover) : null;
        const transcriptFile = transcript ? await recordFile(tx, transcript) : null;
        if (input.credits) await tx.episodeCredit.deleteMany({ where: { episodeId: id } });
        const episode = await tx.podcastEpisode.update({
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
            ...(input.credits ? { credits: { create: credits.rows } } : {}),
          },
          select: episodeSelect,
        });
        await logActivity(tx, actor, "episode.updated", `Edited the episode "${episode.title}"`);
        const gone = (file: Episode["audio"] | null) => (file && file.id !== episode.audio.id && file.id !== episode.originalAudio?.id ? file : null);
        return {
          episode,
          replaced: [
            audioFile ? gone(previous.audio) : null,
            audioFile ? gone(previous.originalAudio) : null,
            coverFile && coverFile.id !== previous.cover.id ? previous.cover : null,
            previous.transcript && previous.transcript.id !== episode.transcript?.id ? previous.transcript : null,
          ],
        };
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    await discardAll([audio, cover, transcript]);
    if (error instanceof CreditsRefused) return { ok: false, errors: { credits: "A credited crew member no longer exists: choose again." } };
    throw error;
  }
  if (!outcome) {
    await discardAll([audio, cover, transcript]);
    return null;
  }
  await discardAll(outcome.replaced);
  if (!outcome.episode.listeningReady) await enqueueListeningCopy(outcome.episode.id);
  announce("updated", outcome.episode);
  return { ok: true, episode: outcome.episode };
}

/** Deletes an episode and then its files, unless another row uses them. False when it did not exist. */
export async function deleteEpisode(id: number, actor: AdminActor): Promise<boolean> {
  const deleted = await db().$transaction(async (tx) => {
    const episode = await tx.podcastEpisode.findUnique({ where: { id }, select: episodeSelect });
    if (!episode) return null;
    await tx.podcastEpisode.delete({ where: { id } });
    await logActivity(tx, actor, "episode.deleted", `Deleted the episode "${episode.title}"`);
    return episode;
  });
  if (!deleted) return false;
  await discardAll([deleted.audio, deleted.cover, deleted.originalAudio, deleted.transcript]);
  announce("deleted", deleted);
  return true;
}

// ---------------------------------------------------------------- the podcast feed

// Apple Podcasts category for a campus station's talk shows.
const FEED_CATEGORY = { name: "Society & Culture" };
const FEED_LANGUAGE = "id";

/** The URL of a stored image's square JPEG for podcast apps, or null when it has none. */
function artworkUrl(baseUrl: string, file: { key: string; artworkSize: number | null }): string | null {
  return file.artworkSize ? `${baseUrl}${mediaUrl({ key: artworkKey(file.key) })}` : null;
}

/** Where podcast apps fetch an episode's JSON chapters. */
export function chaptersPath(episodeId: number): string {
  return `/podcast/chapters/${episodeId}`;
}

export type PodcastFeed = { redirectTo: string } | { xml: string };

/**
 * The podcast's RSS document: every published episode whose audio is
 * actually in storage (checked now, so podcast apps never get a dead enclosure),
 * with its exact stored byte length. Under a former public address it is a
 * redirect to the feed's new URL instead.
 */
export async function buildPodcastFeed(requestUrl: string): Promise<PodcastFeed> {
  const identity = await feedIdentity(requestUrl);
  if (identity.redirectTo) return { redirectTo: identity.redirectTo };
  const baseUrl = identity.baseUrl;
  const station = getStationIdentity();
  const episodes = await db().podcastEpisode.findMany({
    where: publishedEpisodes(),
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    select: episodeSelect,
  });
  const storage = getStorage();
  const stats = await Promise.all(episodes.map((episode) => storage.stat(episode.audio.key).catch(() => null)));
  const items: PodcastItem[] = episodes.flatMap((episode, index) => {
    const stat = stats[index];
    if (!stat || stat.size === 0) return [];
    const transcriptType = episode.transcript?.contentType;
    return [
      {
        guid: episode.guid,
        title: episode.title,
        description: episode.description,
        link: `${baseUrl}/play/${episode.id}`,
        publishedAt: episode.publishedAt,
        audio: { url: `${baseUrl}${mediaUrl(episode.audio)}`, length: stat.size, type: episode.audio.contentType },
        durationSeconds: episode.durationSeconds,
        // Only the square JPEG: directories refuse WebP; without one the show's artwork applies.
        imageUrl: artworkUrl(baseUrl, episode.cover),
        transcript:
          episode.transcript && (transcriptType === "text/vtt" || transcriptType === "application/x-subrip")
            ? { url: `${baseUrl}${mediaUrl(episode.transcript)}`, type: transcriptType, language: FEED_LANGUAGE }
            : null,
        chaptersUrl: Array.isArray(episode.chapters) && episode.chapters.length > 0 ? `${baseUrl}${chaptersPath(episode.id)}` : null,
        people: episode.credits.map((credit) => ({
          name: credit.crewMember.name,
          role: credit.role,
          href: `${baseUrl}/CrewSpin`,
          img: artworkUrl(baseUrl, credit.crewMember.image),
        })),
        season: episode.seasonNumber,
        episode: episode.episodeNumber,
      },
    ];
  });
  const xml = buildPodcastRss(
    {
      title: station.name,
      description: station.tagline,
      link: `${baseUrl}/listen`,
      feedUrl: `${baseUrl}/podcast.xml`,
      language: FEED_LANGUAGE,
      // Always our own square JPEG: STATION_LOGO_URL may be any format or size.
      imageUrl: `${baseUrl}/podcast-artwork.jpg`,
      author: station.name,
      ownerEmail: await stationEmail(),
      category: FEED_CATEGORY,
      guid: identity.guid,
      newFeedUrl: identity.newFeedUrl,
    },
    items,
  );
  return { xml };
}

/** An episode's chapters as a Podcasting 2.0 JSON chapters document, or null (unpublished or none). */
export async function episodeChapters(id: number): Promise<{ version: string; chapters: Chapter[] } | null> {
  const episode = await db().podcastEpisode.findFirst({ where: { id, ...publishedEpisodes() }, select: { chapters: true } });
  if (!episode || !Array.isArray(episode.chapters) || episode.chapters.length === 0) return null;
  return { version: "1.2.0", chapters: episode.chapters as unknown as Chapter[] };
}

/** A published episode's transcript bytes and type, or null when it has none. */
export async function episodeTranscript(id: number): Promise<{ data: Buffer; contentType: string } | null> {
  const episode = await db().podcastEpisode.findFirst({ where: { id, ...publishedEpisodes() }, select: { transcript: fileSelect } });
  if (!episode?.transcript) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await getStorage().read(episode.transcript.key)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { data: Buffer.concat(chunks), contentType: episode.transcript.contentType };
}

// Directories take 1400-3000 px; the badge is vector art, so it renders sharp at the largest.
const ARTWORK_SIZE = 3000;
let artwork: { svg: string; jpeg: Promise<Buffer> } | null = null;

/** The show's artwork: the station badge as an opaque square JPEG (podcast apps reject SVG and transparency). */
export function podcastArtwork(): Promise<Buffer> {
  const svg = stationIconSvg();
  if (artwork?.svg !== svg) {
    const background = getStationIdentity().accentColor;
    const jpeg = sharp(Buffer.from(svg), { density: Math.ceil((72 * ARTWORK_SIZE) / 512) })
      .resize(ARTWORK_SIZE, ARTWORK_SIZE)
      .flatten({ background })
      .jpeg({ quality: 90 })
      .toBuffer();
    // A failed render is not remembered: the next request tries again.
    jpeg.catch(() => {
      if (artwork?.jpeg === jpeg) artwork = null;
    });
    artwork = { svg, jpeg };
  }
  return artwork.jpeg;
}
