import { peekSingleton, setSingleton } from "./singleton.server";
import type { Storage, StorageOptions } from "./storage/contract.server";

// The contract every backend keeps (and the key rule they share) lives in ./storage/contract.server,
// which the backends import: they never import this module back.
export {
  assertSafeKey,
  assertSafeKeyPrefix,
  InvalidStorageKeyError,
  type S3StorageOptions,
  type Storage,
  type StorageOptions,
  type StoredObjectInfo,
} from "./storage/contract.server";

export async function createStorage(options: StorageOptions): Promise<Storage> {
  // Loaded lazily: the folder backend never loads the S3 client.
  if ("s3" in options) {
    const { createS3Storage } = await import("./storage/s3-storage.server");
    return createS3Storage(options.s3);
  }
  const { createFolderStorage } = await import("./storage/folder-storage.server");
  return createFolderStorage(options.dataDir);
}

/** The storage this process was started with (set once at boot). */
export function getStorage(): Storage {
  const storage = peekSingleton<Storage>("storage");
  if (!storage) throw new Error("Storage is not set up yet (setStorage was not called)");
  return storage;
}

export function setStorage(storage: Storage | undefined): void {
  setSingleton("storage", storage);
}

/**
 * A stored object's whole bytes, for small objects only (an image, a segment of a few seconds, an
 * archive's manifest): audio files are streamed, never read whole.
 */
export async function readStoredBytes(key: string): Promise<Buffer> {
  return collectBytes(await getStorage().read(key));
}

/** Every chunk of a stream in one buffer (small bodies only; see readStoredBytes). */
export async function collectBytes(body: AsyncIterable<Buffer | string | Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
