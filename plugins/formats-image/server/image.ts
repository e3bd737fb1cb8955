import { createHash } from 'node:crypto';
import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas, GlobalFonts, loadImage, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { ApiError, inScratch, isEngineError, ocrLanguagesToRead, paragraphsOf, pictureInputArgs, pictureKind, pictureSize, runTool, ToolError, type Block, type OcrService, type PictureKind } from '@linguaport/sdk/server';
import { ocrLanguagesFor, tesseractLanguages } from '@linguaport/ocr';

export { ocrLanguagesFor, pictureKind, pictureSize, tesseractLanguages, type PictureKind };

/**
 * Pictures (png, jpeg, webp, tiff, bmp): read by OCR, written back as the same picture with each text
 * block covered and its translation drawn in its place.
 * - parse: OCR through the platform's OCR nodes (`ctx.engines.ocr`: tesseract on this machine, or a remote
 *   OCR server; words with boxes and confidences) on the original bytes, while the picture is
 *   decoded for its pixels; words become lines and blocks in reading order (the SDK's layout, as scanned
 *   PDF pages); each block is a unit with its box, confidence and the colours sampled around and inside
 *   it (`context.meta`), so the writer and the views need nothing else.
 * - write: the original picture, each block's box filled with the colour around it, the translation
 *   wrapped into the box at the largest size that fits, in the block's text colour.
 */


export type PictureErrorCode = 'damaged' | 'tooLarge' | 'tool';

/** A picture that cannot be read; `code` names the message in the locales (`formatsImage.errors.<code>`). */
export class PictureReadError extends Error {
  constructor(
    readonly code: PictureErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PictureReadError';
  }
}

export interface PictureBlock {
  unit: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fontSize: number;
  lines: number;
  /** Mean word confidence (0–100). */
  confidence: number;
  /** Sampled colours, `#rrggbb`. */
  background: string;
  color: string;
}

export interface PictureSkeleton {
  kind: PictureKind;
  fileName?: string;
  width: number;
  height: number;
  blocks: PictureBlock[];
  /** The original picture, which the writer draws on. */
  original: Uint8Array;
}

export interface PictureFormatOptions {
  /** Languages (platform codes) read when the file's source language is not given or no OCR node reads it: those some node reads. */
  ocrLanguages?: string[];
  /** The most pixels a picture may have (a decompression bomb is refused before it is decoded). */
  maxPixels?: number;
  /** Words below this confidence are left out (tesseract's guesses at texture and edges). */
  minWordConfidence?: number;
  /** Pictures whose reading is kept in memory (0: none); see `ReadingMemo`. */
  memo?: number;
}

/**
 * The last pictures read, by content and languages. A picture is read again to write its result (the
 * documents task parses when it writes) and at every edited block; OCR would give the same
 * words, so the reading is kept instead of paid for again. Bounded by count and by bytes held.
 */
class ReadingMemo {
  private readonly entries = new Map<string, ParsedFile>();
  private bytes = 0;
  constructor(
    private readonly size: number,
    private readonly maxBytes = 200 * 1024 * 1024,
  ) {}

  static key(bytes: Uint8Array, languages: string): string {
    return `${createHash('sha256').update(bytes).digest('hex')}:${languages}`;
  }

  get(key: string): ParsedFile | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    this.entries.delete(key);
    this.entries.set(key, hit);
    // Callers may change the units they get; the kept reading stays as it was.
    return { ...hit, units: hit.units.map((u) => ({ ...u, tags: { ...u.tags }, context: { ...u.context, meta: { ...u.context.meta } } })) };
  }

  set(key: string, parsed: ParsedFile): void {
    if (this.size <= 0) return;
    const held = (parsed.skeleton as PictureSkeleton).original.length;
    if (held > this.maxBytes) return;
    this.entries.set(key, parsed);
    this.bytes += held;
    while (this.entries.size > this.size || this.bytes > this.maxBytes) {
      const [oldest, value] = this.entries.entries().next().value as [string, ParsedFile];
      this.entries.delete(oldest);
      this.bytes -= (value.skeleton as PictureSkeleton).original.length;
    }
  }
}

