// Database: none
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '@linguaport/sdk/shared';
import { readZip } from '@linguaport/sdk/interchange';
import { madeByLibreOffice, openedByLibreOffice, textSeenByLibreOffice } from '@linguaport/sdk/testing';
import { docFormat, pptFormat, rtfFormat, xlsFormat } from '../../server/legacy.js';
import { odpFormat, odsFormat, odtFormat } from '../../server/odf.js';
import { docxFormat, pptxFormat, xlsxFormat } from '../../server/ooxml/formats.js';
import { FLAT_SHEET, FLAT_SLIDES, FLAT_TEXT, shout } from './samples.js';

// Every office module on files LibreOffice itself wrote (from flat OpenDocument sources): what it
// reads, that an untranslated write changes no part, and that a translation is in the file when
// LibreOffice opens it again (converted to text, CSV or PDF and read back).

const SAMPLES = { 'text.fodt': FLAT_TEXT, 'sheet.fods': FLAT_SHEET, 'slides.fodp': FLAT_SLIDES };
const MADE: Array<[keyof typeof SAMPLES, string, string]> = [
  ['text.fodt', 'docx', 'docx:MS Word 2007 XML'],
  ['text.fodt', 'odt', 'odt'],
  ['text.fodt', 'doc', 'doc:MS Word 97'],
  ['text.fodt', 'rtf', 'rtf'],
  ['sheet.fods', 'xlsx', 'xlsx:Calc MS Excel 2007 XML'],
  ['sheet.fods', 'ods', 'ods'],
  ['sheet.fods', 'xls', 'xls:MS Excel 97'],
  ['slides.fodp', 'pptx', 'pptx:Impress MS PowerPoint 2007 XML'],
  ['slides.fodp', 'odp', 'odp'],
  ['slides.fodp', 'ppt', 'ppt:MS PowerPoint 97'],
];
const files: Record<string, Buffer> = {};
beforeAll(() => {
  for (const [source, ext, filter] of MADE) files[ext] = madeByLibreOffice({ name: source, content: SAMPLES[source] }, filter);
}, 600_000);

/** A legacy file is parsed through LibreOffice: each sample is parsed once and shared by its tests. */
const parsedOnce = new Map<string, ReturnType<FileFormat['parse']>>();
const parsed = (ext: string, format: FileFormat) => {
  if (!parsedOnce.has(ext)) parsedOnce.set(ext, format.parse(files[ext]!));
  return parsedOnce.get(ext)!;
};

const SEEN_AS: Record<'text' | 'sheet' | 'slides', string> = {
  text: 'txt:Text (encoded):UTF8',
  // Every sheet, each to a CSV file of its own.
  sheet: 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1',
  slides: 'pdf',
};

