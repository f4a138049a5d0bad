/** The stable URL the app serves a stored file at (see server/media.ts). */
export function mediaUrl(file: { key: string }): string {
  return `/media/${file.key}`;
}
