import { unstable_parseMultipartFormData, type UploadHandlerPart } from "@remix-run/node";
import sharp from "sharp";
import type { Prisma, StoredFile } from "~/generated/prisma/client";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { buildPodcastRss, type PodcastItem } from "~/services/feeds.server";
import { publish } from "~/services/realtime.server";
import { getStorage } from "~/services/storage.server";
import { readUrlEncoded } from "~/services/form-body.server";
import { formatBytes, MAX_AUDIO_BYTES, MAX_IMAGE_BYTES, UploadError } from "~/services/uploads.server";
import { mediaUrl } from "~/utils/media";
import { isPlainText } from "~/utils/plain-text";
import { fromDateTimeLocal } from "~/utils/time-zone";
import { logActivity, type AdminActor } from "./activity.server";
import { discardFileIfUnused, recordFile, uploadAudio, uploadImage, type UploadedFile } from "./files.server";
import { getStationIdentity, stationIconSvg } from "./station.server";

export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 4000;

const fileSelect = { select: { id: true, key: true, contentType: true, size: true, width: true, height: true, variantWidths: true } } as const;

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
} as const;

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

export type EpisodeField = "title" | "description" | "publishedAt" | "audio" | "cover";
export type EpisodeFormErrors = Partial<Record<EpisodeField, string>>;

export interface EpisodeInput {
  title: string;
  description: string;
  publishedAt: Date;
  /** Null when editing and the audio stays as it is. */
  audio: Buffer | null;
  cover: Buffer | null;
}

/** An episode form post: text fields, chosen files, and files refused for their size before they were kept. */
export interface EpisodeFormPost {
  fields: Record<string, string>;
  files: { audio?: Buffer; cover?: Buffer };
  errors: EpisodeFormErrors;
}

// Files are bounded by their own limits; text fields are short; anything else is refused unread.
const PART_LIMITS: Record<string, number> = { audio: MAX_AUDIO_BYTES, cover: MAX_IMAGE_BYTES };
const FIELD_LIMIT = 64 * 1024;
const MAX_PARTS = 20;
const TOO_LARGE: Record<"audio" | "cover", string> = {
  audio: `The audio file is too large; the limit is ${formatBytes(MAX_AUDIO_BYTES)}.`,
  cover: `The image is too large; the limit is ${formatBytes(MAX_IMAGE_BYTES)}.`,
};

export class EpisodeFormRefused extends Error {
  name = "EpisodeFormRefused";
}

async function readBounded(data: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    // Read on to the end of the part so the rest of the form arrives, keeping nothing.
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

/**
 * Reads the episode form (multipart with files, or urlencoded for deletes)
 * with bounded memory. Throws EpisodeFormRefused for a post that is not a
 * form this screen sends.
 */
export async function readEpisodeForm(request: Request): Promise<EpisodeFormPost> {
  const post: EpisodeFormPost = { fields: {}, files: {}, errors: {} };
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_AUDIO_BYTES + MAX_IMAGE_BYTES + FIELD_LIMIT) {
    throw new EpisodeFormRefused(`The upload is too large: audio may be up to ${formatBytes(MAX_AUDIO_BYTES)} and the cover up to ${formatBytes(MAX_IMAGE_BYTES)}.`);
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
    if (!isPlainText(value)) throw new EpisodeFormRefused(`The field ${name} contains characters that are not allowed (control characters or invalid UTF-8). Nothing was saved.`);
  }
  return post;
}

