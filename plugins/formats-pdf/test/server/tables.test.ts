// Database: none
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, readZip } from '@linguaport/sdk/interchange';
import type { OcrService } from '@linguaport/sdk/server';
import type { ParsedFile } from '@linguaport/sdk/shared';
import { createPdfFormat } from '../../server/pdf.js';
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
