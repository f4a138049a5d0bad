import { parseBuffer } from "music-metadata";
import { formatBytes, MAX_AUDIO_BYTES, UploadError } from "./uploads.server";

export interface AudioFormat {
  extension: "mp3" | "m4a" | "wav";
  contentType: "audio/mpeg" | "audio/mp4" | "audio/wav";
}

const MP3: AudioFormat = { extension: "mp3", contentType: "audio/mpeg" };
const M4A: AudioFormat = { extension: "m4a", contentType: "audio/mp4" };
const WAV: AudioFormat = { extension: "wav", contentType: "audio/wav" };

/** The audio format by its first bytes, never by the file name or the claimed type. */
export function detectAudioFormat(bytes: Buffer): AudioFormat | null {
  if (bytes.length < 12) return null;
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  if (ascii(0, 3) === "ID3") return MP3;
  // An MPEG audio frame header: 11 sync bits, then a valid version and layer III.
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0 && (bytes[1] & 0x06) === 0x02 && (bytes[1] & 0x18) !== 0x08) return MP3;
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return WAV;
  if (ascii(4, 8) === "ftyp" && /^(M4A |M4B |mp4[12]|isom|iso[2-6]|dash)$/.test(ascii(8, 12))) return M4A;
  return null;
}

export interface PreparedAudio extends AudioFormat {
  data: Buffer;
  durationSeconds: number;
}

/** Checks an uploaded episode and reads its length from the file itself. */
export async function prepareAudio(input: Buffer): Promise<PreparedAudio> {
  if (input.length === 0) throw new UploadError("The audio file is empty.");
  if (input.length > MAX_AUDIO_BYTES) {
    throw new UploadError(`The audio file is too large (${formatBytes(input.length)}); the limit is ${formatBytes(MAX_AUDIO_BYTES)}.`);
  }
  const format = detectAudioFormat(input);
  if (!format) throw new UploadError("That file is not audio we accept: upload an MP3, M4A or WAV file.");
  let duration: number | undefined;
  try {
    const metadata = await parseBuffer(input, { mimeType: format.contentType, size: input.length }, { duration: true });
    duration = metadata.format.duration;
  } catch {
    duration = undefined;
  }
  if (!duration || !Number.isFinite(duration) || duration <= 0) {
    throw new UploadError("The audio file could not be read (it may be damaged or truncated); please upload another file.");
  }
  return { ...format, data: input, durationSeconds: Math.max(1, Math.round(duration)) };
}
