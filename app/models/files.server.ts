import { createHash } from "node:crypto";
import type { Prisma, StoredFile } from "~/generated/prisma/client";
import { prepareAudio } from "~/services/audio.server";
import { db } from "~/services/db.server";
import { prepareImage } from "~/services/images.server";
import { errorText, logger } from "~/services/log.server";
import { recordUpload } from "~/services/metrics.server";
import { getStorage } from "~/services/storage.server";
import { TranscriptError, parseTranscript, TRANSCRIPT_TYPES } from "~/utils/transcript";
import { isPlainText } from "~/utils/plain-text";
import { removeStaged, stageBuffer, type StagedFile } from "~/services/temp-files.server";
import { formatBytes, StorageUnavailableError, UploadError } from "~/services/uploads.server";
import { keyedMessage } from "~/utils/forms/form";
import { TRANSCRIPT_UPLOAD } from "~/utils/forms/uploads";
import { artworkKey, variantKey } from "~/utils/media";

/**
 * A file already written to storage but not yet recorded in the database.
 * Writes go in this order: upload the object, record it in the same
 * transaction that points a row at it, then discard whatever it replaced.
 */
export interface UploadedFile {
  key: string;
  contentType: string;
  size: number;
  checksum: string;
  width: number | null;
  height: number | null;
  variantWidths: number[];
  artworkSize?: number | null;
  durationSeconds?: number;
}

type Tx = Prisma.TransactionClient;

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Keys are content-addressed: the same bytes always land on the same key. */
function contentKey(folder: string, checksum: string, extension: string): string {
  return `${folder}/${checksum.slice(0, 40)}.${extension}`;
}

/** Every storage object a file has: itself and its resized copies. */
export function objectKeys(file: Pick<StoredFile, "key" | "variantWidths"> & { artworkSize?: number | null }): string[] {
  return [file.key, ...file.variantWidths.map((width) => variantKey(file.key, width)), ...(file.artworkSize ? [artworkKey(file.key)] : [])];
}

/** Checks and re-encodes an image, then writes it and its variants to storage. */
export async function uploadImage(input: Buffer, folder: string, options: { artwork?: boolean } = {}): Promise<UploadedFile> {
  const image = await prepareImage(input, options);
  const checksum = sha256(image.data);
  const key = contentKey(folder, checksum, "webp");
  const storage = getStorage();
  const uploaded: UploadedFile = {
    key,
    contentType: "image/webp",
    size: image.data.length,
    checksum,
    width: image.width,
    height: image.height,
    variantWidths: image.variants.map((variant) => variant.width),
    artworkSize: image.artwork?.size ?? null,
  };
  const writes = await Promise.allSettled([
    storage.put(key, image.data, "image/webp"),
    ...(image.artwork ? [storage.put(artworkKey(key), image.artwork.data, "image/jpeg")] : []),
    ...image.variants.map((variant) => storage.put(variantKey(key, variant.width), variant.data, "image/webp")),
  ]);
  recordUpload("image");
  const failed = writes.find((write): write is PromiseRejectedResult => write.status === "rejected");
  if (failed) {
    // Half an image is no image: take back what was written, unless the same bytes are already in use.
    await discardFileIfUnused(uploaded);
    throw new StorageUnavailableError(failed.reason);
  }
  return uploaded;
}

/**
 * Checks an audio file (format by content, duration from the file) and streams it into storage.
 * Uploads arrive staged on disk (see readEpisodeForm); bytes in memory (seed content, tests) are
 * staged first, so there is one way audio is checked and stored. A staged file passed in stays
 * the caller's to remove.
 */
export async function uploadAudio(input: Buffer | StagedFile, folder: string): Promise<UploadedFile> {
  const staged = Buffer.isBuffer(input) ? await stageBuffer(input) : input;
  try {
    const audio = await prepareAudio(staged);
    const key = contentKey(folder, staged.sha256, audio.extension);
    await getStorage()
      .putFile(key, staged.path, audio.contentType)
      .catch((error: unknown) => {
        throw new StorageUnavailableError(error);
      });
    recordUpload("audio");
    return {
      key,
      contentType: audio.contentType,
      size: staged.size,
      checksum: staged.sha256,
      width: null,
      height: null,
      variantWidths: [],
      durationSeconds: audio.durationSeconds,
    };
  } finally {
    if (staged !== input) await removeStaged(staged);
  }
}

const MAX_TRANSCRIPT_BYTES = TRANSCRIPT_UPLOAD.maxBytes;

/** Checks a WebVTT or SRT transcript (UTF-8 text with valid cues) and writes it to storage. */
export async function uploadTranscript(input: Buffer, folder: string): Promise<UploadedFile> {
  if (input.length === 0) throw new UploadError("forms.transcriptEmpty");
  if (input.length > MAX_TRANSCRIPT_BYTES) throw new UploadError(keyedMessage("forms.transcriptTooLarge", { limit: formatBytes(MAX_TRANSCRIPT_BYTES) }));
  const text = input.toString("utf8");
  if (!isPlainText(text)) throw new UploadError("forms.transcriptNotUtf8");
  let format: "vtt" | "srt";
  try {
    format = parseTranscript(text).format;
  } catch (error) {
    if (error instanceof TranscriptError) throw new UploadError(error.message);
    throw error;
  }
  const checksum = sha256(input);
  const key = contentKey(folder, checksum, format);
  await getStorage()
    .put(key, input, TRANSCRIPT_TYPES[format])
    .catch((error: unknown) => {
      throw new StorageUnavailableError(error);
    });
  return { key, contentType: TRANSCRIPT_TYPES[format], size: input.length, checksum, width: null, height: null, variantWidths: [] };
}

