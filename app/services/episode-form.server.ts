import { keyedMessage } from "~/i18n/keyed";
import { TRANSCRIPT_UPLOAD } from "~/utils/forms/uploads";
import { isPlainText } from "~/utils/plain-text";
import { readMultipart, readPartBounded, readUrlEncoded } from "./form-body.server";
import { removeStaged, streamToTempFile, type StagedFile } from "./temp-files.server";
import { formatBytes, MAX_AUDIO_BYTES, MAX_IMAGE_BYTES } from "./uploads.server";

// Reading the episode screen's post is transport work, kept out of the episodes model: the model
// validates and stores what this hands it (validateEpisode, saveEpisode).

/**
 * An episode form post: text fields, chosen files, and files refused for their size before they
 * were kept. The audio is a temp file: `discardEpisodeForm` removes it once the post is handled.
 */
export interface EpisodeFormPost {
  fields: Record<string, string>;
  // Cover and transcript stay in memory: at most 10 MB and 2 MB, and sharp decodes the cover whole anyway.
  files: { audio?: StagedFile; cover?: Buffer; transcript?: Buffer };
  errors: Partial<Record<FilePart, string>>;
  /** True when a file was over its size limit (answered 413). */
  tooLarge: boolean;
}

/** Removes what reading the form staged on disk. Safe to call more than once. */
export async function discardEpisodeForm(post: EpisodeFormPost): Promise<void> {
  const audio = post.files.audio;
  delete post.files.audio;
  await removeStaged(audio);
}

// Files are bounded by their own limits; text fields are short; anything else is refused unread.
const MAX_TRANSCRIPT_BYTES = TRANSCRIPT_UPLOAD.maxBytes;
const PART_LIMITS: Record<string, number> = { audio: MAX_AUDIO_BYTES, cover: MAX_IMAGE_BYTES, transcript: MAX_TRANSCRIPT_BYTES };
const FIELD_LIMIT = 64 * 1024;
// Room for one "credits" checkbox per crew member.
const MAX_PARTS = 120;
const FILE_PARTS = new Set(["audio", "cover", "transcript"]);
type FilePart = "audio" | "cover" | "transcript";
const TOO_LARGE: Record<FilePart, string> = {
  audio: keyedMessage("forms.audioTooLarge", { limit: formatBytes(MAX_AUDIO_BYTES) }),
  cover: keyedMessage("forms.imageTooLarge", { limit: formatBytes(MAX_IMAGE_BYTES) }),
  transcript: keyedMessage("forms.transcriptTooLarge", { limit: formatBytes(MAX_TRANSCRIPT_BYTES) }),
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
 * with bounded memory: the audio streams to a temp file while it is counted
 * (over MAX_AUDIO_BYTES it is dropped at once) and hashed. Throws
 * EpisodeFormRefused for a post that is not a form this screen sends; the
 * caller removes the staged audio with `discardEpisodeForm` when done.
 */
export async function readEpisodeForm(request: Request): Promise<EpisodeFormPost> {
  const post: EpisodeFormPost = { fields: {}, files: {}, errors: {}, tooLarge: false };
  try {
    return await readEpisodeFormInto(request, post);
  } catch (error) {
    // Refused, cut off or failed: nothing it staged is kept.
    await discardEpisodeForm(post);
    throw error;
  }
}

async function readEpisodeFormInto(request: Request, post: EpisodeFormPost): Promise<EpisodeFormPost> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_AUDIO_BYTES + MAX_IMAGE_BYTES + FIELD_LIMIT) {
    throw new EpisodeFormRefused(keyedMessage("forms.uploadTooLarge", { audioLimit: formatBytes(MAX_AUDIO_BYTES), coverLimit: formatBytes(MAX_IMAGE_BYTES) }));
  }
  // Refusals wait for the end of the body: a browser shows an answer sent before its upload finished as a dropped connection.
  let refusal: string | null = null;
  try {
    await readEpisodeParts(request, post, (message) => (refusal ??= message));
  } catch (error) {
    // A Response is the 413 of a form over the limits (see readUrlEncoded).
    if (error instanceof Response) throw error;
    throw new EpisodeFormRefused(keyedMessage("forms.episodeFormUnreadable"));
  }
  if (refusal) throw new EpisodeFormRefused(refusal);
  for (const [name, value] of Object.entries(post.fields)) {
    if (!isPlainText(value)) throw new EpisodeFormRefused(keyedMessage("forms.episodeFieldNotPlainText", { name }));
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
  const { fields, refusal } = await readMultipart(request, {
    maxParts: MAX_PARTS,
    maxFieldBytes: FIELD_LIMIT,
    onFile: async (part) => {
      const name = part.name as FilePart;
      if (!FILE_PARTS.has(name) || post.files[name] || post.errors[name]) return "forms.unexpectedFile";
      if (name === "audio") {
        // Up to 200 MB: to disk, never whole in memory.
        const staged = await streamToTempFile(part.data, PART_LIMITS.audio);
        if (staged === null) {
          post.errors.audio = TOO_LARGE.audio;
          post.tooLarge = true;
        } else if (staged.size === 0) await removeStaged(staged);
        else post.files.audio = staged;
        return null;
      }
      const bytes = await readPartBounded(part.data, PART_LIMITS[name]);
      if (bytes === null) {
        post.errors[name] = TOO_LARGE[name];
        post.tooLarge = true;
      }
      // An empty file input still posts a nameless, empty part.
      else if (bytes.length > 0) post.files[name] = bytes;
      return null;
    },
  });
  for (const [name, value] of fields) addField(post, name, value);
  if (refusal) refuse(refusal);
}
