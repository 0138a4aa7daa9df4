import type SharpModule from 'sharp';
import { AppError } from './errors.ts';

/**
 * What an upload must be to be accepted (ARCHITECTURE §8): a JPEG, PNG or WebP image,
 * recognised by its bytes (never by its name or declared type), nothing before or after
 * the image, and no markup hidden in its metadata. Accepted images are decoded and
 * re-encoded, which drops every byte we did not draw ourselves (EXIF, GPS, comments).
 */

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** A decompression bomb guard: a small file may still claim a huge canvas. */
export const MAX_INPUT_PIXELS = 40_000_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the first bytes announce, or undefined for anything else (PDF, SVG, text, GIF…). */
export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return undefined;
}

interface Layout {
  /** Offset just past the image's last structure (EOI, IEND, the RIFF size). */
  end: number;
  /** Byte ranges that are metadata, not pixels: where hidden markup would sit. */
  metadata: [number, number][];
}

/** Walks JPEG segments to the end-of-image marker. */
function jpegLayout(b: Buffer): Layout | undefined {
  const metadata: [number, number][] = [];
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return undefined;
    while (i < b.length && b[i] === 0xff) i++;
    const marker = b[i++];
    if (marker === undefined) return undefined;
    if (marker === 0xd9) return { end: i, metadata };
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (i + 2 > b.length) return undefined;
    const length = b.readUInt16BE(i);
    if (length < 2 || i + length > b.length) return undefined;
    // APPn (EXIF, XMP, ICC…) and COM segments carry metadata.
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) metadata.push([i + 2, i + length]);
    i += length;
    if (marker === 0xda) {
      // Entropy-coded data runs until a marker that is not a stuffed 0xFF00 or a restart.
      while (i < b.length) {
        if (b[i] === 0xff) {
          const next = b[i + 1];
          if (next === 0x00 || (next !== undefined && next >= 0xd0 && next <= 0xd7)) {
            i += 2;
            continue;
          }
          if (next === 0xff) {
            i += 1;
            continue;
          }
          break;
        }
        i++;
      }
    }
  }
  return undefined;
}

/** Walks PNG chunks to IEND. */
function pngLayout(b: Buffer): Layout | undefined {
  const metadata: [number, number][] = [];
  let i = 8;
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    const dataStart = i + 8;
    const next = dataStart + length + 4;
    if (length > 0x7fffffff || next > b.length) return undefined;
    if (type === 'IEND') return { end: next, metadata };
    if (type !== 'IDAT') metadata.push([dataStart, dataStart + length]);
    i = next;
  }
  return undefined;
}

/** The RIFF header says how long a WebP file is; its chunks say what is metadata. */
function webpLayout(b: Buffer): Layout | undefined {
  const end = 8 + b.readUInt32LE(4);
  if (end < 12 || end > b.length) return undefined;
  const metadata: [number, number][] = [];
  let i = 12;
  while (i + 8 <= end) {
    const type = b.toString('latin1', i, i + 4);
    const size = b.readUInt32LE(i + 4);
    const dataStart = i + 8;
    if (dataStart + size > end) return undefined;
    if (!['VP8 ', 'VP8L', 'ALPH', 'ANMF'].includes(type))
      metadata.push([dataStart, dataStart + size]);
    i = dataStart + size + (size % 2);
  }
  return { end, metadata };
}

const MARKUP = [
  /<\s*script/i,
  /<\s*html/i,
  /<!doctype/i,
  /<\?php/i,
  /<\s*iframe/i,
  /<\s*svg/i,
  /<\s*body/i,
  /javascript:/i,
  /<\s*object/i,
  /<\s*embed/i,
];

function hasMarkup(text: string): boolean {
  return MARKUP.some((pattern) => pattern.test(text));
}

/**
 * Refuses anything that is not exactly one image: another type (FILE_TYPE_UNSUPPORTED),
 * an empty file (FILE_EMPTY), a broken structure (FILE_CORRUPT), and bytes after the image
 * or markup in its metadata (FILE_NOT_PLAIN_IMAGE: a polyglot that a browser or another
 * parser could read as HTML or script).
 */
export function inspectImage(bytes: Buffer): ImageFormat {
  if (bytes.length === 0) throw new AppError('FILE_EMPTY', {}, 422);
  const format = sniffFormat(bytes);
  if (!format) throw new AppError('FILE_TYPE_UNSUPPORTED', {}, 415);
  const layout =
    format === 'jpeg' ? jpegLayout(bytes) : format === 'png' ? pngLayout(bytes) : webpLayout(bytes);
  if (!layout) throw new AppError('FILE_CORRUPT', {}, 422);
  const trailing = bytes.subarray(layout.end);
  // Some encoders pad with zeros; anything else after the image is a second payload.
  if (trailing.some((byte) => byte !== 0)) throw new AppError('FILE_NOT_PLAIN_IMAGE', {}, 422);
  for (const [start, end] of layout.metadata) {
    if (hasMarkup(bytes.toString('latin1', start, end)))
      throw new AppError('FILE_NOT_PLAIN_IMAGE', {}, 422);
  }
  return format;
}

export interface CleanImage {
  data: Buffer;
  mime: 'image/jpeg';
  width: number;
  height: number;
}

/** sharp (libvips) is loaded on the first upload: an API process that never sees one does not carry it. */
let sharpModule: Promise<typeof SharpModule> | null = null;
function loadSharp(): Promise<typeof SharpModule> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

/**
 * Decodes and re-encodes as JPEG: orientation applied, longest side at most `maxSidePx`
 * (or, for `square`, the centre cropped to a maxSidePx square),
 * transparency flattened on white, no metadata at all (sharp writes none unless asked).
 * JPEG is what the client shows as a local object URL (spec §7). sharp runs on libuv's
 * thread pool (4 threads by default), which already caps how many images decode at once:
 * 16 concurrent 12-megapixel uploads peaked at about 0.6 GB RSS on a 2-core machine.
 */
export async function reencodeImage(
  bytes: Buffer,
  format: ImageFormat,
  maxSidePx: number,
  shape: 'inside' | 'square' = 'inside',
): Promise<CleanImage> {
  try {
    const sharp = await loadSharp();
    const image = sharp(bytes, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'warning',
      animated: false,
    });
    const meta = await image.metadata();
    if (meta.format !== format) throw new AppError('FILE_CORRUPT', {}, 422);
    const { data, info } = await image
      .rotate()
      // A square (avatars) is the centre of the picture, cropped and scaled to exactly maxSidePx.
      .resize(
        shape === 'square'
          ? { width: maxSidePx, height: maxSidePx, fit: 'cover', position: 'centre' }
          : { width: maxSidePx, height: maxSidePx, fit: 'inside', withoutEnlargement: true },
      )
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 88, chromaSubsampling: '4:4:4' })
      .toBuffer({ resolveWithObject: true });
    return { data, mime: 'image/jpeg', width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError('FILE_PIXELS_TOO_MANY', { maxMp: MAX_INPUT_PIXELS / 1_000_000 }, 422);
    }
    throw new AppError('FILE_CORRUPT', {}, 422);
  }
}
