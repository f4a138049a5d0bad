// The file fields' rules: the upload zones show them and check a chosen file at once; the server's
// readers (app/services/uploads.server.ts, the episode form) refuse by the same limits.
import type { MessageKey } from "~/i18n/keys";

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** A kind of file a form accepts: its largest size, the input's accept list, and how the zone says it. */
export interface UploadRule {
  maxBytes: number;
  accept: string;
  /** The accepted types and `{limit}`, e.g. "JPEG, PNG, GIF, WebP or AVIF, up to 10 MB": t(typesHint, { limit }). */
  typesHint: MessageKey;
  /** The largest size as the zone says it ("10 MB"). */
  limit: string;
}

function rule(maxBytes: number, accept: string, typesHint: MessageKey): UploadRule {
  return { maxBytes, accept, typesHint, limit: formatBytes(maxBytes) };
}

export const IMAGE_UPLOAD = rule(10 * 1024 * 1024, "image/jpeg,image/png,image/gif,image/webp,image/avif", "forms.imageTypesHint");

export const AUDIO_UPLOAD = rule(
  200 * 1024 * 1024,
  "audio/mpeg,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,audio/flac,audio/aiff,audio/x-aiff,.mp3,.m4a,.wav,.flac,.aif,.aiff",
  "forms.audioTypesHint",
);

export const TRANSCRIPT_UPLOAD = rule(2 * 1024 * 1024, "text/vtt,application/x-subrip,.vtt,.srt", "forms.transcriptTypesHint");
