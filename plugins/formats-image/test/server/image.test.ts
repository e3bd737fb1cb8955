// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import type { ParsedFile } from '@linguaport/sdk/shared';
import { ocrServiceOf } from '@linguaport/sdk/server';
import { createTesseractAdapter } from '@linguaport/ocr';
import { createPictureFormat, ocrLanguagesFor, pictureFormats, pictureKind, pictureSize, PictureReadError, type PictureKind, type PictureSkeleton } from '../../server/image.js';
import { CHINESE, chinesePicture, NOTICE, shadedSign, SIGN, signPicture, type Drawn } from './samples.js';

// The picture formats on pictures drawn at test time: what OCR (the SDK's tesseract adapter, as the
// built-in OCR node runs it) reads from them, where and in which colours; that the written picture has
// the original text covered and the translation drawn (read back by tesseract); and how damaged or
// foreign files are refused. Routing to OCR nodes is tested in plugins/engine-paddleocr.

const dir = mkdtempSync(join(tmpdir(), 'image-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tesseract = ocrServiceOf(createTesseractAdapter({ timeoutMs: 120_000 }));
const png = createPictureFormat('png', tesseract);
let sign: Drawn;
let parsedSign: ParsedFile;

const ocr = (bytes: Uint8Array, lang = 'eng') => {
  const path = join(dir, `ocr-${Math.random().toString(16).slice(2)}.png`);
  writeFileSync(path, bytes);
  return execFileSync('tesseract', [path, '-', '-l', lang], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
};

/** The pixels of a picture (any type the canvas decodes) as RGBA. */
async function pixels(bytes: Uint8Array) {
  const image = await loadImage(Buffer.from(bytes));
  const c = createCanvas(image.width, image.height);
  const g = c.getContext('2d');
  g.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: g.getImageData(0, 0, image.width, image.height).data };
}

/** How many pixels in a box are far from a colour (ink on the sign's panel). */
function inkIn(p: Awaited<ReturnType<typeof pixels>>, box: { x: number; y: number; w: number; h: number }, ground: number[]): number {
  let n = 0;
  for (let y = Math.floor(box.y); y < box.y + box.h; y++) {
    for (let x = Math.floor(box.x); x < box.x + box.w; x++) {
      const i = (y * p.width + x) * 4;
      if (Math.hypot(p.data[i]! - ground[0]!, p.data[i + 1]! - ground[1]!, p.data[i + 2]! - ground[2]!) > 80) n++;
    }
  }
  return n;
}

const PANEL = [0xe8, 0xf5, 0xe9];

beforeAll(async () => {
  sign = signPicture();
  parsedSign = await png.parse(sign.png, { fileName: 'sign.png' });
}, 60_000);

describe('picture formats', () => {
  it('registers one format a picture type, each recognising its own magic bytes only', async () => {
    expect(pictureFormats(tesseract).map((f) => f.id)).toEqual(['png', 'jpeg', 'webp', 'tiff', 'bmp']);
    expect(pictureFormats(tesseract).flatMap((f) => f.extensions)).toEqual(['png', 'jpg', 'jpeg', 'webp', 'tiff', 'tif', 'bmp']);
    const canvas = createCanvas(8, 8);
    expect(pictureKind(canvas.toBuffer('image/png'))).toBe('png');
    expect(pictureKind(canvas.toBuffer('image/jpeg'))).toBe('jpeg');
    expect(pictureKind(canvas.toBuffer('image/webp'))).toBe('webp');
    expect(pictureKind(Buffer.from('BM is not enough'))).toBe('bmp');
    expect(pictureKind(Buffer.from('hello, this is text'))).toBeNull();
    expect(png.sniff!(Buffer.from('%PDF-1.7'))).toBe(false);
    expect(png.sniff!(canvas.toBuffer('image/jpeg'))).toBe(false);
    expect(pictureSize(sign.png)).toEqual({ width: sign.width, height: sign.height });
    expect(pictureSize(canvas.toBuffer('image/jpeg'))).toEqual({ width: 8, height: 8 });
    expect(pictureSize(canvas.toBuffer('image/webp'))).toEqual({ width: 8, height: 8 });
  });

  it('reads a sign into blocks in reading order, each with its box, confidence and colours', () => {
    expect(parsedSign.units.map((u) => u.source)).toEqual([SIGN, NOTICE.join(' ')]);
    const [heading, notice] = parsedSign.units.map((u) => u.context.meta!);
    for (const [meta, drawn] of [[heading!, sign.boxes.sign!], [notice!, sign.boxes.notice!]] as const) {
      expect(Math.abs(Number(meta.x) - drawn.x)).toBeLessThan(8);
      expect(Math.abs(Number(meta.y) - drawn.y)).toBeLessThan(12);
      expect(Math.abs(Number(meta.w) - drawn.w)).toBeLessThan(16);
      expect(Number(meta.confidence)).toBeGreaterThan(80);
      expect(meta.background).toBe('#e8f5e9');
      // The ink is dark green; anti-aliased edges may pull the median a little towards the panel.
      expect(parseInt(meta.color!.slice(1, 3), 16)).toBeLessThan(60);
      expect(meta.pageWidth).toBe(String(sign.width));
    }
    expect(notice!.lines).toBe('2');
    expect(Number(heading!.fontSize)).toBeGreaterThan(Number(notice!.fontSize));
    expect(parsedSign.units.every((u) => u.context.style === 'ocr' && u.context.part === 'page 1')).toBe(true);
  });

  it('reads a Chinese line with the Chinese language pack', async () => {
    const zh = chinesePicture();
    const parsed = await png.parse(zh.png, { fileName: 'zh.png', sourceLanguage: 'zh-CN' } as never);
    expect(parsed.units.map((u) => u.source.replace(/\s/g, ''))).toEqual([CHINESE]);
    expect(ocrLanguagesFor(['eng', 'chi_sim'], 'zh-CN', ['eng'])).toEqual(['chi_sim', 'eng']);
    expect(ocrLanguagesFor(['eng', 'chi_sim'], 'fr', ['eng', 'chi_sim'])).toEqual(['eng', 'chi_sim']);
  }, 60_000);

  it('covers the original text and draws the translation in its place, keeping the picture size', async () => {
    const units = parsedSign.units.map((u) => ({ ...u, target: u.source === SIGN ? 'SALIDA' : 'Mantenga la puerta cerrada' }));
    const out = await png.write(parsedSign, units);
    expect(pictureKind(out)).toBe('png');
    const before = await pixels(sign.png);
    const after = await pixels(out);
    expect([after.width, after.height]).toEqual([sign.width, sign.height]);
    // The short translation leaves the right part of the old heading's box: its ink is gone.
    const box = sign.boxes.sign!;
    const right = { x: box.x + box.w * 0.55, y: box.y, w: box.w * 0.45, h: box.h };
    expect(inkIn(before, right, PANEL)).toBeGreaterThan(200);
    expect(inkIn(after, right, PANEL)).toBe(0);
    const read = ocr(out);
    expect(read).toContain('SALIDA');
    expect(read).toMatch(/Mantenga la puerta\s+cerrada/);
    expect(read).not.toMatch(/EMERGENCY|keep this door/);
    // Outside the blocks nothing changed (the wall).
    expect(inkIn(after, { x: 0, y: 0, w: sign.width, h: 25 }, [0x8a, 0x8f, 0x94])).toBe(0);
  }, 60_000);

  it('covers text on a shaded ground with the shading around it, not one flat colour', async () => {
    const shaded = shadedSign();
    const parsed = await png.parse(shaded.png, { fileName: 'shaded.png' });
    expect(parsed.units.map((u) => u.source)).toEqual([SIGN]);
    const out = await png.write(parsed, parsed.units.map((u) => ({ ...u, target: 'EXIT' })));
    const before = await pixels(shaded.png);
    const after = await pixels(out);
    // In the vacated part of the old box, each pixel is close to the ground above the box at its column.
    const box = shaded.boxes.sign!;
    let worst = 0;
    for (let x = Math.ceil(box.x + box.w * 0.45); x < box.x + box.w; x += 3) {
      const i = ((box.y - 20) * before.width + x) * 4;
      const ground = [before.data[i]!, before.data[i + 1]!, before.data[i + 2]!];
      for (const y of [box.y + 10, box.y + 24, box.y + 38]) {
        const j = (y * after.width + x) * 4;
        worst = Math.max(worst, Math.hypot(after.data[j]! - ground[0]!, after.data[j + 1]! - ground[1]!, after.data[j + 2]! - ground[2]!));
      }
    }
    expect(worst).toBeLessThan(20);
  }, 60_000);

  it('draws Chinese translations with the CJK font', async () => {
    const units = parsedSign.units.map((u) => ({ ...u, target: u.source === SIGN ? '紧急出口' : '请随时关闭此门' }));
    const out = await png.write(parsedSign, units);
    const read = ocr(out, 'chi_sim').replace(/\s/g, '');
    expect(read).toContain('紧急出口');
    expect(read).toContain('关闭此门');
  }, 60_000);

  it('writes each picture type back in its own type', async () => {
    const source = join(dir, 'sign.png');
    writeFileSync(source, sign.png);
    const canvas = createCanvas(sign.width, sign.height);
    canvas.getContext('2d').drawImage(await loadImage(sign.png), 0, 0);
    const files: Record<Exclude<PictureKind, 'png'>, Buffer> = {
      jpeg: canvas.toBuffer('image/jpeg', 95),
      webp: canvas.toBuffer('image/webp', 95),
      tiff: (execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', source, join(dir, 'sign.tiff')]), readFileSync(join(dir, 'sign.tiff'))),
      bmp: (execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', source, join(dir, 'sign.bmp')]), readFileSync(join(dir, 'sign.bmp'))),
    };
    for (const [kind, bytes] of Object.entries(files) as Array<[PictureKind, Buffer]>) {
      const format = createPictureFormat(kind, tesseract);
      expect(format.sniff!(bytes), kind).toBe(true);
      const parsed = await format.parse(bytes, { fileName: `sign.${kind}` });
      expect(parsed.units.map((u) => u.source), kind).toEqual([SIGN, NOTICE.join(' ')]);
      const out = await format.write(parsed, parsed.units.map((u) => ({ ...u, target: u.source === SIGN ? 'SALIDA' : 'Cerrada' })));
      expect(pictureKind(out), kind).toBe(kind);
      expect(pictureSize(out), kind).toEqual({ width: sign.width, height: sign.height });
      expect((parsed.skeleton as PictureSkeleton).kind).toBe(kind);
    }
  }, 120_000);

  it('refuses a file that is not a picture, a cut-short picture and one with too many pixels', async () => {
    const refusal = async (p: Promise<unknown>) => {
      const err = await p.then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(PictureReadError);
      return err as PictureReadError;
    };
    expect((await refusal(png.parse(Buffer.from('just some text, not a picture')))).code).toBe('damaged');
    const cut = await refusal(png.parse(sign.png.subarray(0, Math.floor(sign.png.length / 3))));
    expect(cut.code).toBe('damaged');
    expect(cut.message).toMatch(/damaged/);
    expect((await refusal(png.parse(sign.png.subarray(0, 20)))).code).toBe('damaged');
    const small = createPictureFormat('png', tesseract, { maxPixels: 10_000 });
    const big = await refusal(small.parse(sign.png));
    expect(big.code).toBe('tooLarge');
    expect(big.message).toContain(`${sign.width}×${sign.height}`);
  }, 60_000);
});

describe('readings kept in memory', () => {
  it('gives the same reading of a picture read before, and a caller changing it changes nothing kept', async () => {
    const again = await png.parse(sign.png, { fileName: 'sign.png' });
    expect(again.units).toEqual(parsedSign.units);
    again.units[0]!.source = 'changed';
    again.units[0]!.context.meta!.x = '0';
    const third = await png.parse(sign.png, { fileName: 'sign.png' });
    expect(third.units[0]!.source).toBe(SIGN);
    expect(third.units[0]!.context.meta!.x).toBe(parsedSign.units[0]!.context.meta!.x);
    // A different picture is read, not remembered.
    const other = await png.parse(chinesePicture().png, { fileName: 'sign.png' });
    expect(other.units.map((u) => u.source)).not.toContain(SIGN);
  }, 60_000);
});