const KINDS: Record<PictureKind, { name: string; extensions: string[]; mime: string }> = {
  png: { name: 'PNG picture', extensions: ['png'], mime: 'image/png' },
  jpeg: { name: 'JPEG picture', extensions: ['jpg', 'jpeg'], mime: 'image/jpeg' },
  webp: { name: 'WebP picture', extensions: ['webp'], mime: 'image/webp' },
  tiff: { name: 'TIFF picture', extensions: ['tiff', 'tif'], mime: 'image/tiff' },
  bmp: { name: 'BMP picture', extensions: ['bmp'], mime: 'image/bmp' },
};

const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const LATIN_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const FONT_FAMILY = '"Noto Sans CJK SC", "Noto Sans CJK JP", "DejaVu Sans", sans-serif';
let fontsReady = false;

/** Debian's CJK-capable font (and DejaVu for Latin, Greek, Cyrillic), registered once per process. */
function registerFonts(): void {
  if (fontsReady) return;
  fontsReady = true;
  for (const path of [CJK_FONT, LATIN_FONT]) {
    try {
      GlobalFonts.registerFromPath(path);
    } catch {
      // The system's fonts are used instead; the writer still draws.
    }
  }
}

interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

const hex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function medianColour(samples: number[][]): number[] {
  if (!samples.length) return [255, 255, 255];
  return [0, 1, 2].map((c) => {
    const v = samples.map((s) => s[c]!).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)]!;
  });
}

const pixelAt = (p: Pixels, x: number, y: number) => {
  const i = (y * p.width + x) * 4;
  return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!];
};

/**
 * The colours of a block: the background is the median of a ring just outside its box; the text is the
 * median of the pixels inside that are farthest from the background (the ink).
 */
export function sampleColours(p: Pixels, box: { x: number; y: number; w: number; h: number }): { background: string; color: string } {
  const pad = Math.max(2, Math.round(Math.min(box.h, 40) * 0.25));
  const x0 = Math.max(0, Math.floor(box.x) - pad);
  const y0 = Math.max(0, Math.floor(box.y) - pad);
  const x1 = Math.min(p.width - 1, Math.ceil(box.x + box.w) + pad);
  const y1 = Math.min(p.height - 1, Math.ceil(box.y + box.h) + pad);
  const ring: number[][] = [];
  const step = Math.max(1, Math.floor((x1 - x0 + y1 - y0) / 400));
  for (let x = x0; x <= x1; x += step) ring.push(pixelAt(p, x, y0), pixelAt(p, x, y1));
  for (let y = y0; y <= y1; y += step) ring.push(pixelAt(p, x0, y), pixelAt(p, x1, y));
  const background = medianColour(ring);
  const inside: Array<{ c: number[]; d: number }> = [];
  const istep = Math.max(1, Math.floor(Math.sqrt((box.w * box.h) / 20_000)));
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(p.height, box.y + box.h); y += istep) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(p.width, box.x + box.w); x += istep) {
      const c = pixelAt(p, x, y);
      inside.push({ c, d: distance(c, background) });
    }
  }
  inside.sort((a, b) => b.d - a.d);
  const ink = inside.slice(0, Math.max(1, Math.floor(inside.length * 0.12))).map((s) => s.c);
  let color = medianColour(ink);
  // Too close to the background to read: black or white, whichever stands out.
  if (distance(color, background) < 60) color = background[0]! * 0.3 + background[1]! * 0.59 + background[2]! * 0.11 > 128 ? [0, 0, 0] : [255, 255, 255];
  return { background: hex(background), color: hex(color) };
}

/** A picture decoded for drawing; tiff is not read by the canvas, so it goes through ffmpeg as png. */
async function decode(bytes: Uint8Array, kind: PictureKind): Promise<Image> {
  let data = Buffer.from(bytes);
  if (kind === 'tiff') {
    data = await inScratch(async (dir) => {
      await writeFile(join(dir, 'in.tiff'), bytes);
      try {
        await runTool('ffmpeg', ['-v', 'error', '-y', ...pictureInputArgs(join(dir, 'in.tiff'), 'tiff'), '-frames:v', '1', join(dir, 'out.png')], { timeoutMs: 60_000 });
      } catch (e) {
        throw new PictureReadError('damaged', `the picture is damaged or not a TIFF (${e instanceof ToolError ? e.detail : (e as Error).message})`);
      }
      return readFile(join(dir, 'out.png'));
    });
  }
  try {
    return await loadImage(data);
  } catch (e) {
    throw new PictureReadError('damaged', `the picture is damaged or not a ${kind.toUpperCase()} (${(e as Error).message})`);
  }
}

