/**
 * MPEG audio (MP1/MP2/MP3) frames read out of a byte stream, so a live stream can be cut
 * into segments and joined again without re-encoding: every piece starts on a frame header
 * and holds only whole frames. Tags (ID3v2 at the start of a stream, the Xing/Info header
 * frame encoders write first) and bytes that are not frames are dropped.
 */

export interface FrameHeader {
  /** Bytes in the frame, header included. */
  length: number;
  /** Samples per channel the frame decodes to. */
  samples: number;
  sampleRate: number;
  /** kbit/s */
  bitrate: number;
}

export interface Mp3Frame extends FrameHeader {
  data: Buffer;
}

// Indexed [version 1 | 2 and 2.5][layer 1..3][bitrate index]; 0 = free format (not supported), 15 = invalid.
const BITRATES: Record<"v1" | "v2", number[][]> = {
  v1: [
    [],
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The frame header at `at`, or null when the four bytes there are not one. */
export function parseFrameHeader(bytes: Uint8Array, at: number): FrameHeader | null {
  if (at + 4 > bytes.length) return null;
  const b1 = bytes[at + 1];
  const b2 = bytes[at + 2];
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
  const layerBits = (b1 >> 1) & 3; // 3: layer I, 2: layer II, 1: layer III
  if (versionBits === 1 || layerBits === 0) return null;
  const layer = 4 - layerBits;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const mpeg1 = versionBits === 3;
  const bitrate = BITRATES[mpeg1 ? "v1" : "v2"][layer][bitrateIndex];
  const sampleRate = SAMPLE_RATES[versionBits][rateIndex];
  const padding = (b2 >> 1) & 1;
  let length: number;
  let samples: number;
  if (layer === 1) {
    length = (Math.floor((12 * bitrate * 1000) / sampleRate) + padding) * 4;
    samples = 384;
  } else if (layer === 2 || mpeg1) {
    length = Math.floor((144 * bitrate * 1000) / sampleRate) + padding;
    samples = 1152;
  } else {
    length = Math.floor((72 * bitrate * 1000) / sampleRate) + padding;
    samples = 576;
  }
  return { length, samples, sampleRate, bitrate };
}

/** Whether a frame is the Xing/Info (or VBRI) header an encoder writes first: it carries no audio. */
function isTagFrame(frame: Uint8Array): boolean {
  const head = Buffer.from(frame.buffer, frame.byteOffset, Math.min(frame.length, 48)).toString("latin1");
  return head.includes("Xing") || head.includes("Info") || head.includes("VBRI");
}

/**
 * Turns a stream's bytes, in chunks of any size, into whole frames. A header is trusted once
 * the frame after it starts with a header too (or, at the end of what has arrived, when it is
 * the same kind as the last frame), so stray 0xFF bytes do not start a frame.
 */
export class Mp3FrameReader {
  private pending: Buffer = Buffer.alloc(0);
  private last: FrameHeader | null = null;
  /** Bytes dropped because they were not frames (tags, garbage). */
  skipped = 0;

  push(chunk: Uint8Array): Mp3Frame[] {
    const bytes = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const frames: Mp3Frame[] = [];
    let at = 0;
    while (at + 10 <= bytes.length) {
      // An ID3v2 tag (a source that starts with one, or sends one at each track).
      if (bytes[at] === 0x49 && bytes[at + 1] === 0x44 && bytes[at + 2] === 0x33 && bytes[at + 3] < 0xff && bytes[at + 4] < 0xff) {
        const size = ((bytes[at + 6] & 0x7f) << 21) | ((bytes[at + 7] & 0x7f) << 14) | ((bytes[at + 8] & 0x7f) << 7) | (bytes[at + 9] & 0x7f);
        const total = 10 + size + (bytes[at + 5] & 0x10 ? 10 : 0);
        if (at + total > bytes.length) break;
        at += total;
        this.skipped += total;
        continue;
      }
      const header = parseFrameHeader(bytes, at);
      if (!header) {
        at += 1;
        this.skipped += 1;
        continue;
      }
      const end = at + header.length;
      if (end + 4 > bytes.length) {
        // Not enough to see the next header yet: wait for more bytes.
        break;
      }
      const next = parseFrameHeader(bytes, end);
      const sameKind = this.last && this.last.sampleRate === header.sampleRate && this.last.samples === header.samples;
      if (!next && !sameKind) {
        at += 1;
        this.skipped += 1;
        continue;
      }
      const data = Buffer.from(bytes.subarray(at, end));
      if (!this.last && isTagFrame(data)) this.skipped += data.length;
      else frames.push({ ...header, data });
      this.last = header;
      at = end;
    }
    this.pending = Buffer.from(bytes.subarray(at));
    return frames;
  }

  /** The frame left at the end of a complete file (no header follows it), when it is whole. */
  end(): Mp3Frame[] {
    const header = parseFrameHeader(this.pending, 0);
    const frames = header && header.length <= this.pending.length ? [{ ...header, data: Buffer.from(this.pending.subarray(0, header.length)) }] : [];
    this.reset();
    return frames;
  }

  /** Forgets a partial frame (the connection ended): the next bytes start a new stream. */
  reset(): void {
    this.pending = Buffer.alloc(0);
    this.last = null;
  }
}

/** Every whole frame in a complete MP3 file (for tests and joining stored segments). */
export function readMp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const reader = new Mp3FrameReader();
  return [...reader.push(bytes), ...reader.end()];
}

/** Seconds of audio in frames. */
export function framesDuration(frames: FrameHeader[]): number {
  let seconds = 0;
  for (const frame of frames) seconds += frame.samples / frame.sampleRate;
  return seconds;
}
