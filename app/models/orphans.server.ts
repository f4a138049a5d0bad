import { db } from "~/services/db.server";
import { getStorage } from "~/services/storage.server";
import { discardUnusedFiles, objectKeys } from "./files.server";

export interface SweepResult {
  /** StoredFile rows nothing pointed at (removed with their objects). */
  unusedFiles: number;
  /** Objects in storage that no StoredFile row recorded. */
  orphanedObjects: string[];
}

// A resized copy sits beside its image: images/abc-w640.webp belongs to images/abc.webp.
const VARIANT_SUFFIX = /-w\d+\.webp$/;

async function recordedObjectKeys(): Promise<Set<string>> {
  const files = await db().storedFile.findMany({ select: { key: true, variantWidths: true, artworkSize: true } });
  // The rewind buffer and show drafts are recorded by their own rows.
  const segments = await db().rewindSegment.findMany({ select: { key: true } });
  const drafts = await db().showRecording.findMany({ where: { audioKey: { not: null } }, select: { audioKey: true } });
  return new Set([
    ...files.flatMap(objectKeys),
    ...segments.map((segment) => segment.key),
    ...drafts.flatMap((draft) => (draft.audioKey ? [draft.audioKey] : [])),
  ]);
}

async function isRecorded(key: string): Promise<boolean> {
  const keys = VARIANT_SUFFIX.test(key) ? [key, key.replace(VARIANT_SUFFIX, ".webp")] : [key];
  if ((await db().rewindSegment.count({ where: { key } })) > 0 || (await db().showRecording.count({ where: { audioKey: key } })) > 0) return true;
  return (await db().storedFile.count({ where: { key: { in: keys } } })) > 0;
}

/**
 * Collects what a process killed in the middle of an upload or a change can
 * leave behind: StoredFile rows nothing points at, and objects no row
 * records. Objects younger than `graceMs` are left alone, because another
 * instance may have written them a moment ago and not yet committed the row
 * that records them (uploads write the object first, then the row).
 */
export async function sweepOrphans({ graceMs, now = Date.now() }: { graceMs: number; now?: number }): Promise<SweepResult> {
  const unusedFiles = await discardUnusedFiles();
  const storage = getStorage();
  const recorded = await recordedObjectKeys();
  const unrecorded: string[] = [];
  for await (const key of storage.list()) if (!recorded.has(key)) unrecorded.push(key);
  const orphanedObjects: string[] = [];
  for (const key of unrecorded) {
    const info = await storage.stat(key);
    if (!info || now - info.lastModified.getTime() < graceMs) continue;
    // Recorded since the snapshot above: an upload that just committed.
    if (await isRecorded(key)) continue;
    await storage.remove(key);
    orphanedObjects.push(key);
  }
  return { unusedFiles, orphanedObjects };
}
