// Database: none
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, readZip } from '@linguaport/sdk/interchange';
import type { OcrService } from '@linguaport/sdk/server';
import type { ParsedFile } from '@linguaport/sdk/shared';
import type { Line } from '@linguaport/sdk/server';
import { createPdfFormat } from '../../server/pdf.js';
import { findTables } from '../../server/tables.js';
import { AFTER_TABLE, makeTableFixture, NOTE_SENTENCE, NOTE_TEXT, printedByOffice, TABLE } from './samples.js';

// A text PDF (LibreOffice's, made here) with a bordered table and a footnote: the table comes back as a
// Word table, one unit a cell; the footnote mark stays a mark (a placeholder for the engine, a
// superscript run in the docx), and so does the note's number at the page's foot.

const noOcr = { languages: async () => [], recognize: async () => { throw new Error('no OCR here'); } } as unknown as OcrService;
const pdfFormat = createPdfFormat(noOcr);
const dir = mkdtempSync(join(tmpdir(), 'pdf-tables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let parsed: ParsedFile;
let docx: Uint8Array;

beforeAll(async () => {
  parsed = await pdfFormat.parse(makeTableFixture(dir), { fileName: 'harvest.pdf' });
  const units = parsed.units.map((u) => ({ ...u, target: `ES ${u.source}` }));
  docx = await pdfFormat.write(parsed, units, { targetLanguage: 'es', mode: 'translated' });
}, 300_000);

const documentXml = (bytes: Uint8Array) => readZip(Buffer.from(bytes), { maxEntries: 20, maxBytes: 50_000_000 }).find((e) => e.name === 'word/document.xml')!.data.toString('utf8');
const textOf = (xml: string) => [...xml.matchAll(/<w:t xml:space="preserve">([^<]*)<\/w:t>/g)].map((m) => decodeEntities(m[1]!)).join('');

describe('tables and footnotes in a text PDF', () => {
  it('reads each table cell as a unit, in rows, between the paragraphs around the table', () => {
    const sources = parsed.units.map((u) => u.source);
    expect(sources).toEqual([`${NOTE_SENTENCE[0]}<1/>${NOTE_SENTENCE[1]}`, ...TABLE.flat(), AFTER_TABLE, `<1/> ${NOTE_TEXT}`]);
    expect(parsed.units.filter((u) => u.context.style === 'table cell')).toHaveLength(9);
  });

  it('keeps the footnote mark out of the word: a standalone placeholder, written back as a superscript run', () => {
    const first = parsed.units[0]!;
    expect(first.source).not.toMatch(/region1|region 1/);
    expect(first.tags['1']).toMatchObject({ kind: 'standalone' });
    const xml = documentXml(docx);
    const marked = /<w:r><w:rPr>(?:(?!<\/w:rPr>).)*<w:vertAlign w:val="superscript"\/><\/w:rPr><w:t xml:space="preserve">([^<]*)<\/w:t><\/w:r>/.exec(xml);
    expect(marked?.[1]).toBe('1');
    // The note at the foot keeps its number, as a mark before its text.
    const note = [...xml.matchAll(/<w:p>(.*?)<\/w:p>/g)].map((p) => p[1]!).find((p) => p.includes(NOTE_TEXT))!;
    expect(textOf(note)).toBe(`ES 1 ${NOTE_TEXT}`);
  });

  it('writes the table as a Word table: 3 rows of 3 cells with the translations', () => {
    const xml = documentXml(docx);
    const tables = [...xml.matchAll(/<w:tbl>(.*?)<\/w:tbl>/g)];
    expect(tables).toHaveLength(1);
    const rows = [...tables[0]![1]!.matchAll(/<w:tr>(.*?)<\/w:tr>/g)].map((r) => [...r[1]!.matchAll(/<w:tc>(.*?)<\/w:tc>/g)].map((c) => textOf(c[1]!)));
    expect(rows).toEqual(TABLE.map((row) => row.map((c) => `ES ${c}`)));
    expect([...tables[0]![1]!.matchAll(/<w:gridCol /g)]).toHaveLength(3);
  });

  it('LibreOffice opens the docx: printed, it has the table again with its cells and the mark', async () => {
    const printed = await pdfFormat.parse(printedByOffice(dir, docx, 'harvest-es'), { fileName: 'printed.pdf' });
    const cells = printed.units.filter((u) => u.context.style === 'table cell').map((u) => u.source);
    expect(cells).toEqual(TABLE.flat().map((c) => `ES ${c}`));
    expect(printed.units[0]!.source).toBe(`ES ${NOTE_SENTENCE[0]}<1/>${NOTE_SENTENCE[1]}`);
  }, 180_000);
});

/** A line of words at `y` (12 pt high), each word `[x, text]`, 6 pt a letter. */
const line = (y: number, ...words: Array<[number, string]>): Line => {
  const ws = words.map(([x, text]) => ({ x0: x, x1: x + 6 * text.length, y0: y, y1: y + 12, text }));
  return { x0: ws[0]!.x0, x1: ws.at(-1)!.x1, y0: y, y1: y + 12, words: ws };
};
const sentence = (x: number, y: number, text: string) => line(y, ...text.split(' ').reduce<Array<[number, string]>>((out, w) => [...out, [out.length ? out.at(-1)![0] + 6 * out.at(-1)![1].length + 3 : x, w]], []));

describe('what is not a table', () => {
  it('a bulleted or numbered list is not a table; aligned cells are', () => {
    const bullets = [0, 1, 2, 3].map((i) => line(100 + 16 * i, [60, '\u2022'], [90, 'an'], [105, 'item'], [132, 'of'], [147, 'the'], [168, 'list']));
    expect(findTables(bullets).tables).toEqual([]);
    const numbered = [0, 1, 2].map((i) => line(100 + 16 * i, [60, `${i + 1}.`], [90, 'step'], [117, 'number'], [158, String(i)]));
    expect(findTables(numbered).tables).toEqual([]);
    const cells = [0, 1, 2, 3].map((i) => line(100 + 16 * i, [60, `name${i}`], [200, `kind${i}`], [340, `${i * 10}`]));
    const found = findTables(cells);
    expect(found.tables.map((t) => [t.rows.length, t.columns.length])).toEqual([[4, 3]]);
    expect(found.rest).toEqual([]);
  });

  it('two columns of running text are not a table', () => {
    const left = 'the harbour sees ships arrive every morning with goods from far away markets';
    const right = 'the mountains keep their sheep on green hills through the long quiet summer';
    const lines = [0, 1, 2, 3, 4].flatMap((i) => [sentence(60, 100 + 14 * i, left.slice(0, 70)), sentence(320, 100 + 14 * i, right.slice(0, 70))]);
    expect(findTables(lines).tables).toEqual([]);
  });
});
