/**
 * A problem with what a person uploaded or typed: the message is shown to them
 * as is, and nothing was stored.
 */
export class UploadError extends Error {
  name = "UploadError";
}

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 200 * 1024 * 1024;

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}
