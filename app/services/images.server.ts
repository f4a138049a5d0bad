import sharp from "sharp";
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
export async function prepareImage(input: Buffer): Promise<PreparedImage> {
  if (input.length === 0) throw new UploadError("The image file is empty.");
  if (input.length > MAX_IMAGE_BYTES) {
    throw new UploadError(`The image is too large (${formatBytes(input.length)}); the limit is ${formatBytes(MAX_IMAGE_BYTES)}.`);
  }
  if (!detectImageFormat(input)) {
    throw new UploadError("That file is not an image we accept: upload a JPEG, PNG, GIF, WebP or AVIF picture.");
  }
  // The header alone says what decoding would cost; refuse before decoding anything.
  let decodedBytes: number;
  try {
    const { width = 0, height = 0, channels = 4, depth = "uchar" } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).metadata();
    decodedBytes = width * height * channels * (BYTES_PER_SAMPLE[depth] ?? 8);
  } catch (error) {
    throw new UploadError(`The image could not be read (${(error as Error).message}); please upload another file.`);
  }
  if (decodedBytes > MAX_DECODED_BYTES) {
    throw new UploadError(`The image is too large to process (${formatBytes(decodedBytes)} once decoded; the limit is ${formatBytes(MAX_DECODED_BYTES)}). Please upload a smaller or 8-bit picture.`);
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
    return { data: main.data, width: main.info.width, height: main.info.height, variants };
  } catch (error) {
    throw new UploadError(`The image could not be read (${(error as Error).message}); please upload another file.`);
  }
}
