/** What a page needs to show a stored file (a subset of the StoredFile row). */
export interface MediaFile {
  key: string;
  width?: number | null;
  height?: number | null;
  variantWidths?: number[];
}

/** Resized copies of an image sit beside it: images/abc.webp → images/abc-w640.webp. */
export function variantKey(key: string, width: number): string {
  return key.replace(/\.webp$/, `-w${width}.webp`);
}

/** The square JPEG copy podcast directories get sits beside an image: images/abc.webp → images/abc-artwork.jpg. */
export function artworkKey(key: string): string {
  return key.replace(/\.webp$/, "-artwork.jpg");
}

/** The stable URL the app serves a stored file at (see server/media.ts). */
export function mediaUrl(file: { key: string }, width?: number): string {
  return `/media/${width ? variantKey(file.key, width) : file.key}`;
}

/** A srcset over the image's resized copies and the full image. */
export function mediaSrcSet(file: MediaFile): string | undefined {
  if (!file.variantWidths?.length || !file.width) return undefined;
  return [...file.variantWidths.map((width) => `${mediaUrl(file, width)} ${width}w`), `${mediaUrl(file)} ${file.width}w`].join(", ");
}

/** The smallest copy at least `width` pixels wide, for places with a known size. */
export function mediaUrlFor(file: MediaFile, width: number): string {
  const fit = file.variantWidths?.find((w) => w >= width);
  return mediaUrl(file, fit);
}
