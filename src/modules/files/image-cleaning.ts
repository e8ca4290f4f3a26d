import sharp from "sharp";
import { PayloadTooLargeError, UnsupportedMediaTypeError } from "../../errors/app-errors";

/**
 * Pixel bounds of a stored image: past a 48-megapixel phone photo, short of what a few MiB of
 * PNG can claim to hold (a decompression bomb). WebP cannot be wider or taller than 16383.
 */
export const IMAGE_MAX_PIXELS = 50_000_000;
export const IMAGE_MAX_SIDE = 16_383;

// Uploaded photos are personal data: libvips keeps none of them in its operation cache.
sharp.cache(false);

/**
 * An uploaded image re-encoded in its own format with nothing but its pixels: Exif (GPS
 * included), XMP, IPTC, ICC, comments and PNG text chunks are left behind, the Exif orientation
 * is applied to the pixels first, so the picture still stands the right way up. An image that
 * cannot be decoded is 415; one past the pixel bounds 413, before its pixels are decoded.
 */
export async function cleanImage(bytes: Buffer, mimeType: string): Promise<Buffer> {
  const { width, height } = await dimensionsOf(bytes);
  if (width * height > IMAGE_MAX_PIXELS || Math.max(width, height) > IMAGE_MAX_SIDE) {
    throw new PayloadTooLargeError(
      `The image is ${width} × ${height} pixels; at most ${IMAGE_MAX_SIDE} pixels a side and ` +
        `${IMAGE_MAX_PIXELS / 1_000_000} megapixels are accepted`,
    );
  }
  const image = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: "error" }).autoOrient();
  try {
    if (mimeType === "image/png") return await image.png().toBuffer();
    if (mimeType === "image/webp") return await image.webp({ quality: 90 }).toBuffer();
    return await image.jpeg({ quality: 90 }).toBuffer();
  } catch {
    throw unreadable();
  }
}

async function dimensionsOf(bytes: Buffer): Promise<{ width: number; height: number }> {
  try {
    // The header only: the pixel limit applies to decoding, not to reading what is claimed.
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (width > 0 && height > 0) return { width, height };
  } catch {
    // Below: the same answer as an image without dimensions.
  }
  throw unreadable();
}

const unreadable = () =>
  new UnsupportedMediaTypeError("The image cannot be read: it is damaged or incomplete");
