import { db } from "~/services/db.server";
import { Mp3FrameReader, readMp3Frames, type Mp3Frame } from "~/services/mp3-frames.server";
import { collectBytes, getStorage } from "~/services/storage.server";
import { UpstreamMisbehaved } from "~/services/stream-metadata.server";

/*
 * Rewind: the live stream as it came from the station (MP3 frames, never re-encoded), cut
 * into segments of about SEGMENT_SECONDS at frame boundaries and kept for REWIND_HOURS.
 * Only the instance that follows now-playing (the advisory-lock holder) feeds the recorder,
 * so exactly one instance records; a new recorder (failover, restart) and a dropped source
 * start with a gap, which /live.m3u8 marks as a discontinuity instead of inventing silence.
 */

export const SEGMENT_SECONDS = 6;
// A source sends audio in real time, after a burst on connect (Icecast's default is 64 KB, seconds of
// audio; stations that raise it for mobile listeners stay well under two minutes): a connection whose
// audio runs further ahead of the clock than this is no live stream (it would fill storage and the
// rewind window with "the future" as fast as the network carries it), and is dropped.
const MAX_AHEAD_MS = 120_000;
const SEGMENT_PREFIX = "rewind/";
// Old segments are removed at most this often.
const PRUNE_EVERY_MS = 60_000;

export interface SegmentRow {
  sequence: number;
  startedAt: Date;
  durationMs: number;
  size: number;
  key: string;
  gapBefore: boolean;
  discontinuity: number;
}

export interface LiveRecorder {
  /** Audio bytes of the stream as they arrive (ICY metadata already taken out). */
  audio(chunk: Uint8Array): void;
  /** The connection ended: what follows is after a gap. */
  interrupted(): void;
  /** Writes out nothing more; waits for writes in flight. */
  close(): Promise<void>;
}

export interface RecorderOptions {
  rewindHours: number;
  log?: (line: string) => void;
  /** Called after each segment is stored (show archives look for ended airings then). */
  onSegment?: (segment: SegmentRow) => void;
  now?: () => number;
}

function segmentKey(startedAt: number, sequence: number): string {
  return `${SEGMENT_PREFIX}${startedAt}-${sequence}.mp3`;
}

/**
 * Records the stream into segments. Each segment's wall-clock start is where it sits in the
 * audio: within one connection segments follow each other exactly (program date-times stay
 * contiguous); a connection's first segment is placed by the earliest arrival the audio allows
 * (a server's burst on connect delivers seconds of the past at once).
 */
