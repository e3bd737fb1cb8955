import { describe, expect, it } from 'vitest';
import { textPicture, type PictureLine } from '@linguaport/sdk/testing';
import { createTesseractAdapter, ocrLanguagesFor, platformLanguageOfPack, readTesseractPage, tesseractLanguages, tesseractPacksFor, tesseractPacksOf } from '../src/index.js';

// The built-in OCR engine on pictures drawn at test time (Debian's DejaVu and Noto CJK fonts): what
// Debian's tesseract reads from them, word boxes where the words were drawn, and the refusals.
// (Moved from plugins/engine-tesseract, which keeps the kind's test in a kernel.)

/** Lines of dark text on white, each starting at x 40. */
const picture = (lines: PictureLine[], width = 640, height = 240) => new Uint8Array(textPicture({ width, height, lines }));

describe('tesseract adapter', () => {
  const adapter = createTesseractAdapter({ timeoutMs: 60_000 });

  it('reports the installed packs as platform languages, English and Chinese among them', async () => {
    expect(await adapter.health()).toEqual({ ok: true });
    const langs = await adapter.languages();
    expect(langs).toEqual(expect.arrayContaining(['en', 'zh-CN']));
    expect(langs).toEqual([...langs].sort());
  });

  it('reads words and lines with boxes where they were drawn and confidences', async () => {
    const image = picture([
      { text: 'FIRE EXIT', font: 'bold 56px "DejaVu Sans"', y: 40 },
      { text: 'Keep clear', font: 'bold 36px "DejaVu Sans"', y: 150 },
    ]);
    const page = await adapter.recognize(image, { languages: ['en'] });
    expect(page).toMatchObject({ width: 640, height: 240 });
    expect(page.lines.map((l) => l.text)).toEqual(['FIRE EXIT', 'Keep clear']);
    const [first, second] = page.lines;
    expect(first!.words.map((w) => w.text)).toEqual(['FIRE', 'EXIT']);
    expect(first!.x0).toBeGreaterThanOrEqual(36);
    expect(first!.x0).toBeLessThanOrEqual(50);
    expect(first!.y0).toBeGreaterThanOrEqual(40);
    expect(first!.y1).toBeLessThanOrEqual(40 + 60);
    expect(second!.y0).toBeGreaterThanOrEqual(150);
    for (const line of page.lines) {
      expect(line.confidence).toBeGreaterThan(80);
      for (const w of line.words) expect(w.x1).toBeGreaterThan(w.x0);
    }
    expect(first!.block === second!.block && first!.paragraph === second!.paragraph).toBe(false);
  }, 60_000);

  it('reads Chinese with the Chinese pack', async () => {
    const image = picture([{ text: '请勿吸烟', font: '56px "Noto Sans CJK JP"', y: 60 }], 420, 180);
    const page = await adapter.recognize(image, { languages: ['zh-CN'] });
    expect(page.lines.map((l) => l.text.replace(/\s/g, '')).join('')).toBe('请勿吸烟');
  }, 60_000);

  it('chooses the packs of the languages asked, English along, and refuses what it cannot read', async () => {
    expect(tesseractPacksFor(['eng', 'chi_sim', 'fra'], ['zh-CN'])).toEqual(['chi_sim', 'eng']);
    expect(tesseractPacksFor(['eng', 'chi_sim', 'fra'], ['fr', 'en'])).toEqual(['fra', 'eng']);
    expect(tesseractPacksFor(['eng'], ['xx'])).toEqual([]);
    await expect(adapter.recognize(new Uint8Array([1, 2, 3]), { languages: ['xx'] })).rejects.toMatchObject({ name: 'EngineError', kind: 'unsupported-pair' });
    // A file that is no picture: the request's fault (the node stays healthy).
    await expect(adapter.recognize(new TextEncoder().encode('not a picture at all'), { languages: ['en'] })).rejects.toMatchObject({ kind: 'rejected' });
    const missing = createTesseractAdapter({ timeoutMs: 5000, command: '/nonexistent/tesseract' });
    expect(await missing.health()).toMatchObject({ ok: false, detail: expect.stringContaining('tesseract-ocr') });
    await expect(missing.recognize(new Uint8Array([1]), { languages: ['en'] })).rejects.toMatchObject({ kind: 'unavailable' });
  }, 60_000);

  it('reads tesseract TSV rows into lines by block, paragraph and line', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t300\t100\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t10\t40\t20\t96.5\tHello',
      '5\t1\t1\t1\t1\t2\t60\t12\t50\t20\t91\tworld',
      '5\t1\t2\t1\t1\t1\t10\t60\t30\t18\t-1\t ',
      '5\t1\t2\t1\t1\t2\t10\t60\t30\t18\t70\tBye',
    ].join('\n');
    expect(readTesseractPage(tsv)).toEqual({
      width: 300,
      height: 100,
      lines: [
        { text: 'Hello world', x0: 10, y0: 10, x1: 110, y1: 32, confidence: 93.75, block: 1, paragraph: 1, words: [
          { text: 'Hello', x0: 10, y0: 10, x1: 50, y1: 30, confidence: 96.5 },
          { text: 'world', x0: 60, y0: 12, x1: 110, y1: 32, confidence: 91 },
        ] },
        { text: 'Bye', x0: 10, y0: 60, x1: 40, y1: 78, confidence: 70, block: 2, paragraph: 1, words: [{ text: 'Bye', x0: 10, y0: 60, x1: 40, y1: 78, confidence: 70 }] },
      ],
    });
  });
});

describe('tesseract language packs', () => {
  it('names the packs of platform codes and the platform code of a pack, both ways', () => {
    expect(tesseractPacksOf('zh-CN')).toEqual(['chi_sim']);
    expect(tesseractPacksOf('en-US')).toEqual(['eng']);
    expect(tesseractPacksOf('xx')).toEqual([]);
    expect(platformLanguageOfPack('chi_sim')).toBe('zh-CN');
    expect(platformLanguageOfPack('chi_tra')).toBe('zh-TW');
    expect(platformLanguageOfPack('fra')).toBe('fr');
    expect(platformLanguageOfPack('osd')).toBeNull();
  });

  it("reads with the source language's installed packs and English, else the installed defaults", () => {
    expect(ocrLanguagesFor(['eng', 'chi_sim'], 'zh-CN', ['eng'])).toEqual(['chi_sim', 'eng']);
    expect(ocrLanguagesFor(['eng', 'chi_sim'], 'fr', ['chi_sim', 'deu'])).toEqual(['chi_sim']);
    expect(ocrLanguagesFor(['spa'], undefined, ['eng'])).toEqual(['spa']);
  });

  it('lists the installed packs once per process (osd left out)', async () => {
    const first = tesseractLanguages();
    expect(tesseractLanguages()).toBe(first);
    const packs = await first;
    expect(packs).toEqual(expect.arrayContaining(['eng', 'chi_sim']));
    expect(packs).not.toContain('osd');
  }, 60_000);
});
