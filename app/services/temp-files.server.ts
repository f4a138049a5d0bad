import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { getConfig } from "./config.server";

/*
 * Large files (episode audio up to 200 MB, listening copies) never sit whole in
 * memory: they stream to a file under DATA_DIR/tmp/uploads, counted and hashed
 * on the way, and stream from there into storage. Whoever stages a file
 * removes it, on success and on every failure; a server killed meanwhile
 * leaves them behind for `sweepTempFiles` at the next start.
 */

/** A file in the upload temp folder whose size and SHA-256 were counted while it was written. */
export interface StagedFile {
  path: string;
  size: number;
  /** Hex SHA-256 of the whole file (storage keys are content-addressed). */
  sha256: string;
  /** The file's first bytes (up to HEAD_BYTES), for checks by content. */
  head: Buffer;
}

export const HEAD_BYTES = 4096;

/** Where uploads are staged: inside DATA_DIR, so on the disk that has room for the station's files. */
export function uploadTempDir(): string {
  return path.join(getConfig().dataDir, "tmp", "uploads");
}

async function newTempPath(prefix: string): Promise<string> {
  const dir = uploadTempDir();
  await fs.mkdir(dir, { recursive: true });
  return path.join(dir, `${prefix}-${randomUUID()}`);
}

/**
 * Streams `data` into a new temp file, counting and hashing it as it arrives.
 * Returns null when it is larger than `limit`: the file is removed at once and
 * the rest of `data` is read but not kept, so the rest of a form still arrives.
 * When `data` fails (a client that went away), the file is removed and the error rethrown.
 */
export async function streamToTempFile(data: AsyncIterable<Uint8Array>, limit: number): Promise<StagedFile | null> {
  const filePath = await newTempPath("upload");
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  let file: fs.FileHandle | null = await fs.open(filePath, "wx");
  try {
    for await (const chunk of data) {
      size += chunk.length;
      if (file === null) continue;
      if (size > limit) {
        await file.close();
        file = null;
        await fs.rm(filePath, { force: true });
        continue;
      }
      if (headBytes < HEAD_BYTES) {
        const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - headBytes));
        head.push(part);
        headBytes += part.length;
      }
      hash.update(chunk);
      // Awaited chunk by chunk: the body is read no faster than the disk takes it.
      await file.write(chunk);
    }
    if (file === null) return null;
    await file.close();
    file = null;
    return { path: filePath, size, sha256: hash.digest("hex"), head: Buffer.concat(head) };
  } catch (error) {
    await file?.close().catch(() => {});
    await fs.rm(filePath, { force: true });
    throw error;
  }
}

/** Stages bytes already in memory (seed content, tests) the same way as an upload. */
export async function stageBuffer(data: Buffer): Promise<StagedFile> {
  return (await streamToTempFile(Readable.from([data]), Number.POSITIVE_INFINITY))!;
}

/** Describes a file that already exists (e.g. ffmpeg's output), reading it as a stream. The caller still owns the file. */
export async function stageExistingFile(filePath: string): Promise<StagedFile> {
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  for await (const chunk of createReadStream(filePath) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (headBytes < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - headBytes);
      head.push(part);
      headBytes += part.length;
    }
    hash.update(chunk);
  }
  return { path: filePath, size, sha256: hash.digest("hex"), head: Buffer.concat(head) };
}

export async function removeStaged(file: Pick<StagedFile, "path"> | null | undefined): Promise<void> {
  if (file) await fs.rm(file.path, { force: true });
}

/** Runs `work` with a fresh folder under the upload temp folder, removed afterwards whatever happened. */
export async function withTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await newTempPath(prefix);
  await fs.mkdir(dir);
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Removes staged files and folders older than `graceMs` (left by a process killed mid-upload). */
export async function sweepTempFiles(graceMs: number, now = Date.now()): Promise<number> {
  const dir = uploadTempDir();
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    const entry = path.join(dir, name);
    const stats = await fs.stat(entry).catch(() => null);
    if (!stats || now - stats.mtimeMs < graceMs) continue;
    await fs.rm(entry, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