async function readEpisodeParts(request: Request, post: EpisodeFormPost, refuse: (message: string) => void): Promise<void> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) {
    if (!type.startsWith("application/x-www-form-urlencoded")) throw new Error("not a form");
    for (const [name, value] of await readUrlEncoded(request, { maxBytes: 1024 * 1024, maxFields: MAX_PARTS, maxFieldBytes: FIELD_LIMIT })) post.fields[name] = value;
    return;
  }
  let parts = 0;
  await unstable_parseMultipartFormData(request, async (part: UploadHandlerPart) => {
    if (++parts > MAX_PARTS || (part.filename !== undefined && part.name !== "audio" && part.name !== "cover")) {
      refuse(parts > MAX_PARTS ? "That form has too many fields." : "That form has an unexpected file.");
      await readBounded(part.data, 0);
      return undefined;
    }
    if (part.filename === undefined) {
      const bytes = await readBounded(part.data, FIELD_LIMIT);
      if (bytes === null) refuse(`The field ${part.name} is too long.`);
      else post.fields[part.name] = bytes.toString("utf8");
      return undefined;
    }
    const name = part.name as "audio" | "cover";
    const bytes = await readBounded(part.data, PART_LIMITS[name]);
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
  if (Object.keys(errors).length > 0 || !publishedAt) return { ok: false, errors };
  return { ok: true, input: { title, description, publishedAt, audio: post.files.audio ?? null, cover: post.files.cover ?? null } };
}

// ---------------------------------------------------------------- writes

export type SaveResult = { ok: true; episode: Episode } | { ok: false; errors: EpisodeFormErrors };

/**
 * Stores the new files (audio first: it is the likelier to be refused).
 * Returns field errors for files that fail their checks, with nothing left behind.
 */
async function uploadEpisodeFiles(
  input: EpisodeInput,
): Promise<{ ok: true; audio: UploadedFile | null; cover: UploadedFile | null } | { ok: false; errors: EpisodeFormErrors }> {
  let audio: UploadedFile | null = null;
  try {
    if (input.audio) audio = await uploadAudio(input.audio, "audio");
  } catch (error) {
    if (error instanceof UploadError) return { ok: false, errors: { audio: error.message } };
    throw error;
  }
  try {
    const cover = input.cover ? await uploadImage(input.cover, "covers") : null;
    return { ok: true, audio, cover };
  } catch (error) {
    if (audio) await discardFileIfUnused(audio);
    if (error instanceof UploadError) return { ok: false, errors: { cover: error.message } };
    throw error;
  }
}

function announce(action: "created" | "updated" | "deleted", episode: Pick<Episode, "id" | "publishedAt">) {
  // Cards on open pages show the newest episodes, so any change to one may change what they show.
  // Every anonymous socket hears this: it carries only what public pages show now (an episode
  // scheduled for later is not public, so not even its id goes out, let alone its title).
  const isPublic = episode.publishedAt.getTime() <= Date.now();
  publish("images:changed", { action, records: isPublic ? [{ kind: "episode", id: episode.id }] : [] });
}

async function discardAll(files: (Pick<StoredFile, "key" | "variantWidths"> | null)[]) {
  for (const file of files) if (file) await discardFileIfUnused(file);
}

/** Upload → one transaction (files recorded, row written, change logged) → announce. */
export async function createEpisode(input: EpisodeInput, actor: AdminActor): Promise<SaveResult> {
  if (!input.audio || !input.cover) throw new Error("A new episode needs both its audio and its cover");
  const uploads = await uploadEpisodeFiles(input);
  if (!uploads.ok) return uploads;
  const { audio, cover } = uploads as { audio: UploadedFile; cover: UploadedFile };
  let episode: Episode;
  try {
    episode = await db().$transaction(
      async (tx) => {
        const audioFile = await recordFile(tx, audio);
        const coverFile = await recordFile(tx, cover);
        const created = await tx.podcastEpisode.create({
          data: {
            title: input.title,
            description: input.description,
            publishedAt: input.publishedAt,
            durationSeconds: audio.durationSeconds ?? 0,
            audioId: audioFile.id,
            coverId: coverFile.id,
          },
          select: episodeSelect,
        });
        await logActivity(tx, actor, "episode.created", `Added the episode "${created.title}"`);
        return created;
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    await discardAll([audio, cover]);
    throw error;
  }
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
  const { audio, cover } = uploads;
  let outcome: { episode: Episode; replaced: (Episode["audio"] | null)[] } | null;
  try {
    outcome = await db().$transaction(
      async (tx) => {
        const previous = await tx.podcastEpisode.findUnique({ where: { id }, select: episodeSelect });
        if (!previous) return null;
        const audioFile = audio ? await recordFile(tx, audio) : null;
        const coverFile = cover ? await recordFile(tx, cover) : null;
        const episode = await tx.podcastEpisode.update({
          where: { id },
          data: {
            title: input.title,
            description: input.description,
            publishedAt: input.publishedAt,
            ...(audioFile && audio ? { audioId: audioFile.id, durationSeconds: audio.durationSeconds ?? previous.durationSeconds } : {}),
            ...(coverFile ? { coverId: coverFile.id } : {}),
          },
          select: episodeSelect,
        });
        await logActivity(tx, actor, "episode.updated", `Edited the episode "${episode.title}"`);
        return {
          episode,
          replaced: [
            audioFile && audioFile.id !== previous.audio.id ? previous.audio : null,
            coverFile && coverFile.id !== previous.cover.id ? previous.cover : null,
          ],
        };
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    await discardAll([audio, cover]);
    throw error;
  }
  if (!outcome) {
    await discardAll([audio, cover]);
    return null;
  }
  await discardAll(outcome.replaced);
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
  await discardAll([deleted.audio, deleted.cover]);
  announce("deleted", deleted);
  return true;
}

// ---------------------------------------------------------------- the podcast feed

// Apple Podcasts category for a campus station's talk shows.
const FEED_CATEGORY = { name: "Society & Culture" };
const FEED_LANGUAGE = "id";

/**
 * The podcast's RSS document: every published episode whose audio is
 * actually in storage (checked now, so podcast apps never get a dead enclosure),
 * with its exact stored byte length.
 */
export async function buildPodcastFeed(baseUrl: string): Promise<string> {
  const station = getStationIdentity();
  const episodes = await db().podcastEpisode.findMany({
    where: { publishedAt: { lte: new Date() } },
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    select: episodeSelect,
  });
  const storage = getStorage();
  const stats = await Promise.all(episodes.map((episode) => storage.stat(episode.audio.key).catch(() => null)));
  const items: PodcastItem[] = episodes.flatMap((episode, index) => {
    const stat = stats[index];
    if (!stat || stat.size === 0) return [];
    return [
      {
        guid: episode.guid,
        title: episode.title,
        description: episode.description,
        link: `${baseUrl}/play/${episode.id}`,
        publishedAt: episode.publishedAt,
        audio: { url: `${baseUrl}${mediaUrl(episode.audio)}`, length: stat.size, type: episode.audio.contentType },
        durationSeconds: episode.durationSeconds,
        imageUrl: `${baseUrl}${mediaUrl(episode.cover)}`,
      },
    ];
  });
  return buildPodcastRss(
    {
      title: station.name,
      description: station.tagline,
      link: `${baseUrl}/listen`,
      feedUrl: `${baseUrl}/podcast.xml`,
      language: FEED_LANGUAGE,
      imageUrl: station.logoUrl ?? `${baseUrl}/podcast-artwork.jpg`,
      author: station.name,
      ownerEmail: station.email,
      category: FEED_CATEGORY,
    },
    items,
  );
}

const ARTWORK_SIZE = 1400;
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