export function createLiveRecorder(options: RecorderOptions): LiveRecorder {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const reader = new Mp3FrameReader();
  let frames: Mp3Frame[] = [];
  let framesSeconds = 0;
  // Seconds of audio received on this connection, and when it started by the earliest evidence.
  let connectionSeconds = 0;
  let connectionStart = Infinity;
  let connectionFirstArrival = 0;
  // Seconds into the connection where the pending frames begin.
  let pendingFrom = 0;
  // The next segment follows a gap (a fresh recorder always does: nobody knows what came before).
  let gapNext = true;
  let previous: Pick<SegmentRow, "sequence" | "startedAt" | "durationMs" | "discontinuity"> | null | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;
  let lastPrune = 0;

  const lastSegment = async () => {
    if (previous === undefined) {
      previous = await db().rewindSegment.findFirst({
        orderBy: { sequence: "desc" },
        select: { sequence: true, startedAt: true, durationMs: true, discontinuity: true },
      });
    }
    return previous;
  };

  const write = async (data: Buffer, seconds: number, estimatedStart: number, gapBefore: boolean) => {
    const last = await lastSegment();
    const lastEnd = last ? last.startedAt.getTime() + last.durationMs : -Infinity;
    const startedAt = !gapBefore && last ? lastEnd : Math.max(Math.round(estimatedStart), lastEnd);
    const sequence = (last?.sequence ?? 0) + 1;
    const discontinuity = (last?.discontinuity ?? 0) + (gapBefore && last ? 1 : 0);
    const key = segmentKey(startedAt, sequence);
    const row: SegmentRow = {
      sequence,
      startedAt: new Date(startedAt),
      durationMs: Math.round(seconds * 1000),
      size: data.length,
      key,
      gapBefore,
      discontinuity,
    };
    await getStorage().put(key, data, "audio/mpeg");
    try {
      await db().rewindSegment.create({ data: row });
    } catch (error) {
      // Another recorder wrote this sequence (a failover overlapped): take back the object, start over from the database.
      await getStorage().remove(key);
      previous = undefined;
      throw error;
    }
    previous = row;
    options.onSegment?.(row);
  };

  const cut = (force: boolean) => {
    if (frames.length === 0 || (!force && framesSeconds < SEGMENT_SECONDS)) return;
    const data = Buffer.concat(frames.map((frame) => frame.data));
    const seconds = framesSeconds;
    const estimatedStart = connectionStart + pendingFrom * 1000;
    const gapBefore = gapNext;
    gapNext = false;
    pendingFrom += seconds;
    frames = [];
    framesSeconds = 0;
    writing = writing
      .then(() => write(data, seconds, estimatedStart, gapBefore))
      .catch((error: Error) => {
        gapNext = true;
        log(`Rewind: could not store a segment (${error.message})`);
      })
      .then(() => prune());
  };

  const prune = async () => {
    if (now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now();
    try {
      await pruneRewind(options.rewindHours, new Date(now()));
    } catch (error) {
      log(`Rewind: could not remove old segments (${(error as Error).message})`);
    }
  };

  return {
    audio(chunk) {
      if (closed) return;
      const arrived = now();
      if (connectionSeconds === 0 && connectionStart === Infinity) connectionFirstArrival = arrived;
      for (const frame of reader.push(chunk)) {
        frames.push(frame);
        const seconds = frame.samples / frame.sampleRate;
        framesSeconds += seconds;
        connectionSeconds += seconds;
        if (framesSeconds >= SEGMENT_SECONDS) {
          connectionStart = Math.min(connectionStart, arrived - connectionSeconds * 1000);
          cut(false);
        }
      }
      // Everything received so far had been produced by now: the connection's audio began no later than this.
      connectionStart = Math.min(connectionStart, arrived - connectionSeconds * 1000);
      if (connectionFirstArrival - connectionStart > MAX_AHEAD_MS) {
        throw new UpstreamMisbehaved(`audio ${Math.round((connectionFirstArrival - connectionStart) / 1000)} s ahead of the clock`);
      }
    },
    interrupted() {
      if (closed) return;
      cut(true);
      reader.reset();
      gapNext = true;
      connectionSeconds = 0;
      connectionStart = Infinity;
      pendingFrom = 0;
    },
    async close() {
      if (!closed) cut(true);
      closed = true;
      await writing;
    },
  };
}

/** Removes segments that ended before the window: first the object, then its row, so no object is left without a row. */
export async function pruneRewind(rewindHours: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - rewindHours * 3_600_000);
  const old = await db().rewindSegment.findMany({
    where: { startedAt: { lt: cutoff } },
    select: { sequence: true, key: true, durationMs: true, startedAt: true },
  });
  const expired = old.filter((segment) => segment.startedAt.getTime() + segment.durationMs <= cutoff.getTime());
  const storage = getStorage();
  for (const segment of expired) {
    await storage.remove(segment.key);
    await db().rewindSegment.delete({ where: { sequence: segment.sequence } });
  }
  return expired.length;
}

/** The segments in the window, oldest first. */
export function listRewindSegments(): Promise<SegmentRow[]> {
  return db().rewindSegment.findMany({ orderBy: { sequence: "asc" } });
}

/** One segment by its sequence number (null when it is gone or never was). */
export function getRewindSegment(sequence: number): Promise<SegmentRow | null> {
  return db().rewindSegment.findUnique({ where: { sequence } });
}

export interface RewindUsage {
  segments: number;
  bytes: number;
  oldest: Date | null;
  newest: Date | null;
}

/** What the rolling buffer holds (for the admin dashboard). */
export async function rewindUsage(): Promise<RewindUsage> {
  const result = await db().rewindSegment.aggregate({ _count: true, _sum: { size: true }, _min: { startedAt: true }, _max: { startedAt: true } });
  return { segments: result._count, bytes: result._sum.size ?? 0, oldest: result._min.startedAt, newest: result._max.startedAt };
}

// ---------------------------------------------------------------- HLS

// The PTS HLS packed audio carries in an ID3 PRIV frame at the start of each segment (90 kHz, 33 bits).
const TIMESTAMP_OWNER = "com.apple.streaming.transportStreamTimestamp";

