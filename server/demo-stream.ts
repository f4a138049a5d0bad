import fs from "node:fs/promises";
import path from "node:path";
import type { Request, Response } from "express";

/**
 * The demo live stream used when STREAM_URL is unset: the bundled programme (short
 * instrumental tracks, prisma/seed-assets/programme) played back to back forever,
 * Icecast-style, each announced as "Artist - Title". Every listener hears the same
 * moment of one shared broadcast clock, like a real station: the clock starts at the
 * Unix epoch, so every instance of a station plays the same track at the same time.
 */

export interface DemoTrack {
  title: string;
  /** MPEG audio frames only: no ID3 tags, no Xing/Info header frame. */
  frames: Buffer;
  /** Byte offsets where frames start, to cut the stream on a frame boundary. */
  frameStarts: number[];
}

export interface DemoStreamOptions {
  stationName: string;
  stationDescription?: string;
  /** Bytes of audio between ICY metadata blocks (Icecast's usual value is 16000). */
  metaInterval?: number;
  /** Seconds of audio sent at once on connect, so players start without waiting. */
  burstSeconds?: number;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

interface FrameHeader {
  length: number;
  bitrateKbps: number;
}

/** Reads an MPEG-1/2/2.5 Layer III frame header at `offset`, or null when none starts there. */
export function readFrameHeader(bytes: Buffer, offset: number): FrameHeader | null {
  if (offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1];
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0x03; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
  const layer = (b1 >> 1) & 0x03;
  if (version === 1 || layer !== 1) return null;
  const bitrateIndex = bytes[offset + 2] >> 4;
  const sampleRateIndex = (bytes[offset + 2] >> 2) & 0x03;
  const padding = (bytes[offset + 2] >> 1) & 0x01;
  if (bitrateIndex === 0 || bitrateIndex === 15 || sampleRateIndex === 3) return null;
  const bitrateKbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex];
  const sampleRate = SAMPLE_RATES[version][sampleRateIndex];
  const samplesPerFrame = version === 3 ? 1152 : 576;
  const length = Math.floor(((samplesPerFrame / 8) * bitrateKbps * 1000) / sampleRate) + padding;
  return { length, bitrateKbps };
}

function skipId3v2(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString("latin1", 0, 3) !== "ID3") return 0;
  const size = ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
  const footer = bytes[5] & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** Splits an MP3 file into its audio frames; the encoder's Xing/Info frame is dropped (it describes one file, not a stream). */
export function extractFrames(file: Buffer): { frames: Buffer; frameStarts: number[]; bitrateKbps: number } {
  const starts: [number, number][] = [];
  let offset = skipId3v2(file);
  let bitrateKbps = 0;
  while (offset < file.length) {
    const header = readFrameHeader(file, offset);
    if (!header || offset + header.length > file.length) {
      offset += 1; // resynchronise past junk
      continue;
    }
    const frame = file.subarray(offset, offset + header.length);
    const isInfoFrame = starts.length === 0 && /Xing|Info|VBRI/.test(frame.toString("latin1"));
    if (!isInfoFrame) {
      starts.push([offset, header.length]);
      bitrateKbps ||= header.bitrateKbps;
    }
    offset += header.length;
  }
  const frames = Buffer.concat(starts.map(([start, length]) => file.subarray(start, start + length)));
  const frameStarts: number[] = [];
  let position = 0;
  for (const [, length] of starts) {
    frameStarts.push(position);
    position += length;
  }
  return { frames, frameStarts, bitrateKbps };
}

/** The demo programme's track list (written by scripts/make-demo-programme.ts). */
export interface DemoProgramme {
  tracks: { artist: string; title: string; file: string; durationSeconds: number }[];
}

export async function readDemoProgramme(seedDir: string): Promise<DemoProgramme> {
  return JSON.parse(await fs.readFile(path.join(seedDir, "programme", "programme.json"), "utf8")) as DemoProgramme;
}

/** The programme's MP3 tracks in order, each titled "Artist - Title" as stations announce songs. */
export async function loadDemoTracks(seedDir: string): Promise<{ tracks: DemoTrack[]; bitrateKbps: number }> {
  const programme = await readDemoProgramme(seedDir);
  const tracks: DemoTrack[] = [];
  let bitrateKbps = 0;
  for (const track of programme.tracks) {
    const { frames, frameStarts, bitrateKbps: rate } = extractFrames(await fs.readFile(path.join(seedDir, track.file)));
    if (frames.length === 0) continue;
    if (bitrateKbps && rate !== bitrateKbps) continue; // one constant bitrate keeps the pacing honest
    bitrateKbps = rate;
    tracks.push({ title: `${track.artist} - ${track.title}`, frames, frameStarts });
  }
  if (tracks.length === 0) throw new Error(`No MP3 audio found for the demo stream in ${seedDir}`);
  return { tracks, bitrateKbps };
}

/** One ICY metadata block: a length byte (in 16-byte units) and the padded `StreamTitle='...';` text. */
export function icyMetadataBlock(title: string | null): Buffer {
  if (title === null) return Buffer.from([0]);
  const text = Buffer.from(`StreamTitle='${title.replace(/'/g, "’")}';`, "utf8");
  const units = Math.min(255, Math.ceil(text.length / 16));
  const block = Buffer.alloc(1 + units * 16);
  block[0] = units;
  text.copy(block, 1, 0, units * 16);
  return block;
}

/** The endless playlist as one looping byte timeline. */
class Broadcast {
  readonly totalBytes: number;
  private readonly starts: number[];

  constructor(
    readonly tracks: DemoTrack[],
    readonly bytesPerSecond: number,
    private readonly epoch = 0,
  ) {
    this.starts = [];
    let total = 0;
    for (const track of tracks) {
      this.starts.push(total);
      total += track.frames.length;
    }
    this.totalBytes = total;
  }