function pixelsOf(image: Image): Pixels {
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const { data } = g.getImageData(0, 0, image.width, image.height);
  return { width: image.width, height: image.height, data };
}

// Tesseract's line boxes span the ink of the line: about 0.9 em (see formats-pdf).
const OCR_EM_PER_LINE = 0.9;

/** What the OCR service said, as the picture's own error (its code names the message in the locales). */
function ocrFailure(e: unknown): PictureReadError {
  // The node read the file and refused it (routed: a 400 naming the engine's refusal; one adapter directly: its error).
  if (e instanceof ApiError && e.code === 400 && (e.data as { reason?: string } | undefined)?.reason === 'engine-refused') return new PictureReadError('damaged', `the picture is damaged or cannot be read (${(e.data as { detail?: string }).detail ?? e.message})`);
  if (isEngineError(e) && e.kind === 'rejected') return new PictureReadError('damaged', `the picture is damaged or cannot be read (${e.message})`);
  return new PictureReadError('tool', `OCR could not read the picture: ${(e as Error).message}`);
}

export function createPictureFormat(kind: PictureKind, ocr: OcrService, options: PictureFormatOptions = {}): FileFormat {
  const spec = KINDS[kind];
  const fallback = options.ocrLanguages ?? ['en', 'zh-CN'];
  const maxPixels = options.maxPixels ?? 50_000_000;
  const minConfidence = options.minWordConfidence ?? 30;
  const memo = new ReadingMemo(options.memo ?? 16);
  return {
    id: kind,
    name: spec.name,
    extensions: spec.extensions,
    mimeTypes: [spec.mime],
    sniff: (bytes) => pictureKind(bytes) === kind,

    async parse(bytes, parseOptions): Promise<ParsedFile> {
      if (pictureKind(bytes) !== kind) throw new PictureReadError('damaged', `the file is not a ${kind.toUpperCase()} picture`);
      const size = pictureSize(bytes);
      if (!size || !size.width || !size.height) throw new PictureReadError('damaged', `the picture is damaged: its ${kind.toUpperCase()} header cannot be read`);
      if (size.width * size.height > maxPixels) throw new PictureReadError('tooLarge', `the picture has ${size.width}×${size.height} pixels, more than the ${maxPixels} allowed`);
      const readable = await ocr.languages();
      if (!readable.length) throw new PictureReadError('tool', 'no OCR node is running (the built-in one is engine-tesseract, with Debian\'s tesseract-ocr)');
      const languages = ocrLanguagesToRead(readable, parseOptions?.sourceLanguage, fallback);
      const key = ReadingMemo.key(bytes, `${languages.join('+')}|${parseOptions?.fileName ?? ''}`);
      const known = memo.get(key);
      if (known) return known;
      // OCR and decoding at once: OCR is the long part, the pixels are wanted only afterwards.
      const [page, image] = await Promise.all([ocr.recognize({ image: bytes, languages }).catch((e: unknown) => Promise.reject(ocrFailure(e))), decode(bytes, kind)]);
      if (image.width !== size.width || image.height !== size.height) throw new PictureReadError('damaged', 'the picture is damaged: its header and its pixels disagree');
      const pixels = pixelsOf(image);
      const lines = page.lines
        .map((line) => ({ ...line, words: line.words.filter((w) => w.confidence >= minConfidence && /[\p{L}\p{N}]/u.test(w.text)) }))
        .filter((line) => line.words.length)
        .map((line) => ({ ...line, x0: Math.min(...line.words.map((w) => w.x0)), y0: Math.min(...line.words.map((w) => w.y0)), x1: Math.max(...line.words.map((w) => w.x1)), y1: Math.max(...line.words.map((w) => w.y1)) }));
      const confidences = new Map(lines.flatMap((l) => l.words.map((w) => [`${Math.round(w.x0)},${Math.round(w.y0)}`, w.confidence] as const)));
      const blocks: Block[] = paragraphsOf(lines, OCR_EM_PER_LINE, 0.45);

      const units: TranslationUnit[] = [];
      const placed: PictureBlock[] = [];
      for (const block of blocks) {
        const text = block.text.trim();
        if (!text) continue;
        const words = block.lines.flatMap((l) => l.words);
        const confidence = Math.round(words.reduce((n, w) => n + (confidences.get(`${Math.round(w.x0)},${Math.round(w.y0)}`) ?? 0), 0) / words.length);
        const box = { x: Math.round(block.x0), y: Math.round(block.y0), w: Math.round(block.x1 - block.x0), h: Math.round(block.y1 - block.y0) };
        const colours = sampleColours(pixels, box);
        const id = `1.${placed.length + 1}`;
        const b: PictureBlock = { unit: id, ...box, fontSize: block.fontSize, lines: block.lines.length, confidence, ...colours };
        placed.push(b);
        const meta = {
          x: String(b.x), y: String(b.y), w: String(b.w), h: String(b.h), fontSize: String(b.fontSize), lines: String(b.lines),
          confidence: String(confidence), background: b.background, color: b.color, pageWidth: String(size.width), pageHeight: String(size.height),
        };
        units.push({ id, source: text, tags: {}, context: { part: 'page 1', position: placed.length, style: 'ocr', meta } });
      }
      const skeleton: PictureSkeleton = { kind, fileName: parseOptions?.fileName, width: size.width, height: size.height, blocks: placed, original: Uint8Array.from(bytes) };
      const parsed: ParsedFile = { format: kind, units, skeleton };
      memo.set(key, parsed);
      return memo.get(key) ?? parsed;
    },

    async write(file, units) {
      const skeleton = file.skeleton as PictureSkeleton;
      const byId = new Map(file.units.map((u) => [u.id, u]));
      for (const u of units) byId.set(u.id, u);
      const image = await decode(skeleton.original, skeleton.kind);
      const canvas = createCanvas(image.width, image.height);
      const g = canvas.getContext('2d');
      g.drawImage(image, 0, 0);
      registerFonts();
      // Every fill is sampled from the original, before any block is drawn over its neighbours' edges.
      const original: Pixels = { width: image.width, height: image.height, data: g.getImageData(0, 0, image.width, image.height).data };
      const fills = skeleton.blocks.map((block) => fillOf(g, original, coverOf(block, image.width, image.height), block.background));
      skeleton.blocks.forEach((block, i) => {
        const unit = byId.get(block.unit);
        if (unit) drawBlock(g, block, fills[i]!, (unit.target ?? unit.source).replace(/<\/?\d+\/?>/g, ''), image.width, image.height);
      });
      return encode(canvas, skeleton.kind);
    },
  };
}

