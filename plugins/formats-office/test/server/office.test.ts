// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '@linguaport/sdk/shared';
import { readZip } from '@linguaport/sdk/interchange';
import { docFormat, pptFormat, rtfFormat, xlsFormat } from '../../server/legacy.js';
import { odpFormat, odsFormat, odtFormat } from '../../server/odf.js';
import { docxFormat, pptxFormat, xlsxFormat } from '../../server/ooxml/formats.js';
import { FLAT_SHEET, FLAT_SLIDES, FLAT_TEXT, shout } from './samples.js';

// Every office module on files LibreOffice itself wrote (from flat OpenDocument sources): what it
// reads, that an untranslated write changes no part, and that a translation is in the file when
// LibreOffice opens it again (converted to text, CSV or PDF and read back).

const dir = mkdtempSync(join(tmpdir(), 'office-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const office = (args: string[]) => execFileSync('soffice', ['--headless', '--norestore', ...args], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 180_000, stdio: 'ignore' });
const files: Record<string, Buffer> = {};

beforeAll(() => {
  writeFileSync(join(dir, 'text.fodt'), FLAT_TEXT);
  writeFileSync(join(dir, 'sheet.fods'), FLAT_SHEET);
  writeFileSync(join(dir, 'slides.fodp'), FLAT_SLIDES);
  const make: Array<[string, string, string]> = [
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
  for (const [source, ext, filter] of make) {
    office(['--convert-to', filter, '--outdir', dir, join(dir, source)]);
    files[ext] = readFileSync(join(dir, source.replace(/\.\w+$/, `.${ext}`)));
  }
}, 300_000);

/** What LibreOffice reads in a written file, as text. */
function textSeenByOffice(bytes: Uint8Array, ext: string, kind: 'text' | 'sheet' | 'slides'): string {
  const name = `out-${ext}.${ext}`;
  writeFileSync(join(dir, name), bytes);
  if (kind === 'text') {
    office(['--convert-to', 'txt:Text (encoded):UTF8', '--outdir', join(dir, 'seen'), join(dir, name)]);
    return readFileSync(join(dir, 'seen', name.replace(/\.\w+$/, '.txt')), 'utf8');
  }
  if (kind === 'sheet') {
    office(['--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1', '--outdir', join(dir, 'seen'), join(dir, name)]);
    return execFileSync('sh', ['-c', `cat "${join(dir, 'seen')}"/out-${ext}*.csv`]).toString('utf8');
  }
  office(['--convert-to', 'pdf', '--outdir', join(dir, 'seen'), join(dir, name)]);
  return execFileSync('pdftotext', [join(dir, 'seen', name.replace(/\.\w+$/, '.pdf')), '-']).toString('utf8');
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

describe.each(CASES)('$ext', ({ ext, format, kind, reads, written, zip }) => {
  it('is recognised by its content', () => {
    expect(format.sniff!(files[ext]!)).toBe(true);
    expect(format.sniff!(Buffer.from('plain text, renamed'))).toBe(false);
  });

  it('reads the text of every part', async () => {
    const { units } = await format.parse(files[ext]!);
    const sources = units.map((u) => u.source);
    for (const text of reads) expect(sources.some((s) => s.includes(text)), `${text} in ${JSON.stringify(sources)}`).toBe(true);
    // Numbers in cells are values, not text.
    expect(sources).not.toContain('12.5');
  });

  it.runIf(zip)('writes every part unchanged when nothing is translated', async () => {
    const parsed = await format.parse(files[ext]!);
    const out = Buffer.from(await format.write(parsed, parsed.units));
    const limits = { maxEntries: 1000, maxBytes: 1e8 };
    const before = readZip(files[ext]!, limits);
    const after = readZip(out, limits);
    expect(after.map((e) => e.name)).toEqual(before.map((e) => e.name));
    after.forEach((e, i) => expect(e.data.equals(before[i]!.data), e.name).toBe(true));
  });

  it('writes a translation LibreOffice opens', async () => {
    const parsed = await format.parse(files[ext]!);
    const out = await format.write(parsed, parsed.units.map((u) => ({ ...u, target: shout(u.source) })));
    // A legacy file goes through LibreOffice both ways, which makes its own master placeholders again.
    const again = await format.parse(out);
    if (zip) expect(again.units.map((u) => u.source).sort()).toEqual(parsed.units.map((u) => shout(u.source)).sort());
    const seen = textSeenByOffice(out, ext, kind);
    for (const text of written) expect(seen, text).toContain(text);
  }, 120_000);
});

describe('xlsx sheet names', () => {
  it('renames sheets and the formulas that point at them, keeping names valid and unique', async () => {
    const parsed = await xlsxFormat.parse(files.xlsx!);
    const targets: Record<string, string> = { Prices: 'Precios: [2024]', 'Notes sheet': 'Precios: [2024]' };
    const out = await xlsxFormat.write(parsed, parsed.units.map((u) => ({ ...u, target: targets[u.source] ?? u.source })));
    const parts = Object.fromEntries(readZip(Buffer.from(out), { maxEntries: 1000, maxBytes: 1e8 }).map((e) => [e.name, e.data.toString('utf8')]));
    expect(parts['xl/workbook.xml']).toContain('name="Precios   2024"');
    expect(parts['xl/workbook.xml']).toContain('name="Precios   2024 (2)"');
    expect(parts['xl/worksheets/sheet1.xml']).toContain("'Precios   2024 (2)'!A1");
    const seen = textSeenByOffice(out, 'xlsx', 'sheet');
    expect(seen).toContain('Keep cool');
  }, 120_000);
});
