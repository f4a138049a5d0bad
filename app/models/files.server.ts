import { createHash } from "node:crypto";
import type { Prisma, StoredFile } from "~/generated/prisma/client";
import { prepareAudio } from "~/services/audio.server";
import { db } from "~/services/db.server";
import { prepareImage } from "~/services/images.server";
import { getStorage } from "~/services/storage.server";
import { variantKey } from "~/utils/media";

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

function objectKeys(file: Pick<StoredFile, "key" | "variantWidths">): string[] {
  return [file.key, ...file.variantWidths.map((width) => variantKey(file.key, width))];
}

/** Checks and re-encodes an image, then writes it and its variants to storage. */
export async function uploadImage(input: Buffer, folder: string): Promise<UploadedFile> {
  const image = await prepareImage(input);
  const checksum = sha256(image.data);
  const key = contentKey(folder, checksum, "webp");
  const storage = getStorage();
  await Promise.all([
    storage.put(key, image.data, "image/webp"),
    ...image.variants.map((variant) => storage.put(variantKey(key, variant.width), variant.data, "image/webp")),
  ]);
  return {
    key,
    contentType: "image/webp",
    size: image.data.length,
    checksum,
    width: image.width,
    height: image.height,
    variantWidths: image.variants.map((variant) => variant.width),
  };
}

/** Checks an audio file (format by content, duration from the file) and writes it to storage. */
export async function uploadAudio(input: Buffer, folder: string): Promise<UploadedFile> {
  const audio = await prepareAudio(input);
  const checksum = sha256(audio.data);
  const key = contentKey(folder, checksum, audio.extension);
  await getStorage().put(key, audio.data, audio.contentType);
  return {
    key,
    contentType: audio.contentType,
    size: audio.data.length,
    checksum,
    width: null,
    height: null,
    variantWidths: [],
    durationSeconds: audio.durationSeconds,
  };
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
        },
      },
    },
  });
  return counts ? Object.values(counts._count).some((n) => n > 0) : false;
}

/**
 * Removes a file that nothing points at any more: its row first, then its
 * objects. A file still in use (or recorded by another row meanwhile) is left
 * alone. Never throws: a leftover object is only wasted space, and the orphan
 * sweeper collects it.
 */
export async function discardFileIfUnused(file: Pick<StoredFile, "key" | "variantWidths">): Promise<void> {
  try {
    const unused = await db().$transaction(async (tx) => {
      const row = await tx.storedFile.findUnique({ where: { key: file.key } });
      if (!row) return true;
      if (await isReferenced(tx, row.id)) return false;
      await tx.storedFile.delete({ where: { id: row.id } });
      return true;
    });
    if (!unused) return;
    const storage = getStorage();
    await Promise.all(objectKeys(file).map((key) => storage.remove(key)));
  } catch (error) {
    console.error(`Could not discard ${file.key}: ${(error as Error).message}`);
  }
}
