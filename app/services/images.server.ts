import sharp from "sharp";
import type { Translator } from "~/i18n/translate";
import { keyedMessage } from "~/utils/forms/form";
import { formatBytes, MAX_IMAGE_BYTES, UploadError } from "./uploads.server";

// A station re-encodes an image now and then, never the same one twice: libvips' operation
// cache (up to 50 MB) would only hold memory on a server meant to fit a small machine.
sharp.cache(false);

/** Widths of the WebP copies kept beside every image, for srcset. */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;
const MAX_DIMENSION = 2400;
const MAX_INPUT_PIXELS = 40_000_000;
/**
 * What decoding may cost in memory: width x height x channels x bytes per sample.
 * Pixels alone let a 16-bit or float image of allowed size take several times as much.
 */
export const MAX_DECODED_BYTES = 128 * 1024 * 1024;
const BYTES_PER_SAMPLE: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, complex: 8, double: 8, dpcomplex: 16 };

export interface PreparedImage {
  data: Buffer;
  width: number;
  height: number;
  variants: { width: number; data: Buffer }[];
  /** The square JPEG for podcast directories, when asked for. */
  artwork?: { size: number; data: Buffer };
}

/** Apple Podcasts: artwork is a square JPEG or PNG of 1400 to 3000 px, RGB. */
export const ARTWORK_MIN = 1400;
export const ARTWORK_MAX = 3000;

/**
 * The side of the square artwork an image of this size gives: as large as the
 * picture allows up to 3000 px, and never under 1400 px (smaller pictures are
 * upscaled, and the admin says so: see artworkNote).
 */
export function artworkSide(width: number, height: number): number {
  return Math.min(ARTWORK_MAX, Math.max(ARTWORK_MIN, Math.min(width, height)));
}

/** What the admin should know about an image's podcast artwork, or null when it is as the directories want it. */
export function artworkNote(image: { width: number | null; height: number | null; artworkSize: number | null }, t: Translator["t"]): string | null {
  if (!image.width || !image.height) return null;
  if (!image.artworkSize) return t("admin.artworkMissing");
  const cropped = image.width !== image.height;
  const upscaled = Math.min(image.width, image.height) < ARTWORK_MIN;
  if (!cropped && !upscaled) return null;
  // Strings: ICU would group the digits of numbers ("1,400 px").
  const values = { width: String(image.width), height: String(image.height), size: String(image.artworkSize), min: String(ARTWORK_MIN) };
  // One whole sentence per case, so a language can order its parts its own way.
  return t(cropped && upscaled ? "admin.artworkCroppedUpscaled" : cropped ? "admin.artworkCropped" : "admin.artworkUpscaled", values);
}

/** The image format by its first bytes, never by the file name or the claimed type. */
export function detectImageFormat(bytes: Buffer): "jpeg" | "png" | "gif" | "webp" | "avif" | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (bytes.subarray(0, 4).toString("latin1") === "GIF8") return "gif";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  if (bytes.subarray(4, 8).toString("latin1") === "ftyp" && /^avi[fs]$/.test(bytes.subarray(8, 12).toString("latin1"))) return "avif";
  return null;
}

/**
 * Checks an uploaded image and re-encodes it as WebP: metadata stripped,
 * orientation applied, dimensions bounded, plus the smaller variants pages use.
 */
export async function prepareImage(input: Buffer, options: { artwork?: boolean } = {}): Promise<PreparedImage> {
  if (input.length === 0) throw new UploadError(keyedMessage("forms.imageEmpty"));
  if (input.length > MAX_IMAGE_BYTES) {
    throw new UploadError(keyedMessage("forms.imageTooLargeSized", { size: formatBytes(input.length), limit: formatBytes(MAX_IMAGE_BYTES) }));
  }
  if (!detectImageFormat(input)) {
    throw new UploadError(keyedMessage("forms.imageNotAccepted"));
  }
  // The header alone says what decoding would cost; refuse before decoding anything.
  let decodedBytes: number;
  try {
    const { width = 0, height = 0, channels = 4, depth = "uchar" } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).metadata();
    decodedBytes = width * height * channels * (BYTES_PER_SAMPLE[depth] ?? 8);
  } catch (error) {
    throw new UploadError(keyedMessage("forms.imageUnreadable", { detail: (error as Error).message }));
  }
  if (decodedBytes > MAX_DECODED_BYTES) {
    throw new UploadError(keyedMessage("forms.imageTooLargeDecoded", { size: formatBytes(decodedBytes), limit: formatBytes(MAX_DECODED_BYTES) }));
  }
  try {
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
    const main = await source
      .clone()
      .resize({ width: MAX_DIMENSION, height: MAX_DIMENSION, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    const widths = VARIANT_WIDTHS.filter((width) => width < main.info.width);
    const variants = await Promise.all(
      widths.map(async (width) => ({
        width,
        data: await source.clone().resize({ width }).webp({ quality: 78 }).toBuffer(),
      })),
    );
    let artwork: PreparedImage["artwork"];
    if (options.artwork) {
      // From the upload itself (not the 2400 px WebP), centre-cropped, RGB without alpha, sRGB.
      const meta = await source.clone().metadata();
      const upright =
        (meta.orientation ?? 1) >= 5 ? { width: meta.height ?? 0, height: meta.width ?? 0 } : { width: meta.width ?? 0, height: meta.height ?? 0 };
      const size = artworkSide(upright.width, upright.height);
      const data = await source
        .clone()
        .resize(size, size, { fit: "cover", position: "centre" })
        .flatten({ background: "#ffffff" })
        .toColorspace("srgb")
        .jpeg({ quality: 88, chromaSubsampling: "4:2:0" })
        .toBuffer();
      artwork = { size, data };
    }
    return { data: main.data, width: main.info.width, height: main.info.height, variants, artwork };
  } catch (error) {
    throw new UploadError(keyedMessage("forms.imageUnreadable", { detail: (error as Error).message }));
  }
}
