import { open } from "node:fs/promises";
import { Client } from "minio";
import { assertSafeKey, assertSafeKeyPrefix, type S3StorageOptions, type Storage, type StoredObjectInfo } from "./contract.server";

const CHECK_TIMEOUT_MS = 5_000;
/** Files larger than this go up in parts of this size, one part in memory at a time (S3 allows parts from 5 MB). */
const PART_BYTES = 8 * 1024 * 1024;

/** Connects to an S3-compatible server (MinIO in production) and creates the bucket if missing. */
export async function createS3Storage(options: S3StorageOptions): Promise<Storage> {
  const endpoint = new URL(options.endpoint);
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") {
    throw new Error(`S3 endpoint must be an http(s) URL, got ${options.endpoint}`);
  }
  const useSSL = endpoint.protocol === "https:";
  const region = options.region ?? "us-east-1";
  const client = new Client({
    endPoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    // A known region spares a bucket-location request before the first call on each bucket.
    region,
    pathStyle: true,
  });
  const storage = new S3Storage(client, options.bucket);
  await storage.createBucketIfMissing(region);
  return storage;
}

class S3Storage implements Storage {
  readonly kind = "s3";

  constructor(
    private readonly client: Client,
    private readonly bucket: string,
  ) {}

  async createBucketIfMissing(region: string): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, region);
    } catch (error) {
      // Another instance created it between our check and our request.
      if (errorCode(error) !== "BucketAlreadyOwnedByYou") throw error;
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    await this.client.putObject(this.bucket, key, body, body.length, { "Content-Type": contentType });
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    assertSafeKey(key);
    const file = await open(filePath, "r");
    try {
      const { size } = await file.stat();
      const headers = { "Content-Type": contentType };
      if (size <= PART_BYTES) {
        await this.client.putObject(this.bucket, key, await file.readFile(), size, headers);
        return;
      }
      // Our own multipart upload rather than the client's: it would hold a 64 MB part in memory and
      // first look for an unfinished upload of the key to resume. S3 shows the object only once
      // the upload is completed; a failed one is aborted so its parts are not kept.
      const uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, headers);
      try {
        const parts: { part: number; etag: string }[] = [];
        const buffer = Buffer.alloc(PART_BYTES);
        for (let position = 0, part = 1; position < size; position += PART_BYTES, part++) {
          const { bytesRead } = await file.read(buffer, 0, Math.min(PART_BYTES, size - position), position);
          if (bytesRead === 0) throw new Error(`${filePath} became shorter while it was being stored`);
          const { etag } = await this.client.uploadPart(
            { bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: { "Content-Length": bytesRead } },
            buffer.subarray(0, bytesRead),
          );
          parts.push({ part, etag });
        }
        await this.client.completeMultipartUpload(this.bucket, key, uploadId, parts);
      } catch (error) {
        await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => {});
        throw error;
      }
    } finally {
      await file.close();
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    assertSafeKey(key);
    try {
      const { size, etag, lastModified } = await this.client.statObject(this.bucket, key);
      return { size, etag, lastModified };
    } catch (error) {
      if (isMissingObjectError(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    assertSafeKey(key);
    if (!range) return this.client.getObject(this.bucket, key);
    return this.client.getPartialObject(this.bucket, key, range.start, range.end - range.start + 1);
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (error) {
      if (!isMissingObjectError(error)) throw error;
    }
  }

  async *list(prefix = ""): AsyncIterable<string> {
    assertSafeKeyPrefix(prefix);
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      if (item.name) yield item.name;
    }
  }

  async check(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    // The client has no request timeout, and a health check must not hang on a silent host.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("S3 health check timed out")), CHECK_TIMEOUT_MS);
    });
    try {
      const exists = await Promise.race([this.client.bucketExists(this.bucket), timeout]);
      if (!exists) throw new Error(`S3 bucket ${this.bucket} does not exist`);
    } finally {
      clearTimeout(timer);
    }
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

function isMissingObjectError(error: unknown): boolean {
  const code = errorCode(error);
  return code === "NoSuchKey" || code === "NotFound";
}
