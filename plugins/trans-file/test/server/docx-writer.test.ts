// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readZip } from '@linguaport/sdk/interchange';
import { bilingualParagraphsDocx, bilingualTableDocx } from '../../server/docx-writer.js';

// The bilingual documents this area writes say each side's language (issue 23 item 4): source runs in
// the source language, translated runs in the target's (East Asian and right-to-left ones in their own
// slot), the properties in the target's, and LibreOffice reads both.

const dir = mkdtempSync(join(tmpdir(), 'docx-writer-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const partOf = (bytes: Buffer, name: string) => readZip(bytes, { maxEntries: 10, maxBytes: 1e7 }).find((e) => e.name === name)!.data.toString('utf8');
const pairs = [
  { source: 'The annual report', target: '年度报告' },
  { source: 'Sales grew', target: '销售增长' },
];

describe('bilingual docx', () => {
  it('paragraph pairs: each side in its own language, the properties in the target language', () => {
    const doc = bilingualParagraphsDocx(pairs, 'report.docx', { source: 'en', target: 'zh-CN' });
    const body = partOf(doc, 'word/document.xml');
    expect(body).toContain('<w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">The annual report</w:t>');
    expect(body).toContain('<w:rPr><w:color w:val="1F4E9D"/><w:lang w:eastAsia="zh-CN"/></w:rPr><w:t xml:space="preserve">年度报告</w:t>');
    expect(partOf(doc, 'docProps/core.xml')).toContain('<dc:language>zh-CN</dc:language>');
  });

  it('a table LibreOffice reads with both languages', () => {
    const doc = bilingualTableDocx(pairs, { source: 'English', target: 'العربية' }, 'report.docx', { source: 'fr', target: 'ar' });
    const body = partOf(doc, 'word/document.xml');
    expect(body).toContain('<w:lang w:val="fr-FR"/>');
    expect(body).toContain('<w:lang w:bidi="ar-EG"/>');
    writeFileSync(join(dir, 'table.docx'), doc);
    execFileSync('soffice', ['--headless', '--norestore', '--convert-to', 'fodt', '--outdir', dir, join(dir, 'table.docx')], { env: { ...process.env, HOME: dir }, timeout: 180_000, stdio: 'ignore' });
    const flat = readFileSync(join(dir, 'table.fodt'), 'utf8');
    expect(flat).toContain('年度报告');
    expect(flat).toContain('fo:language="fr" fo:country="FR"');
    expect(flat).toContain('style:language-complex="ar" style:country-complex="EG"');
  }, 180_000);

  it('without languages, writes no language', () => {
    expect(partOf(bilingualParagraphsDocx(pairs, 't'), 'word/document.xml')).not.toContain('w:lang');
  });
});
