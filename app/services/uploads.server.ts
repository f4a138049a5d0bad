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

/** Storage could not take the file (unreachable or failing): nothing was saved, so the admin can simply retry. */
export class StorageUnavailableError extends UploadError {
  name = "StorageUnavailableError";
  constructor(cause: unknown) {
    super("The file could not be saved because media storage is not reachable right now. Nothing was changed; please try again in a moment.", { cause });
  }
}
