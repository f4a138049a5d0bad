import { spawn } from "node:child_process";
import { openAsBlob } from "node:fs";
import { parseBlob } from "music-metadata";
import type { StagedFile } from "./temp-files.server";
import { keyedMessage } from "~/utils/forms/form";
import { formatBytes, MAX_AUDIO_BYTES, UploadError } from "./uploads.server";

export interface AudioFormat {
  extension: "mp3" | "m4a" | "wav" | "flac" | "aiff";
  contentType: "audio/mpeg" | "audio/mp4" | "audio/wav" | "audio/flac" | "audio/aiff";
}

const MP3: AudioFormat = { extension: "mp3", contentType: "audio/mpeg" };
const M4A: AudioFormat = { extension: "m4a", contentType: "audio/mp4" };
const WAV: AudioFormat = { extension: "wav", contentType: "audio/wav" };
const FLAC: AudioFormat = { extension: "flac", contentType: "audio/flac" };
const AIFF: AudioFormat = { extension: "aiff", contentType: "audio/aiff" };

/** Formats kept as the original only: listeners and podcast apps get an MP3 listening copy of them. */
export function needsListeningCopy(contentType: string): boolean {
  return contentType === WAV.contentType || contentType === FLAC.contentType || contentType === AIFF.contentType;
}

/** The audio format by its first bytes, never by the file name or the claimed type. */
export function detectAudioFormat(bytes: Buffer): AudioFormat | null {
  if (bytes.length < 12) return null;
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  if (ascii(0, 3) === "ID3") return MP3;
  // An MPEG audio frame header: 11 sync bits, then a valid version and layer III.
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0 && (bytes[1] & 0x06) === 0x02 && (bytes[1] & 0x18) !== 0x08) return MP3;
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return WAV;
  if (ascii(0, 4) === "fLaC") return FLAC;
  if (ascii(0, 4) === "FORM" && (ascii(8, 12) === "AIFF" || ascii(8, 12) === "AIFC")) return AIFF;
  if (ascii(4, 8) === "ftyp" && /^(M4A |M4B |mp4[12]|isom|iso[2-6]|dash)$/.test(ascii(8, 12))) return M4A;
  return null;
}

export interface PreparedAudio extends AudioFormat {
  durationSeconds: number;
}

/**
 * Checks a staged episode upload and reads its length from the file itself:
 * the format from its first bytes, the duration by reading the file from disk
 * (random access, so only the headers and frames needed are read).
 */
export async function prepareAudio(input: StagedFile): Promise<PreparedAudio> {
  if (input.size === 0) throw new UploadError(keyedMessage("forms.audioEmpty"));
  if (input.size > MAX_AUDIO_BYTES) {
    throw new UploadError(keyedMessage("forms.audioTooLargeSized", { size: formatBytes(input.size), limit: formatBytes(MAX_AUDIO_BYTES) }));
  }
  const format = detectAudioFormat(input.head);
  if (!format) throw new UploadError(keyedMessage("forms.audioNotAccepted"));
  let duration: number | undefined;
  try {
    // A Blob backed by the file: read in slices where the parser looks. The type we detected
    // picks the parser (the temp file has no extension to go by).
    const file = await openAsBlob(input.path, { type: format.contentType });
    duration = (await parseBlob(file, { duration: true })).format.duration;
  } catch {
    duration = undefined;
  }
  if (!duration || !Number.isFinite(duration) || duration <= 0) {
    throw new UploadError(keyedMessage("forms.audioUnreadable"));
  }
  return { ...format, durationSeconds: Math.max(1, Math.round(duration)) };
}

// ---------------------------------------------------------------- listening copies

/** The podcast loudness norm (integrated, LUFS) and true-peak ceiling listening copies are encoded to. */
export const LISTENING_LOUDNESS = { integrated: -16, truePeak: -1.5, range: 11 } as const;
const LISTENING_BITRATE = "128k";

export class EncoderUnavailableError extends Error {
  name = "EncoderUnavailableError";
  constructor() {
    super("ffmpeg is not installed (Debian: apt-get install ffmpeg): WAV, FLAC and AIFF episodes cannot be encoded for listening.");
  }
}

/** Runs ffmpeg, reporting how far it got (seconds of output written) from its -progress stream. */
function runFfmpeg(args: string[], onTime: (seconds: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-nostdin", "-progress", "pipe:1", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match) onTime(Number(match[1]) / 1e6);
      }
    });
    // Keep the tail only: loudnorm prints its measurement at the end.
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-16_384)));
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new EncoderUnavailableError() : error));
    child.on("close", (code) =>
      code === 0 ? resolve(stderr) : reject(new Error(`ffmpeg failed (exit ${code}): ${stderr.trim().split("\n").slice(-2).join(" ")}`)),
    );
  });
}

interface LoudnessMeasurement {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

/**
 * Encodes a lossless original (a file on disk) to an MP3 listening copy at
 * -16 LUFS with ffmpeg's loudnorm in two passes (measure, then a linear gain
 * with those measurements, which lands on the target instead of near it).
 * ffmpeg reads and writes the files itself, so neither passes through memory.
 * `onProgress` gets 0-100.
 */
export async function encodeListeningCopy(
  source: string,
  output: string,
  durationSeconds: number,
  onProgress: (percent: number) => void = () => {},
): Promise<void> {
  const { integrated, truePeak, range } = LISTENING_LOUDNESS;
  const report = (pass: 0 | 1) => (seconds: number) =>
    onProgress(Math.min(99, Math.round(pass * 50 + (Math.min(seconds, durationSeconds) / Math.max(durationSeconds, 1)) * 50)));
  const measured = await runFfmpeg(
    ["-i", source, "-af", `loudnorm=I=${integrated}:TP=${truePeak}:LRA=${range}:print_format=json`, "-f", "null", "-"],
    report(0),
  );
  const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(measured);
  if (!json) throw new Error("ffmpeg did not report the loudness it measured");
  const m = JSON.parse(json[0]) as LoudnessMeasurement;
  // A silent file measures -inf: there is nothing to normalise, so only encode it.
  const silent = !Number.isFinite(Number(m.input_i));
  const filter = silent
    ? "anull"
    : `loudnorm=I=${integrated}:TP=${truePeak}:LRA=${range}:measured_I=${m.input_i}:measured_TP=${m.input_tp}:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}:linear=true`;
  // loudnorm works at 192 kHz internally; resample to 44.1 kHz for the MP3. "-f mp3": the output's name may have no extension.
  await runFfmpeg(
    ["-i", source, "-af", filter, "-ar", "44100", "-c:a", "libmp3lame", "-b:a", LISTENING_BITRATE, "-map_metadata", "-1", "-f", "mp3", "-y", output],
    report(1),
  );
  onProgress(100);
}
