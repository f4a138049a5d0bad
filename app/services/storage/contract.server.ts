// What a storage backend is (folder or S3) and the one rule for keys, shared by both backends and
// by storage.server.ts, which picks one.

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
