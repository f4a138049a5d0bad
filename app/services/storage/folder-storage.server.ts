import { randomUUID } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { access, copyFile, mkdir, open, opendir, rename, stat, unlink } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { assertSafeKey, assertSafeKeyPrefix, type Storage, type StoredObjectInfo } from "./contract.server";

/** Files live under `<dataDir>/files/<key>`; a key's "/" separators become subfolders. */
export async function createFolderStorage(dataDir: string): Promise<Storage> {
  const root = path.resolve(dataDir, "files");
  await mkdir(root, { recursive: true });
  return new FolderStorage(root);
}

class FolderStorage implements Storage {
  readonly kind = "folder";

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  // Content type is derived from the key's extension when serving, so it is not stored.
  async put(key: string, body: Buffer): Promise<void> {
    await this.writeAtomically(key, async (temp) => {
      const file = await open(temp, "wx");
      try {
        await file.writeFile(body);
        await file.datasync();
      } finally {
        await file.close();
      }
    });
  }

  async putFile(key: string, filePath: string): Promise<void> {
    await this.writeAtomically(key, async (temp) => {
      // The kernel copies (no bytes pass through this process), then the copy is flushed before it is renamed into place.
      await copyFile(filePath, temp, constants.COPYFILE_EXCL);
      const file = await open(temp, "r+");
      try {
        await file.datasync();
      } finally {
        await file.close();
      }
    });
  }

  /** Writes to a temp file beside the target, then renames it into place: readers see the old file or the whole new one. */
  private async writeAtomically(key: string, write: (temp: string) => Promise<void>): Promise<void> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    await mkdir(folder, { recursive: true });
    // Same folder as the target so rename is atomic; the leading dot keeps it out of list().
    const temp = path.join(folder, `.${path.basename(target)}.${randomUUID()}.tmp`);
    try {
      await write(temp);
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    try {
      const stats = await stat(this.pathOf(key));
      if (!stats.isFile()) return null;
      return {
        size: stats.size,
        // Every put renames a new file into place, so the inode changes even when size and mtime don't.
        etag: [stats.ino, stats.size, Math.floor(stats.mtimeMs)].map((n) => n.toString(16)).join("-"),
        lastModified: stats.mtime,
      };
    } catch (error) {
      if (isMissingPathError(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    const stream = createReadStream(this.pathOf(key), range);
    // Surface a missing file as a rejection here rather than as a later stream error.
    await once(stream, "open");
    return stream;
  }

  async remove(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if (!isMissingPathError(error)) throw error;
    }
  }

  async *list(prefix = ""): AsyncIterable<string> {
    assertSafeKeyPrefix(prefix);
    // Start at the deepest folder the prefix names instead of walking the whole tree.
    const folderKey = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    yield* walk(path.join(this.root, folderKey), folderKey, prefix);
  }

  async check(): Promise<void> {
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}

async function* walk(folder: string, keyPrefix: string, filter: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await opendir(folder);
  } catch (error) {
    if (isMissingPathError(error)) return;
    throw error;
  }
  for await (const entry of entries) {
    if (entry.name.startsWith(".")) continue; // uploads in progress
    const key = keyPrefix + entry.name;
    if (entry.isDirectory()) {
      if ((key + "/").startsWith(filter)) yield* walk(path.join(folder, entry.name), key + "/", filter);
    } else if (entry.isFile() && key.startsWith(filter)) {
      yield key;
    }
  }
}

function isMissingPathError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}
