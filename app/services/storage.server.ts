import { peekSingleton, setSingleton } from "./singleton.server";
export interface StoredObjectInfo {
  size: number;
  /** Opaque validator without surrounding quotes; HTTP callers quote it. */
  etag: string;
  lastModified: Date;
}

export interface Storage {
  readonly kind: "folder" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Stores a file from the local disk as a stream (episode audio: never whole in memory).
   * Like `put`, the object appears whole or not at all.
   */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** Resolves to null when the key does not exist. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** `range.end` is inclusive. Rejects when the key does not exist. */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream>;
  /** Removing a missing key is not an error. */
  remove(key: string): Promise<void>;
  list(prefix?: string): AsyncIterable<string>;
  /** Throws when the backend is unreachable or unusable (for /healthz). */
  check(): Promise<void>;
}

export interface S3StorageOptions {
  /** e.g. `http://minio:9000` or `https://s3.example.com` */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
}

export type StorageOptions = { dataDir: string } | { s3: S3StorageOptions };

export class InvalidStorageKeyError extends Error {
  constructor(readonly key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 250))}`);
    this.name = "InvalidStorageKeyError";
  }
}

const MAX_KEY_LENGTH = 200;
// Segments start with [a-z0-9], so ".", ".." and hidden names (our temp files) can never be keys.
const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/;

/** The one rule for keys: they can never escape the storage folder or bucket. */
export function assertSafeKey(key: string): void {
  if (key.length > MAX_KEY_LENGTH || !SAFE_KEY.test(key)) throw new InvalidStorageKeyError(key);
}

/** A list prefix is empty, or a safe key optionally followed by "/". */
export function assertSafeKeyPrefix(prefix: string): void {
  if (prefix !== "") assertSafeKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
}

export async function createStorage(options: StorageOptions): Promise<Storage> {
  // Loaded lazily: the folder backend never loads the S3 client, and the backends can import
  // this module without an import cycle.
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
