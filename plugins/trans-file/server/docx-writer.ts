import { writeZip } from '@linguaport/sdk/interchange';
import { officeLanguage } from '@linguaport/sdk/server';

/**
 * The two bilingual documents this area writes itself, whatever the original format: a side-by-side
 * table (one row per paragraph: source | translation) and, for formats that cannot hold both
 * languages, paragraph pairs (each source paragraph followed by its translation, the translation in
 * a colour of its own). Plain WordprocessingML that Word and LibreOffice open without a repair prompt.
 * Each side's runs say their language (`w:lang`, in the slot of its script) so Word and LibreOffice
 * spell-check each in its own, and the document's properties say the target language.
 */

const xml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // Characters XML 1.0 cannot hold at all (control characters from a binary-ish source).
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The languages of the two sides, as platform codes (`en`, `zh-CN`). */
export interface BilingualLanguages {
  source: string;
  target: string;
}

/** `w:lang` for a run in `code` (last in the run properties, where WordprocessingML's order puts it after colour and bold). */
function langProps(code: string | undefined): string {
  const language = code ? officeLanguage(code) : null;
  if (!language) return '';
  const slot = language.kind === 'asian' ? 'w:eastAsia' : language.kind === 'complex' ? 'w:bidi' : 'w:val';
  return `<w:lang ${slot}="${xml(language.tag)}"/>`;
}

/** Runs of one paragraph: line breaks inside the text become `<w:br/>`. */
function runs(text: string, props = ''): string {
  const lines = text.split(/\r\n|\n|\r/);
  const rpr = props ? `<w:rPr>${props}</w:rPr>` : '';
  return lines.map((line, i) => `${i ? `<w:r>${rpr}<w:br/></w:r>` : ''}<w:r>${rpr}<w:t xml:space="preserve">${xml(line)}</w:t></w:r>`).join('');
}

const paragraph = (text: string, props = '', pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${runs(text, props)}</w:p>`;

function cell(text: string, widthTwips: number, header = false, lang = ''): string {
  return `<w:tc><w:tcPr><w:tcW w:w="${widthTwips}" w:type="dxa"/></w:tcPr>${paragraph(text, (header ? '<w:b/>' : '') + lang)}</w:tc>`;
}

function documentXml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${W}><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="709" w:footer="709" w:gutter="0"/></w:sectPr></w:body></w:document>`;
}

function pack(documentBody: string, title: string, language?: string): Buffer {
  const tag = language ? officeLanguage(language)?.tag : undefined;
  const files = [
    {
      name: '[Content_Types].xml',
      text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    },
    {
      name: 'docProps/core.xml',
      text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${xml(title)}</dc:title>${tag ? `<dc:language>${xml(tag)}</dc:language>` : ''}</cp:coreProperties>`,
    },
    { name: 'word/document.xml', text: documentXml(documentBody) },
  ];
  return writeZip(files.map((f) => ({ name: f.name, data: Buffer.from(f.text, 'utf8') })));
}

export interface BilingualPair {
  source: string;
  target: string;
}

/** A two-column table: a header row with the languages, then one row per paragraph. */
export function bilingualTableDocx(pairs: BilingualPair[], header: { source: string; target: string }, title: string, languages?: BilingualLanguages): Buffer {
  const [sourceLang, targetLang] = [langProps(languages?.source), langProps(languages?.target)];
  const width = 4819;
  const grid = `<w:tblGrid><w:gridCol w:w="${width}"/><w:gridCol w:w="${width}"/></w:tblGrid>`;
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((b) => `<w:${b} w:val="single" w:sz="4" w:space="0" w:color="999999"/>`).join('');
  const tblPr = `<w:tblPr><w:tblW w:w="${width * 2}" w:type="dxa"/><w:tblBorders>${borders}</w:tblBorders><w:tblLayout w:type="fixed"/></w:tblPr>`;
  const headRow = `<w:tr><w:trPr><w:tblHeader/></w:trPr>${cell(header.source, width, true)}${cell(header.target, width, true)}</w:tr>`;
  const rows = pairs.map((p) => `<w:tr>${cell(p.source, width, false, sourceLang)}${cell(p.target, width, false, targetLang)}</w:tr>`).join('');
  // A table must be followed by a paragraph before the section properties.
  return pack(`<w:tbl>${tblPr}${grid}${headRow}${rows}</w:tbl><w:p/>`, title, languages?.target);
}

/** Paragraph pairs: each source paragraph, then its translation in blue, then a little space. */
export function bilingualParagraphsDocx(pairs: BilingualPair[], title: string, languages?: BilingualLanguages): Buffer {
  const [sourceLang, targetLang] = [langProps(languages?.source), langProps(languages?.target)];
  const body = pairs
    .map((p) => paragraph(p.source, sourceLang, '<w:spacing w:after="0"/>') + paragraph(p.target, `<w:color w:val="1F4E9D"/>${targetLang}`, '<w:spacing w:after="200"/>'))
    .join('');
  return pack(body || '<w:p/>', title, languages?.target);
}

/** A plain document of paragraphs (benchmarks and tests make their docx files with it). */
export function documentDocx(paragraphs: string[], title: string): Buffer {
  return pack(paragraphs.map((p) => paragraph(p)).join('') || '<w:p/>', title);
}
