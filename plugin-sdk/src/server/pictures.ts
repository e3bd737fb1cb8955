/**
 * Pictures by their bytes: the type from the magic numbers and the size from the header, without
 * decoding or a process, for every area that takes pictures (upload limits, formats, OCR).
 */

// Defined beside the demuxer of each type (@linguaport/spawner), so the two lists cannot drift.
import type { PictureKind } from '@linguaport/spawner';
export type { PictureKind };

/** The picture type by its magic bytes, or null. */
export function pictureKind(bytes: Uint8Array): PictureKind | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16));
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 4 && (b.toString('latin1', 0, 4) === 'II*\0' || b.toString('latin1', 0, 4) === 'MM\0*')) return 'tiff';
  if (b.length >= 14 && b.toString('latin1', 0, 2) === 'BM') return 'bmp';
  return null;
}

/** Width and height from the header, without decoding (null when the header is not readable). */
export function pictureSize(bytes: Uint8Array): { width: number; height: number } | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const kind = pictureKind(b);
  try {
    if (kind === 'png') return b.length >= 24 ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null;
    if (kind === 'bmp') return b.length >= 26 ? { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) } : null;
    if (kind === 'webp') {
      const chunk = b.toString('latin1', 12, 16);
      if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L') {
        const v = b.readUInt32LE(21);
        return { width: (v & 0x3fff) + 1, height: ((v >> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
      return null;
    }
    if (kind === 'jpeg') {
      let i = 2;
      while (i + 9 < b.length) {
        if (b[i] !== 0xff) return null;
        const marker = b[i + 1]!;
        if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
          i += 2;
          continue;
        }
        // Start of frame (any coding but DHT 0xc4, JPG 0xc8, DAC 0xcc).
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
        i += 2 + b.readUInt16BE(i + 2);
      }
      return null;
    }
    if (kind === 'tiff') {
      const le = b[0] === 0x49;
      const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
      const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
      const ifd = u32(4);
      const n = u16(ifd);
      let width = 0;
      let height = 0;
      for (let k = 0; k < n; k++) {
        const e = ifd + 2 + k * 12;
        const tag = u16(e);
        const value = u16(e + 2) === 3 ? u16(e + 8) : u32(e + 8);
        if (tag === 256) width = value;
        if (tag === 257) height = value;
      }
      return width && height ? { width, height } : null;
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * The most pixels a picture may have where an area decodes or renders one (formats-image refuses a
 * larger upload; page renderings are made smaller). A 1.2 KB PDF can declare a page of 14,400 × 14,400
 * points: at 150 dpi that is 900 million pixels, and tesseract took 1.17 GB reading it.
 */
export const MAX_PICTURE_PIXELS = 50_000_000;

/**
 * The resolution to render a page of `width` × `height` points at: `dpi`, or less so the rendering has
 * at most `maxPixels` pixels (a little under, as renderers round their sizes up).
 */
export function renderDpi(width: number, height: number, dpi: number, maxPixels: number = MAX_PICTURE_PIXELS): number {
  if (!(width > 0 && height > 0)) return dpi;
  const most = 72 * Math.sqrt((maxPixels * 0.98) / (width * height));
  return most >= dpi ? dpi : Math.max(0.01, Math.floor(most * 100) / 100);
}

/** The size in points of each page `first`..`last` of a PDF, from `pdfinfo -f first -l last` (pages it does not list are left out). */
export function pdfPageSizes(pdfinfo: string): Map<number, { width: number; height: number }> {
  const sizes = new Map<number, { width: number; height: number }>();
  for (const m of pdfinfo.matchAll(/^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/gm)) sizes.set(Number(m[1]), { width: Number(m[2]), height: Number(m[3]) });
  return sizes;
}