async function encode(canvas: Canvas, kind: PictureKind): Promise<Uint8Array> {
  if (kind === 'jpeg') return canvas.encode('jpeg', 92);
  if (kind === 'webp') return canvas.encode('webp', 92);
  const png = await canvas.encode('png');
  if (kind === 'png') return png;
  // The canvas writes neither tiff nor bmp: ffmpeg turns its png into the original's type.
  return inScratch(async (dir) => {
    await writeFile(join(dir, 'out.png'), png);
    const out = join(dir, `out.${kind === 'tiff' ? 'tiff' : 'bmp'}`);
    await runTool('ffmpeg', ['-v', 'error', '-y', ...pictureInputArgs(join(dir, 'out.png'), 'png'), ...(kind === 'tiff' ? ['-compression_algo', 'deflate'] : ['-pix_fmt', 'bgr24']), out], { timeoutMs: 60_000 });
    return readFile(out);
  });
}

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

/** Pieces a line may break between: words, and each CJK character on its own. */
function breakable(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!CJK.test(word)) {
      out.push(word);
      continue;
    }
    let run = '';
    for (const ch of word) {
      if (CJK.test(ch)) {
        if (run) out.push(run);
        out.push(ch);
        run = '';
      } else run += ch;
    }
    if (run) out.push(run);
  }
  return out;
}

