// The file fields' rules: the upload zones show them and check a chosen file at once; the server's
// readers (app/services/uploads.server.ts, the episode form) refuse by the same limits.

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** A kind of file a form accepts: its largest size, the input's accept list, and how the zone says it. */
export interface UploadRule {
  maxBytes: number;
  accept: string;
  typesHint: string;
}

function rule(maxBytes: number, accept: string, types: string): UploadRule {
  return { maxBytes, accept, typesHint: `${types}, up to ${formatBytes(maxBytes)}` };
}

export const IMAGE_UPLOAD = rule(10 * 1024 * 1024, "image/jpeg,image/png,image/gif,image/webp,image/avif", "JPEG, PNG, GIF, WebP or AVIF");

export const AUDIO_UPLOAD = rule(
  200 * 1024 * 1024,
  "audio/mpeg,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,audio/flac,audio/aiff,audio/x-aiff,.mp3,.m4a,.wav,.flac,.aif,.aiff",
  "MP3, M4A, WAV, FLAC or AIFF",
);

export const TRANSCRIPT_UPLOAD = rule(2 * 1024 * 1024, "text/vtt,application/x-subrip,.vtt,.srt", "WebVTT (.vtt) or SRT (.srt), UTF-8");