/** What LibreOffice reads in written files, as text, per kind in one LibreOffice start. */
function seenByOffice(written: Record<string, { bytes: Uint8Array; kind: 'text' | 'sheet' | 'slides' }>): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const kind of ['text', 'sheet', 'slides'] as const) {
    const batch = Object.fromEntries(Object.entries(written).filter(([, w]) => w.kind === kind).map(([name, w]) => [name, w.bytes]));
    if (Object.keys(batch).length === 0) continue;
    if (kind !== 'slides') {
      Object.assign(seen, textSeenByLibreOffice(batch, SEEN_AS[kind]));
      continue;
    }
    const { dir, outputs } = openedByLibreOffice(batch, 'pdf');
    try {
      for (const [name, pdfs] of Object.entries(outputs)) seen[name] = pdfs.map((pdf) => execFileSync('pdftotext', [pdf, '-']).toString('utf8')).join('\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return seen;
}

const CASES: Array<{ ext: string; format: FileFormat; kind: 'text' | 'sheet' | 'slides'; reads: string[]; written: string[]; zip: boolean }> = [
  { ext: 'docx', format: docxFormat, kind: 'text', reads: ['The annual report', 'Figures are estimates.', 'Company confidential', 'Printed in Spain', 'Region', 'Quarterly figures'], written: ['«THE ANNUAL REPORT', 'SALES GREW IN THE NORTH OF THE COUNTRY.', 'REGION'], zip: true },
  { ext: 'odt', format: odtFormat, kind: 'text', reads: ['The annual report', 'Sales grew in the <1>north</1> of the country.<2/>', 'Figures are estimates.', 'See <1>our website</1> for  details.', 'Company confidential', 'Printed in Spain', 'Quarterly figures'], written: ['«THE ANNUAL REPORT', 'SALES GREW IN THE NORTH OF THE COUNTRY.', 'SEE OUR WEBSITE FOR  DETAILS.', 'REGION'], zip: true },
  { ext: 'doc', format: docFormat, kind: 'text', reads: ['The annual report', 'Figures are estimates.', 'Region'], written: ['«THE ANNUAL REPORT', 'REGION'], zip: false },
  { ext: 'rtf', format: rtfFormat, kind: 'text', reads: ['The annual report', 'Figures are estimates.'], written: ['«THE ANNUAL REPORT', 'REGION'], zip: false },
  { ext: 'xlsx', format: xlsxFormat, kind: 'sheet', reads: ['Green apples', 'Fresh bread', 'Keep cool', 'Prices', 'Notes sheet'], written: ['«GREEN APPLES', '12.5', '25', '«FRESH BREAD'], zip: true },
  { ext: 'ods', format: odsFormat, kind: 'sheet', reads: ['Green apples', 'Fresh bread', 'Keep cool'], written: ['«GREEN APPLES', '12.5', '25'], zip: true },
  { ext: 'xls', format: xlsFormat, kind: 'sheet', reads: ['Green apples', 'Fresh bread'], written: ['«GREEN APPLES', '12.5'], zip: false },
  { ext: 'pptx', format: pptxFormat, kind: 'slides', reads: ['Welcome to the launch', 'Speak slowly here.'], written: ['«WELCOME TO THE LAUNCH', 'PRODUCT SHIPS TODAY.'], zip: true },
  { ext: 'odp', format: odpFormat, kind: 'slides', reads: ['Welcome to the launch', 'Our <1>new</1> product ships today.', 'Speak slowly here.'], written: ['«WELCOME TO THE LAUNCH', 'PRODUCT SHIPS TODAY.'], zip: true },
  { ext: 'ppt', format: pptFormat, kind: 'slides', reads: ['Welcome to the launch'], written: ['«WELCOME TO THE LAUNCH'], zip: false },
];

/** Every case's translation and the sheet-renaming one, written and read back by LibreOffice before the tests look. */
const SHEET_TARGETS: Record<string, string> = { Prices: 'Precios: [2024]', 'Notes sheet': 'Precios: [2024]' };
const outputs: Record<string, { bytes: Uint8Array; again: string[] } | Error> = {};
let seen: Record<string, string> = {};
beforeAll(async () => {
  const toOpen: Record<string, { bytes: Uint8Array; kind: 'text' | 'sheet' | 'slides' }> = {};
  for (const { ext, format, kind, zip } of CASES) {
    try {
      const p = await parsed(ext, format);
      const bytes = await format.write(p, p.units.map((u) => ({ ...u, target: shout(u.source) })));
      // A legacy file goes through LibreOffice both ways, which makes its own master placeholders again: only a zipped one is parsed again.
      const again = zip ? (await format.parse(bytes)).units.map((u) => u.source) : [];
      outputs[ext] = { bytes, again };
      toOpen[`${ext}.${ext}`] = { bytes, kind };
    } catch (err) {
      outputs[ext] = err as Error;
    }
  }
  const p = await parsed('xlsx', xlsxFormat);
  const renamed = await xlsxFormat.write(p, p.units.map((u) => ({ ...u, target: SHEET_TARGETS[u.source] ?? u.source })));
  outputs['renamed-sheets'] = { bytes: renamed, again: [] };
  toOpen['renamed.xlsx'] = { bytes: renamed, kind: 'sheet' };
  seen = seenByOffice(toOpen);
}, 600_000);

const writtenFor = (key: string) => {
  const w = outputs[key];
  if (w instanceof Error) throw w;
  return w!;
};

describe.each(CASES)('$ext', ({ ext, format, kind, reads, written, zip }) => {
  it('is recognised by its content', () => {
    expect(format.sniff!(files[ext]!)).toBe(true);
    expect(format.sniff!(Buffer.from('plain text, renamed'))).toBe(false);
  });

  it('reads the text of every part', async () => {
    const { units } = await parsed(ext, format);
    const sources = units.map((u) => u.source);
    for (const text of reads) expect(sources.some((s) => s.includes(text)), `${text} in ${JSON.stringify(sources)}`).toBe(true);
    // Numbers in cells are values, not text.
    expect(sources).not.toContain('12.5');
  });

  it.runIf(zip)('writes every part unchanged when nothing is translated', async () => {
    const p = await parsed(ext, format);
    const out = Buffer.from(await format.write(p, p.units));
    const limits = { maxEntries: 1000, maxBytes: 1e8 };
    const before = readZip(files[ext]!, limits);
    const after = readZip(out, limits);
    expect(after.map((e) => e.name)).toEqual(before.map((e) => e.name));
    after.forEach((e, i) => expect(e.data.equals(before[i]!.data), e.name).toBe(true));
  });

  it('writes a translation LibreOffice opens', async () => {
    const { again } = writtenFor(ext);
    if (zip) expect(again.sort()).toEqual((await parsed(ext, format)).units.map((u) => shout(u.source)).sort());
    for (const text of written) expect(seen[`${ext}.${ext}`], text).toContain(text);
  });
});

describe('xlsx sheet names', () => {
  it('renames sheets and the formulas that point at them, keeping names valid and unique', () => {
    const parts = Object.fromEntries(readZip(Buffer.from(writtenFor('renamed-sheets').bytes), { maxEntries: 1000, maxBytes: 1e8 }).map((e) => [e.name, e.data.toString('utf8')]));
    expect(parts['xl/workbook.xml']).toContain('name="Precios   2024"');
    expect(parts['xl/workbook.xml']).toContain('name="Precios   2024 (2)"');
    expect(parts['xl/worksheets/sheet1.xml']).toContain("'Precios   2024 (2)'!A1");
    expect(seen['renamed.xlsx']).toContain('Keep cool');
  });
});
