import { keyedMessage } from "~/utils/forms/form";
import { AUDIO_UPLOAD, IMAGE_UPLOAD } from "~/utils/forms/uploads";

export { formatBytes } from "~/utils/forms/uploads";

/**
 * A problem with what a person uploaded or typed: the message (a keyedMessage, or text) is shown
 * to them in their language (translateMessage), and nothing was stored.
 */
export class UploadError extends Error {
  name = "UploadError";
}

// The forms' upload rules: the upload zones check a chosen file by the same limits.
export const MAX_IMAGE_BYTES = IMAGE_UPLOAD.maxBytes;
export const MAX_AUDIO_BYTES = AUDIO_UPLOAD.maxBytes;

/** Storage could not take the file (unreachable or failing): nothing was saved, so the admin can simply retry. */
export class StorageUnavailableError extends UploadError {
  name = "StorageUnavailableError";
  constructor(cause: unknown) {
    super(keyedMessage("forms.storageUnavailable"), { cause });
  }
}

/**
 * Large uploads (episode audio, up to MAX_AUDIO_BYTES) are read and processed
 * one at a time per instance: the next waits unread (TCP holds its bytes back),
 * so parallel uploads cannot add up in memory.
 */
export function oneUploadAtATime<T>(work: () => Promise<T>): Promise<T> {
  const queue = globalThis as unknown as { __spinUploadQueue?: Promise<unknown> };
  const previous = queue.__spinUploadQueue ?? Promise.resolve();
  const run = previous.catch(() => {}).then(work);
  queue.__spinUploadQueue = run.catch(() => {});
  return run;
}
