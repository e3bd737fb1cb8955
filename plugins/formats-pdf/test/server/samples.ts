import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { madeByLibreOffice } from '@linguaport/sdk/testing';

// Fixture PDFs made at test time by LibreOffice from a flat OpenDocument source, so the PDFs are the
// kind real users upload (embedded subset fonts, LibreOffice's own layout), and a scan made from one.

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3"';

export const HEADING = 'The annual report';
export const PARAGRAPHS = [
  'Sales grew in the north of the country during the spring, and the new factory opened on time with every line running.',
  'Prices stayed steady while costs fell, so the margin improved for the third year in a row.',
];
export const LEFT_COLUMN = 'The left column talks about the harbour, where ships arrive every morning with fresh goods from distant markets across the sea and leave again at night.';
export const RIGHT_COLUMN = 'The right column talks about the mountains, where farmers keep their sheep on green hills through the long and quiet summer months far from town.';
export const CHINESE = '翻译平台把文件分成句子，并保存术语和记忆库。';
export const SECOND_PAGE = 'The second page closes the report with a short word of thanks to every reader.';

/** A heading, two paragraphs, a two-column section, a page number in the footer; page 2 in Chinese and English. */
export const FLAT_REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NS} office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles>
<style:style style:name="Columns" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="1cm"/></style:section-properties></style:style>
<style:style style:name="Title" style:family="paragraph"><style:text-properties fo:font-size="20pt" fo:font-weight="bold"/></style:style>
<style:style style:name="NewPage" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2cm" fo:margin-right="2cm"/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"><style:footer><text:p><text:page-number text:select-page="current">1</text:page-number></text:p></style:footer></style:master-page></office:master-styles>
<office:body><office:text>
<text:h text:style-name="Title" text:outline-level="1">${HEADING}</text:h>
${PARAGRAPHS.map((p) => `<text:p>${p}</text:p>`).join('\n')}
<text:section text:style-name="Columns" text:name="Columns"><text:p>${LEFT_COLUMN}</text:p><text:p>${RIGHT_COLUMN}</text:p></text:section>
<text:p text:style-name="NewPage">${CHINESE}</text:p>
<text:p>${SECOND_PAGE}</text:p>
</office:text></office:body></office:document>`;

export const office = (dir: string, args: string[]) =>
  execFileSync('soffice', ['--headless', '--norestore', ...args], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 180_000, stdio: 'ignore' });

/** The text PDF, a scan of its first page (a picture only, no text layer) and a password-protected copy (made once per machine, shared by the test files). */
export function makeFixtures(dir: string): { text: Buffer; scanned: Buffer; encrypted: Buffer } {
  const text = madeByLibreOffice({ name: 'report.fodt', content: FLAT_REPORT }, 'pdf');
  writeFileSync(join(dir, 'report.pdf'), text);
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', join(dir, 'report.pdf'), join(dir, 'scan')]);
  const scanned = madeByLibreOffice({ name: 'scan.png', content: readFileSync(join(dir, 'scan.png')) }, 'pdf');
  const secret = '{"EncryptFile":{"type":"boolean","value":"true"},"DocumentOpenPassword":{"type":"string","value":"secret"}}';
  const encrypted = madeByLibreOffice({ name: 'report.fodt', content: FLAT_REPORT }, `pdf:writer_pdf_Export:${secret}`);
  return { text, scanned, encrypted };
}

/**
 * A written docx as LibreOffice lays it out, printed to PDF. Its text export would not do: it leaves
 * out the text of frames, and every block the writer places is in a frame.
 */
export function printedByOffice(dir: string, bytes: Uint8Array, name: string): Buffer {
  writeFileSync(join(dir, `${name}.docx`), bytes);
  office(dir, ['--convert-to', 'pdf', '--outdir', join(dir, 'printed'), join(dir, `${name}.docx`)]);
  return readFileSync(join(dir, 'printed', `${name}.pdf`));
}

export const NOTE_SENTENCE = ['The harvest grew in every region', ' and prices stayed low all year.'];
export const NOTE_TEXT = 'Figures from the national office.';
export const TABLE = [
  ['Region', 'Wheat harvest', 'Price change'],
  ['North coast', 'Twelve tonnes', 'Lower'],
  ['South valley', 'Nine tonnes', 'Higher'],
];
export const AFTER_TABLE = 'The report ends here with thanks.';

/** A paragraph with a footnote, a bordered 3 × 3 table, a closing paragraph. */
export const FLAT_TABLE = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NS} xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles><style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:border="0.5pt solid #000000" fo:padding="0.1cm"/></style:style></office:automatic-styles>
<office:body><office:text>
<text:p>${NOTE_SENTENCE[0]}<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>${NOTE_TEXT}</text:p></text:note-body></text:note>${NOTE_SENTENCE[1]}</text:p>
<table:table table:name="Harvest"><table:table-column table:number-columns-repeated="3"/>
${TABLE.map((row) => `<table:table-row>${row.map((c) => `<table:table-cell table:style-name="Cell"><text:p>${c}</text:p></table:table-cell>`).join('')}</table:table-row>`).join('\n')}
</table:table>
<text:p>${AFTER_TABLE}</text:p>
</office:text></office:body></office:document>`;

/** The table-and-footnote PDF, as LibreOffice writes it. */
export function makeTableFixture(_dir?: string): Buffer {
  return madeByLibreOffice({ name: 'harvest.fodt', content: FLAT_TABLE }, 'pdf');
}