/** The ID3 tag that tells HLS clients where a packed-audio segment sits on the timeline. */
export function segmentTimestampTag(startedAt: Date): Buffer {
  const pts = (BigInt(startedAt.getTime()) * 90n) % (1n << 33n);
  const owner = Buffer.from(`${TIMESTAMP_OWNER}\0`, "latin1");
  const ptsBytes = Buffer.alloc(8);
  ptsBytes.writeBigUInt64BE(pts);
  const body = Buffer.concat([owner, ptsBytes]);
  const frame = Buffer.alloc(10);
  frame.write("PRIV", 0, "latin1");
  frame.writeUInt32BE(body.length, 4);
  const tagSize = frame.length + body.length;
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, (tagSize >> 21) & 0x7f, (tagSize >> 14) & 0x7f, (tagSize >> 7) & 0x7f, tagSize & 0x7f]);
  return Buffer.concat([header, frame, body]);
}

export function segmentPath(sequence: number): string {
  return `/live/segment/${sequence}.mp3`;
}

/**
 * The window as an HLS media playlist: a sliding live window (no PLAYLIST-TYPE, no ENDLIST)
 * with the wall-clock time of every segment and a discontinuity wherever recording stopped.
 */
export function buildLivePlaylist(segments: SegmentRow[]): string {
  const target = Math.max(SEGMENT_SECONDS, ...segments.map((segment) => Math.ceil(segment.durationMs / 1000)));
  const first = segments[0];
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.sequence ?? 0}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${first?.discontinuity ?? 0}`,
  ];
  for (const [index, segment] of segments.entries()) {
    if (index > 0 && segment.gapBefore) lines.push("#EXT-X-DISCONTINUITY");
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${segment.startedAt.toISOString()}`);
    lines.push(`#EXTINF:${(segment.durationMs / 1000).toFixed(3)},`);
    lines.push(segmentPath(segment.sequence));
  }
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------- recordings of a time span

export interface RecordedSpan {
  /** Whole MP3 frames from `from` to `to`, as recorded. */
  audio: Buffer;
  seconds: number;
  /** Seconds of the span nothing was recorded for. */
  missingSeconds: number;
  /** Where a wall-clock moment falls in `audio` (seconds), for chapters. */
  offsetAt(at: Date): number;
}

/** The recording of [from, to) joined from the segments (frame by frame, nothing re-encoded); null when nothing was recorded. */
export async function readRecordedSpan(from: Date, to: Date): Promise<RecordedSpan | null> {
  const segments = await db().rewindSegment.findMany({
    where: { startedAt: { lt: to, gte: new Date(from.getTime() - 60_000) } },
    orderBy: { sequence: "asc" },
  });
  const storage = getStorage();
  const parts: Buffer[] = [];
  // Wall-clock start of each stretch of kept audio and where it begins in the joined file.
  const marks: { wall: number; offset: number }[] = [];
  let offset = 0;
  for (const segment of segments) {
    let frameWall = segment.startedAt.getTime();
    let bytes: Buffer;
    try {
      bytes = await collectBytes(await storage.read(segment.key));
    } catch {
      continue; // removed meanwhile: a gap
    }
    for (const frame of readMp3Frames(bytes)) {
      const seconds = frame.samples / frame.sampleRate;
      if (frameWall >= from.getTime() && frameWall < to.getTime()) {
        if (marks.length === 0 || Math.abs(marks[marks.length - 1].wall + (offset - marks[marks.length - 1].offset) * 1000 - frameWall) > 50) {
          marks.push({ wall: frameWall, offset });
        }
        parts.push(frame.data);
        offset += seconds;
      }
      frameWall += seconds * 1000;
    }
  }
  if (parts.length === 0) return null;
  const spanSeconds = (to.getTime() - from.getTime()) / 1000;
  return {
    audio: Buffer.concat(parts),
    seconds: offset,
    missingSeconds: Math.max(0, Math.round(spanSeconds - offset)),
    offsetAt(at) {
      const wall = at.getTime();
      let result = 0;
      for (const [index, mark] of marks.entries()) {
        if (wall < mark.wall) break;
        const nextOffset = marks[index + 1]?.offset ?? offset;
        result = Math.min(mark.offset + (wall - mark.wall) / 1000, nextOffset);
      }
      return result;
    },
  };
}