/** The text wrapped to `width` at the current font: each line's pieces joined (no space between CJK). */
export function wrapText(g: Pick<SKRSContext2D, 'measureText'>, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const join = (a: string, b: string) => (!a ? b : CJK.test(a.at(-1)!) || CJK.test(b[0]!) ? a + b : `${a} ${b}`);
  for (const piece of breakable(text)) {
    const next = join(line, piece);
    if (line && g.measureText(next).width > width) {
      lines.push(line);
      line = piece;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const LINE_HEIGHT = 1.18;

/** The largest font size (px) at which the text, wrapped to the box's width, fits its height. */
export function fitText(g: SKRSContext2D, text: string, w: number, h: number, start: number): { size: number; lines: string[] } {
  let size = Math.max(6, Math.floor(start));
  for (;;) {
    g.font = `${size}px ${FONT_FAMILY}`;
    const lines = wrapText(g, text, w);
    const widest = Math.max(0, ...lines.map((l) => g.measureText(l).width));
    if ((lines.length * size * LINE_HEIGHT <= h * 1.08 && widest <= w * 1.02) || size <= 6) return { size, lines };
    size = Math.max(6, Math.floor(size * 0.92));
  }
}

/** The area a block's cover takes: a little beyond the box (tesseract's boxes hug the ink; anti-aliasing reaches out). */
function coverOf(block: PictureBlock, width: number, height: number): { x: number; y: number; w: number; h: number } {
  const pad = Math.max(2, Math.round((block.h / Math.max(1, block.lines)) * 0.15));
  const x = Math.max(0, block.x - pad);
  const y = Math.max(0, block.y - pad);
  return { x, y, w: Math.min(width, block.x + block.w + pad) - x, h: Math.min(height, block.y + block.h + pad) - y };
}

type Fill = string | ReturnType<SKRSContext2D['createLinearGradient']>;

/**
 * The cover's fill: the colours just outside its left and right (or top and bottom) edges; where they
 * differ (light falling across a sign, a shaded panel) a gradient between them, else the block's
 * background colour.
 */
function fillOf(g: SKRSContext2D, p: Pixels, r: { x: number; y: number; w: number; h: number }, background: string): Fill {
  const clampX = (x: number) => Math.max(0, Math.min(p.width - 1, Math.round(x)));
  const clampY = (y: number) => Math.max(0, Math.min(p.height - 1, Math.round(y)));
  const column = (x: number) => medianColour(Array.from({ length: Math.max(1, Math.round(r.h)) }, (_, i) => pixelAt(p, clampX(x), clampY(r.y + i))));
  const row = (y: number) => medianColour(Array.from({ length: Math.max(1, Math.round(r.w)) }, (_, i) => pixelAt(p, clampX(r.x + i), clampY(y))));
  const [left, right, top, bottom] = [column(r.x - 2), column(r.x + r.w + 1), row(r.y - 2), row(r.y + r.h + 1)];
  const across = distance(left, right);
  const down = distance(top, bottom);
  if (Math.max(across, down) < 24) return background;
  const gradient = across >= down ? g.createLinearGradient(r.x, 0, r.x + r.w, 0) : g.createLinearGradient(0, r.y, 0, r.y + r.h);
  gradient.addColorStop(0, hex(across >= down ? left : top));
  gradient.addColorStop(1, hex(across >= down ? right : bottom));
  return gradient;
}

function drawBlock(g: SKRSContext2D, block: PictureBlock, fill: Fill, text: string, width: number, height: number): void {
  const { x, y, w, h } = coverOf(block, width, height);
  g.fillStyle = fill;
  g.fillRect(x, y, w, h);
  if (!text.trim()) return;
  // Start from the original's size (the line's ink height is about 0.9 em; a few px more for the em box).
  const start = (block.h / Math.max(1, block.lines)) / 0.9 * 0.95;
  const fitted = fitText(g, text, w, h, start);
  g.fillStyle = block.color;
  g.textBaseline = 'middle';
  g.font = `${fitted.size}px ${FONT_FAMILY}`;
  const lineHeight = fitted.size * LINE_HEIGHT;
  const top = y + (h - lineHeight * fitted.lines.length) / 2;
  fitted.lines.forEach((line, i) => g.fillText(line, x, top + lineHeight * (i + 0.5)));
}

/** The picture formats, reading through `ocr` (the plugin passes `ctx.engines.ocr`). */
export function pictureFormats(ocr: OcrService, options: PictureFormatOptions = {}): FileFormat[] {
  return (Object.keys(KINDS) as PictureKind[]).map((k) => createPictureFormat(k, ocr, options));
}