/** The StoredFile row for an upload, inside the caller's transaction (reused when the bytes are known). */
export function recordFile(tx: Tx, file: UploadedFile): Promise<StoredFile> {
  const { durationSeconds: _duration, ...data } = file;
  return tx.storedFile.upsert({ where: { key: file.key }, create: data, update: {} });
}

async function isReferenced(tx: Tx, fileId: string): Promise<boolean> {
  const counts = await tx.storedFile.findUnique({
    where: { id: fileId },
    select: {
      _count: {
        select: {
          crewMembers: true,
          crewImages: true,
          eventPosters: true,
          siteImages: true,
          episodeCovers: true,
          episodeAudio: true,
          episodeOriginals: true,
          episodeTranscripts: true,
          showArtwork: true,
        },
      },
    },
  });
  return counts ? Object.values(counts._count).some((n) => n > 0) : false;
}

/**
 * Removes a file that nothing points at any more: its objects first, then its
 * row, while holding the row so nothing can start pointing at it meanwhile.
 * A file still in use is left alone. Never throws: when the objects cannot be
 * removed the row stays, so the file is still accounted for and
 * `discardUnusedFiles` retries it later.
 */
export async function discardFileIfUnused(file: Pick<StoredFile, "key" | "variantWidths"> & { artworkSize?: number | null }): Promise<void> {
  try {
    await db().$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<
          { id: string; artworkSize: number | null }[]
        >`SELECT "id", "artworkSize" FROM "StoredFile" WHERE "key" = ${file.key} FOR UPDATE`;
        const row = rows[0];
        if (row && (await isReferenced(tx, row.id))) return;
        const storage = getStorage();
        // Callers may not have selected artworkSize: the row knows whether there is an artwork copy.
        await Promise.all(objectKeys({ ...file, artworkSize: file.artworkSize ?? row?.artworkSize }).map((key) => storage.remove(key)));
        if (row) await tx.storedFile.delete({ where: { id: row.id } });
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    logger.error({ key: file.key, error: errorText(error) }, "Could not discard a stored file");
  }
}

/** The StoredFile rows no crew member, image slot, event, episode or show points at. */
export const UNREFERENCED_FILE = {
  crewMembers: { none: {} },
  crewImages: { none: {} },
  eventPosters: { none: {} },
  siteImages: { none: {} },
  episodeCovers: { none: {} },
  episodeAudio: { none: {} },
  episodeOriginals: { none: {} },
  episodeTranscripts: { none: {} },
  showArtwork: { none: {} },
} satisfies Prisma.StoredFileWhereInput;

/** Discards every recorded file that no row points at (leftovers of a removal that failed earlier). */
export async function discardUnusedFiles(): Promise<number> {
  const unused = await db().storedFile.findMany({
    where: UNREFERENCED_FILE,
    select: { key: true, variantWidths: true, artworkSize: true },
  });
  for (const file of unused) await discardFileIfUnused(file);
  return unused.length;
}

type FileChange<T> = { result: T; replaced: (Pick<StoredFile, "key" | "variantWidths"> | null)[] };
/** The recorded rows for a list of uploads: a row for each upload, null where there was none. */
type RecordedFiles<U extends readonly (UploadedFile | null)[]> = { [K in keyof U]: U[K] extends UploadedFile ? StoredFile : StoredFile | null };

/**
 * The one safe way to point rows at new uploads: `change` runs in a
 * transaction with the uploads recorded and returns the files it stopped
 * using. If it fails the new uploads are discarded and nothing changed; once
 * it committed, the replaced files are discarded. Takes one upload (or null)
 * or a list of them (an episode's audio, cover and transcript).
 */
export function commitFileChange<T>(upload: UploadedFile | null, change: (tx: Tx, file: StoredFile | null) => Promise<FileChange<T>>): Promise<T>;
export function commitFileChange<T, const U extends readonly (UploadedFile | null)[]>(
  uploads: U,
  change: (tx: Tx, files: RecordedFiles<U>) => Promise<FileChange<T>>,
): Promise<T>;
export async function commitFileChange<T>(
  uploadOrList: UploadedFile | null | readonly (UploadedFile | null)[],
  change: (tx: Tx, files: never) => Promise<FileChange<T>>,
): Promise<T> {
  const single = !Array.isArray(uploadOrList);
  const uploads = (single ? [uploadOrList] : uploadOrList) as (UploadedFile | null)[];
  let outcome: FileChange<T>;
  try {
    outcome = await db().$transaction(
      async (tx) => {
        const files: (StoredFile | null)[] = [];
        for (const upload of uploads) files.push(upload ? await recordFile(tx, upload) : null);
        return (change as (tx: Tx, files: unknown) => Promise<FileChange<T>>)(tx, single ? files[0] : files);
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    for (const upload of uploads) if (upload) await discardFileIfUnused(upload);
    throw error;
  }
  const kept = new Set(uploads.map((upload) => upload?.key));
  for (const file of outcome.replaced) if (file && !kept.has(file.key)) await discardFileIfUnused(file);
  await discardUnusedFiles();
  return outcome.result;
}