  /** The timeline position on air right now, snapped back to the start of a frame. */
  livePosition(leadSeconds: number): number {
    const elapsed = Math.max(0, (Date.now() - this.epoch) / 1000 - leadSeconds);
    const raw = Math.floor(elapsed * this.bytesPerSecond) % this.totalBytes;
    const index = this.trackIndexAt(raw);
    const track = this.tracks[index];
    const within = raw - this.starts[index];
    let frameStart = 0;
    for (const start of track.frameStarts) {
      if (start > within) break;
      frameStart = start;
    }
    return this.starts[index] + frameStart;
  }

  trackIndexAt(position: number): number {
    let index = 0;
    while (index + 1 < this.starts.length && this.starts[index + 1] <= position) index++;
    return index;
  }

  titleAt(position: number): string {
    return this.tracks[this.trackIndexAt(position % this.totalBytes)].title;
  }

  /** `length` bytes of the timeline from `position`, wrapping at the end. */
  read(position: number, length: number): Buffer {
    const parts: Buffer[] = [];
    let at = position % this.totalBytes;
    let left = length;
    while (left > 0) {
      const index = this.trackIndexAt(at);
      const track = this.tracks[index];
      const within = at - this.starts[index];
      const take = Math.min(left, track.frames.length - within);
      parts.push(track.frames.subarray(within, within + take));
      left -= take;
      at = (at + take) % this.totalBytes;
    }
    return Buffer.concat(parts);
  }
}

const TICK_MS = 250;

/** Express handlers for the demo stream (`GET /stream/live`) built from the bundled audio. */
export async function createDemoStream(seedDir: string, options: DemoStreamOptions) {
  const { tracks, bitrateKbps } = await loadDemoTracks(seedDir);
  const bytesPerSecond = (bitrateKbps * 1000) / 8;
  const metaInterval = options.metaInterval ?? 16000;
  const burstSeconds = options.burstSeconds ?? 2;
  const broadcast = new Broadcast(tracks, bytesPerSecond);
  const listeners = new Set<Response>();

  function nowPlaying(): string {
    return broadcast.titleAt(broadcast.livePosition(0));
  }

  function handle(req: Request, res: Response): void {
    const wantsMetadata = req.get("icy-metadata") === "1";
    res.status(200).set({
      "Content-Type": "audio/mpeg",
      // no-transform keeps the compression middleware away from the live stream.
      "Cache-Control": "no-cache, no-store, no-transform",
      "icy-name": options.stationName,
      "icy-description": options.stationDescription ?? "",
      "icy-br": String(bitrateKbps),
      "icy-pub": "0",
      ...(wantsMetadata ? { "icy-metaint": String(metaInterval) } : {}),
    });
    res.flushHeaders();
    if (req.method === "HEAD") {
      res.end();
      return;
    }

    // Start a little behind "live" and send that backlog at once, as Icecast's burst-on-connect does.
    let position = broadcast.livePosition(burstSeconds);
    let sentAudio = 0;
    let untilMetadata = metaInterval;
    let lastTitle: string | null = null;
    const startedAt = Date.now();
    let waitingForDrain = false;

    const send = (audio: Buffer): boolean => {
      if (!wantsMetadata) return res.write(audio);
      const chunks: Buffer[] = [];
      let offset = 0;
      while (offset < audio.length) {
        const take = Math.min(untilMetadata, audio.length - offset);
        chunks.push(audio.subarray(offset, offset + take));
        offset += take;
        untilMetadata -= take;
        if (untilMetadata === 0) {
          const title = broadcast.titleAt(position + offset);
          chunks.push(icyMetadataBlock(title === lastTitle ? null : title));
          lastTitle = title;
          untilMetadata = metaInterval;
        }
      }
      return res.write(Buffer.concat(chunks));
    };

    const pump = () => {
      if (waitingForDrain) return;
      const due = Math.floor((burstSeconds + (Date.now() - startedAt) / 1000) * bytesPerSecond) - sentAudio;
      if (due <= 0) return;
      const audio = broadcast.read(position, due);
      const flowing = send(audio);
      position = (position + due) % broadcast.totalBytes;
      sentAudio += due;
      if (!flowing) {
        // A slow listener: pause until the socket drains instead of buffering without bound.
        waitingForDrain = true;
        res.once("drain", () => {
          waitingForDrain = false;
        });
      }
    };

    pump();
    const timer = setInterval(pump, TICK_MS);
    listeners.add(res);
    const stop = () => {
      clearInterval(timer);
      listeners.delete(res);
    };
    req.on("close", stop);
    res.on("close", stop);
    res.on("error", stop);
  }

  /**
   * The broadcast as it goes out, from now on, for an in-process listener (the rewind
   * recorder records the demo stream as it would an operator's stream); returns the stop.
   */
  function tap(onAudio: (bytes: Buffer) => void): () => void {
    let position = broadcast.livePosition(0);
    let sent = 0;
    const startedAt = Date.now();
    const timer = setInterval(() => {
      const due = Math.floor(((Date.now() - startedAt) / 1000) * bytesPerSecond) - sent;
      if (due <= 0) return;
      const audio = broadcast.read(position, due);
      position = (position + due) % broadcast.totalBytes;
      sent += due;
      onAudio(audio);
    }, TICK_MS);
    return () => clearInterval(timer);
  }

  /** Ends every open listener connection (an endless response would otherwise keep the server from closing). */
  function close(): void {
    for (const res of listeners) res.destroy();
    listeners.clear();
  }

  return { handle, nowPlaying, tap, close, bitrateKbps, metaInterval, listenerCount: () => listeners.size };
}
