// Database: none
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, readZip } from '@linguaport/sdk/interchange';
import type { ParsedFile } from '@linguaport/sdk/shared';
import { randomText, seededRandom } from '@linguaport/sdk/testing';
import { fittedFontSize } from '../../server/docx.js';
import { blockText, blocksOf, isFolio, paragraphsOf, readingOrder, splitAtGaps, type Line } from '@linguaport/sdk/server';
import { ocrServiceOf } from '@linguaport/sdk/server';
import { createTesseractAdapter } from '@linguaport/ocr';
import { createPdfFormat, isScanned, ocrPagesOf, PdfReadError, type PdfSkeleton } from '../../server/pdf.js';
import { CHINESE, HEADING, LEFT_COLUMN, makeFixtures, PARAGRAPHS, RIGHT_COLUMN, printedByOffice, SECOND_PAGE } from './samples.js';

// The PDF module on PDFs LibreOffice wrote: what it reads from the text layer and, for a scan, by OCR;
// that the docx it writes holds the translations where LibreOffice can read them; and how it refuses
// files it cannot read.

// Scanned pages read with the SDK's tesseract adapter directly (routing to OCR nodes: ocr-routing.test.ts).
const pdfFormat = createPdfFormat(ocrServiceOf(createTesseractAdapter({ timeoutMs: 180_000, parallel: 2 })));
const dir = mkdtempSync(join(tmpdir(), 'pdf-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fixtures: ReturnType<typeof makeFixtures>;
let text: ParsedFile;
let scanned: ParsedFile;

beforeAll(async () => {
  fixtures = makeFixtures(dir);
  [text, scanned] = await Promise.all([pdfFormat.parse(fixtures.text, { fileName: 'report.pdf' }), pdfFormat.parse(fixtures.scanned, { fileName: 'scan.pdf' })]);
}, 300_000);

const documentXml = (docx: Uint8Array) => readZip(Buffer.from(docx), { maxEntries: 20, maxBytes: 50_000_000 }).find((e) => e.name === 'word/document.xml')!.data.toString('utf8');

/** The texts of a docx's framed paragraphs (one a block), as the writer put them. */
function framedTexts(docx: Uint8Array): string[] {
  return [...documentXml(docx).matchAll(/<w:p><w:pPr><w:framePr (.*?)<\/w:p>/g)].map((p) =>
    [...p[1]!.matchAll(/<w:t xml:space="preserve">([^<]*)<\/w:t>|<w:br\/>|<w:tab\/>/g)].map((m) => (m[0] === '<w:br/>' ? '\n' : m[0] === '<w:tab/>' ? '\t' : decodeEntities(m[1]!))).join(''),
  );
}


describe('pdf format', () => {
  it('recognises a PDF by its header and nothing else', () => {
    expect(pdfFormat.sniff!(fixtures.text)).toBe(true);
    expect(pdfFormat.sniff!(Buffer.from('PK\u0003\u0004 a zip'))).toBe(false);
    expect(pdfFormat.sniff!(Buffer.from('%PD'))).toBe(false);
    expect(pdfFormat.outputExtension).toBe('docx');
  });

  it('reads paragraphs in reading order, the left column before the right, page by page', () => {
    expect(text.units.map((u) => u.source)).toEqual([HEADING, ...PARAGRAPHS, LEFT_COLUMN, RIGHT_COLUMN, CHINESE, SECOND_PAGE]);
    expect(text.units.map((u) => u.context.part)).toEqual([...Array(5).fill('page 1'), 'page 2', 'page 2']);
    expect(text.units.map((u) => u.context.position)).toEqual([1, 2, 3, 4, 5, 1, 2]);
    expect(isScanned(text)).toBe(false);
    expect(new Set(text.units.map((u) => u.id)).size).toBe(text.units.length);
  });

  it('gives each paragraph its place and an estimated font size', () => {
    const [heading, first, , left, right] = text.units.map((u) => u.context.meta!);
    expect(Number(heading!.fontSize)).toBeCloseTo(20, 0);
    expect(Number(first!.fontSize)).toBeCloseTo(12, 0);
    // 2 cm margins on A4: 56.7 pt from the left; the right column starts past the middle of the page.
    expect(Number(left!.x)).toBeCloseTo(56.7, 0);
    expect(Number(right!.x)).toBeGreaterThan(297);
    expect(Number(left!.y)).toBe(Number(right!.y));
    expect(Number(first!.y)).toBeGreaterThan(Number(heading!.y));
    expect(Number(left!.w)).toBeLessThan(240);
  });

  it('keeps page numbers out of the units but in the skeleton', () => {
    const skeleton = text.skeleton as PdfSkeleton;
    expect(skeleton.pages.map((p) => p.blocks.filter((b) => !b.unit).map((b) => b.text))).toEqual([['1'], ['2']]);
    expect(skeleton.pages[0]).toMatchObject({ width: expect.closeTo(595.3, 0), height: expect.closeTo(841.9, 0) });
  });

  it('reads a scanned page by OCR, with the words, the columns in order, and says so', () => {
    expect(isScanned(scanned)).toBe(true);
    expect(ocrPagesOf(scanned)).toEqual([1]);
    expect(scanned.units.every((u) => u.context.style === 'ocr' && u.context.part === 'page 1')).toBe(true);
    const all = scanned.units.map((u) => u.source).join('\n');
    for (const word of ['annual', 'report', 'factory', 'margin', 'harbour', 'mountains', 'sheep']) expect(all).toContain(word);
    const harbour = scanned.units.findIndex((u) => u.source.includes('harbour'));
    const mountains = scanned.units.findIndex((u) => u.source.includes('mountains'));
    expect(harbour).toBeGreaterThan(-1);
    // The columns are separate paragraphs, the left one read first.
    expect(mountains).toBe(harbour + 1);
    expect(scanned.units[harbour]!.source).not.toContain('mountains');
  });

  it('writes a docx LibreOffice lays out with the translations in their places, one section per page', async () => {
    const translated = text.units.map((u, i) => (i === 5 ? u : { ...u, target: `«${u.source.toUpperCase()}» & <co>` }));
    const docx = await pdfFormat.write(text, translated, { targetLanguage: 'fr-FR' });
    // Read back through this very module: LibreOffice's PDF of the docx has a text layer.
    const printed = await pdfFormat.parse(printedByOffice(dir, docx, 'translated'));
    const fold = (s: string) => s.replace(/\s+/g, ' ').trim();
    const seen = fold(printed.units.map((u) => u.source).join(' '));
    let from = 0;
    for (const u of translated) {
      // In the order written: LibreOffice wraps a frame's words its own way, so compare with white space folded.
      const at = seen.indexOf(fold(u.target ?? u.source), from);
      expect(at, u.target ?? u.source).toBeGreaterThanOrEqual(from);
      from = at;
    }
    expect(seen).not.toContain(PARAGRAPHS[0]);
    expect((printed.skeleton as PdfSkeleton).pages).toHaveLength(2);
    const heading = printed.units.find((u) => u.source.startsWith('«THE ANNUAL'))!;
    const left = printed.units.find((u) => u.source.includes('HARBOUR'))!;
    const right = printed.units.find((u) => u.source.includes('MOUNTAINS'))!;
    for (const [was, now] of [[text.units[0]!, heading], [text.units[3]!, left], [text.units[4]!, right]] as const) {
      expect(Math.abs(Number(now.context.meta!.x) - Number(was.context.meta!.x))).toBeLessThan(6);
      expect(Math.abs(Number(now.context.meta!.y) - Number(was.context.meta!.y))).toBeLessThan(12);
    }
    const xml = documentXml(docx);
    expect(xml.match(/<w:sectPr>/g)).toHaveLength(2);
    expect(xml.match(/<w:framePr /g)!.length).toBe(text.units.length + 2);
    expect(xml).toContain('w:hAnchor="page" w:vAnchor="page"');
    expect(xml).toContain('<w:pgSz w:w="11906" w:h="16838"/>');
    // LibreOffice prints the docx: its start-up alone takes tens of seconds on a loaded 2-core machine.
  }, 150_000);

  it('writes the translation of a scanned page too', async () => {
    const docx = await pdfFormat.write(scanned, scanned.units.map((u) => ({ ...u, target: `TRADUIT ${u.id}` })));
    expect(framedTexts(docx).filter((p) => p.startsWith('TRADUIT'))).toHaveLength(scanned.units.length);
  });

  it('places each block where it stood and shrinks its font when the translation is longer', async () => {
    const [heading] = text.units;
    const docx = await pdfFormat.write(text, [{ ...heading!, target: `${heading!.source} `.repeat(4).trim() }]);
    const xml = documentXml(docx);
    const meta = heading!.context.meta!;
    expect(xml).toContain(`w:x="${Math.round(Number(meta.x) * 20)}" w:y="${Math.round(Number(meta.y) * 20)}"`);
    // Four times the text on one line, in a frame as wide as the page's text (2.4 times the title):
    // about 20 × 17/71 × 2.4, so 11 pt.
    expect(/<w:sz w:val="(\d+)"\/>/.exec(xml)![1]).toBe('22');
    expect(fittedFontSize(12, 'short', 'short')).toBe(12);
    expect(fittedFontSize(12, 'ab', 'a much much much longer translation')).toBe(6);
    expect(fittedFontSize(12, 'abcd', '翻译')).toBe(12);
    // A paragraph wraps: twice the text in the same width is the size over the square root of two, to the half point below.
    expect(fittedFontSize(12, 'x'.repeat(100), 'x'.repeat(200))).toBe(8);
    expect(fittedFontSize(12, 'x'.repeat(100), 'x'.repeat(200), 1, true)).toBe(6);
    expect(fittedFontSize(12, 'x'.repeat(100), 'x'.repeat(110), 1.12)).toBe(12);
  });

  it('writes units without a target with their source', async () => {
    const docx = await pdfFormat.write(text, []);
    expect(framedTexts(docx)).toEqual([HEADING, ...PARAGRAPHS, LEFT_COLUMN, RIGHT_COLUMN, '1', CHINESE, SECOND_PAGE, '2']);
  });

  it('writes any translation text into the document as it is (seeded, 300 texts)', async () => {
    const random = seededRandom(20240611);
    for (let round = 0; round < 30; round++) {
      const targets = text.units.map(() => randomText(random, 120));
      const docx = await pdfFormat.write(text, text.units.map((u, i) => ({ ...u, target: targets[i] })));
      const isUnit = (text.skeleton as PdfSkeleton).pages.flatMap((p) => p.blocks.map((b) => !!b.unit));
      const written = framedTexts(docx).filter((_, i) => isUnit[i]);
      // The characters XML cannot hold are dropped, line ends of any kind are one break.
      const expected = targets.map((t) => t.replace(/\r\n|\r/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
      expect(written).toEqual(expected);
    }
  });

  it('refuses a damaged PDF with a message that says so', async () => {
    const damaged = fixtures.text.subarray(0, 600);
    await expect(pdfFormat.parse(damaged)).rejects.toThrow(/damaged or not a PDF/);
    await expect(pdfFormat.parse(Buffer.from('%PDF-1.4\nnothing here'))).rejects.toBeInstanceOf(PdfReadError);
    await expect(pdfFormat.parse(Buffer.from('%PDF-1.4\nnothing here'))).rejects.toMatchObject({ code: 'damaged' });
  });

  it('refuses a password-protected PDF, saying why', async () => {
    await expect(pdfFormat.parse(fixtures.encrypted)).rejects.toMatchObject({ code: 'encrypted', message: expect.stringMatching(/password/) });
  });
});

const line = (x0: number, y0: number, x1: number, text: string, h = 14): Line => ({ x0, y0, x1, y1: y0 + h, words: text.split(' ').map((w, i, all) => ({ x0: x0 + ((x1 - x0) * i) / all.length, y0, x1: x0 + ((x1 - x0) * (i + 1)) / all.length - 3, y1: y0 + h, text: w })) });

describe('pdf layout', () => {
  it('orders three columns under a full-width title column by column', () => {
    const box = (x0: number, y0: number, x1: number, y1: number, name: string) => ({ x0, y0, x1, y1, name });
    const blocks = [box(50, 50, 550, 80, 'title'), box(50, 100, 200, 300, 'a1'), box(220, 100, 370, 180, 'b1'), box(390, 100, 540, 400, 'c1'), box(220, 190, 370, 400, 'b2'), box(50, 310, 200, 400, 'a2'), box(50, 420, 550, 450, 'foot')];
    expect(readingOrder(blocks).map((b) => b.name)).toEqual(['title', 'a1', 'a2', 'b1', 'b2', 'c1', 'foot']);
  });

  it('reads a column that runs on below the other as part of its column', () => {
    const box = (x0: number, y0: number, x1: number, y1: number, name: string) => ({ x0, y0, x1, y1, name });
    expect(readingOrder([box(50, 100, 280, 200, 'left'), box(310, 100, 540, 150, 'right'), box(50, 210, 280, 300, 'left-more')]).map((b) => b.name)).toEqual(['left', 'left-more', 'right']);
  });

  it('starts a paragraph after a short line, a gap, or another size', () => {
    const blocks = blocksOf(
      [line(50, 100, 500, 'one two three four'), line(50, 114, 300, 'five six.'), line(50, 128, 500, 'seven eight nine ten'), line(50, 142, 500, 'eleven twelve'), line(50, 170, 500, 'after a gap'), line(50, 184, 400, 'Bigger', 24)],
      1.3,
    );
    expect(blocks.map((b) => b.text)).toEqual(['one two three four five six.', 'seven eight nine ten eleven twelve', 'after a gap', 'Bigger']);
  });

  it('finds columns on the lines, so a column never joins the paragraph above it or the footer below', () => {
    const lines = [
      line(50, 100, 540, 'full width text that runs across'),
      line(50, 114, 470, 'the page and ends here.'),
      line(50, 128, 270, 'left column one'),
      line(310, 128, 540, 'right column one'),
      line(50, 142, 272, 'left column two'),
      line(310, 142, 536, 'right column two'),
      line(50, 156, 200, 'left end.'),
      line(310, 156, 538, 'right column three'),
      line(310, 170, 400, 'right end.'),
      line(50, 780, 60, '7'),
    ];
    expect(paragraphsOf(lines, 1.3).map((b) => b.text)).toEqual([
      'full width text that runs across the page and ends here.',
      'left column one left column two left end.',
      'right column one right column two right column three right end.',
      '7',
    ]);
  });

  it('joins hyphenated words and Chinese lines without spaces', () => {
    expect(blockText([line(0, 0, 100, 'an inter-'), line(0, 14, 100, 'national firm')])).toBe('an international firm');
    expect(blockText([line(0, 0, 100, 'the north-'), line(0, 14, 100, 'East wind')])).toBe('the north- East wind');
    expect(blockText([line(0, 0, 100, '翻译 平台'), line(0, 14, 100, '文件')])).toBe('翻译平台文件');
  });

  it('cuts a line at a gutter and knows a page number when it sees one', () => {
    expect(splitAtGaps(line(50, 100, 540, 'left side x x x x x x x x right'))).toHaveLength(1);
    const wide: Line = { x0: 50, y0: 0, x1: 500, y1: 12, words: [{ x0: 50, y0: 0, x1: 90, y1: 12, text: 'left' }, { x0: 300, y0: 0, x1: 340, y1: 12, text: 'right' }] };
    expect(splitAtGaps(wide).map((l) => l.words.map((w) => w.text))).toEqual([['left'], ['right']]);
    for (const folio of ['1', '- 12 -', 'iv', '3 / 10', '(7)']) expect(isFolio(folio)).toBe(true);
    for (const words of ['Page one', '2024 annual report', 'A', 'Chapter 3']) expect(isFolio(words)).toBe(false);
  });
});
