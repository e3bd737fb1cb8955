// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readZip } from '@linguaport/sdk/interchange';
import { checkTranslatedRoundTrip } from '@linguaport/sdk/testing';
import { docxFormat } from '../../server/ooxml/formats.js';
import { DOCX_PARTS, shout, zipOf } from './samples.js';

// The docx module on a package with every part a report has (body, table, header, footer, footnote,
// comment, text box, chart, title): what it reads, that an untranslated write changes no part, that a
// translation lands in every part with its formatting, and that LibreOffice opens the result.

const dir = mkdtempSync(join(tmpdir(), 'docx-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sample = zipOf(DOCX_PARTS);
const LIMITS = { maxEntries: 100, maxBytes: 1e8 };

describe('docx', () => {
  it('reads the text of every part, runs merged, formatting and marks as placeholders', async () => {
    const { units } = await docxFormat.parse(sample);
    const texts = units.map((u) => `${u.context.part}: ${u.source}`);
    expect(texts).toEqual([
      'body: The annual report',
      'body: Hello world, this is <1>bold</1> and <2>a link</2>.',
      'body: Tom & Jerry <3 say "hi"<1/>after a tab',
      'body: Cell one',
      'body: 12.5',
      'body: Page <1/>1<2/> of the report',
      'body: Before the box',
      'body: Text in a box',
      'body: Text in a box',
      'header: Company confidential',
      'footer: Printed in Spain',
      'footnote: A note at the foot.',
      'comment: Check this figure',
      'chart: Sales by region',
      'chart: Revenue',
      'chart: North',
      'chart: South',
      'properties: Quarterly figures',
    ]);
    expect(units[0]!.context.style).toBe('Heading1');
    // The split "Hel|lo" (revision ids, a spell-check mark, two language tags) is one word; the bold
    // word and the link are tags, the footnote reference after the last text stays outside the unit.
    expect(units[1]!.tags['1']!.kind).toBe('paired');
    expect(units[5]!.tags['1']!.kind).toBe('standalone');
  });

  it('writes every part unchanged when nothing is translated', async () => {
    const parsed = await docxFormat.parse(sample);
    const written = Buffer.from(await docxFormat.write(parsed, parsed.units));
    const before = readZip(sample, LIMITS);
    const after = readZip(written, LIMITS);
    expect(after.map((e) => e.name)).toEqual(before.map((e) => e.name));
    after.forEach((e, i) => expect(e.data.equals(before[i]!.data), e.name).toBe(true));
  });

  it('writes translations into every part, keeping the bold word bold, the link, the note and the field', async () => {
    const written = Buffer.from(await checkTranslatedRoundTrip(docxFormat, sample, shout));
    const entries = readZip(written, LIMITS);
    const parts = Object.fromEntries(entries.map((e) => [e.name, e.data.toString('utf8')]));
    const body = parts['word/document.xml']!;
    expect(body).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t>BOLD</w:t></w:r>');
    expect(body).toContain('<w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>A LINK</w:t></w:r></w:hyperlink>');
    expect(body).toContain('<w:footnoteReference w:id="1"/>');
    expect(body).toContain('<w:instrText xml:space="preserve"> PAGE </w:instrText>');
    expect(body).toContain('TOM &amp; JERRY &lt;3 SAY "HI"');
    expect(body).not.toContain('proofErr');
    expect(body).toContain('<w:pStyle w:val="Heading1"/>');
    expect(body.match(/TEXT IN A BOX/g)).toHaveLength(2);
    expect(parts['word/header1.xml']).toContain('«COMPANY CONFIDENTIAL');
    expect(parts['word/footnotes.xml']).toContain('<w:t xml:space="preserve"> A «NOTE AT THE FOOT.</w:t>');
    expect(parts['word/footnotes.xml']).toContain('<w:footnoteRef/>');
    expect(parts['word/charts/chart1.xml']).toContain('<c:v>«NORTH</c:v>');
    expect(parts['word/charts/chart1.xml']).toContain('<c:v>4</c:v>');
    expect(parts['docProps/core.xml']).toContain('<dc:title>«QUARTERLY FIGURES</dc:title>');
    expect(entries.find((e) => e.name === 'word/media/image1.png')!.data.equals(Buffer.from(DOCX_PARTS['word/media/image1.png']!, 'latin1'))).toBe(true);
  });

  it('keeps every mark when a translation drops its placeholder', async () => {
    const parsed = await docxFormat.parse(sample);
    const units = parsed.units.map((u) => ({ ...u, target: u.id === '6' ? 'Página de la memoria' : u.source }));
    const written = Buffer.from(await docxFormat.write(parsed, units));
    const body = readZip(written, LIMITS).find((e) => e.name === 'word/document.xml')!.data.toString('utf8');
    expect(body).toContain('Página de la memoria');
    expect(body).toContain('<w:instrText xml:space="preserve"> PAGE </w:instrText>');
    expect(body).toContain('w:fldCharType="end"');
  });

  it('writes a file LibreOffice opens, with the translated text', async () => {
    const written = Buffer.from(await checkTranslatedRoundTrip(docxFormat, sample, shout));
    writeFileSync(join(dir, 'out.docx'), written);
    execFileSync('soffice', ['--headless', '--norestore', '--convert-to', 'txt:Text (encoded):UTF8', '--outdir', dir, join(dir, 'out.docx')], { env: { ...process.env, HOME: dir }, timeout: 120_000, stdio: 'ignore' });
    const text = readFileSync(join(dir, 'out.txt'), 'utf8');
    expect(text).toContain('«THE ANNUAL REPORT');
    expect(text).toContain('HELLO WORLD, THIS IS BOLD AND A LINK.');
    expect(text).toContain('CELL ONE');
  });

  it('refuses what is not a docx with a clear message', async () => {
    expect(docxFormat.sniff!(Buffer.from('MZ\x90\x00 not a document'))).toBe(false);
    expect(docxFormat.sniff!(zipOf({ 'a.txt': 'x' }))).toBe(false);
    expect(docxFormat.sniff!(sample)).toBe(true);
    await expect(docxFormat.parse(Buffer.from('PK\x03\x04 broken'))).rejects.toThrow(/not a readable Word document package/);
    await expect(docxFormat.parse(zipOf({ ...DOCX_PARTS, 'word/document.xml': '<w:document><w:body><w:p></w:body>' }))).rejects.toThrow(/word\/document.xml is not well-formed XML/);
  });
});
