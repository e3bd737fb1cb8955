import { escapeXml, writeZip } from '@linguaport/sdk/interchange';
import { markPieces } from './marks.js';

/**
 * The editable document a translated PDF becomes: plain WordprocessingML that Word and LibreOffice
 * open without a repair prompt. One section per PDF page, with that page's size; each block a
 * paragraph in a frame at the place the block stood on the page (frames anchored to the page, so
 * nothing flows: the page looks like the original, and each text stays editable).
 */

export interface PositionedText {
  /** Position and size on the page, in points from the top-left corner. */
  x: number;
  y: number;
  w: number;
  h: number;
  fontSize: number;
  /** How many lines the block had. */
  lines: number;
  /** The text to write. */
  text: string;
  /** The text that stood there, whose length the font size was measured against. */
  original: string;
  /** A table (then `text` is unused): written as a Word table at the same place, one cell a unit. */
  table?: { columns: Array<{ x: number; w: number }>; rows: Array<{ y: number; h: number; cells: Array<{ text: string; original: string }> }> };
}

export interface DocxPage {
  width: number;
  height: number;
  blocks: PositionedText[];
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const twips = (pt: number) => Math.max(0, Math.round(pt * 20));
const MIN_FONT_SIZE = 6;

/** Width in half-ems, about: a CJK character is as wide as two Latin letters. */
function visualLength(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 2 : 1;
  return n;
}

/**
 * The block's size, smaller when the text is longer than what stood there. `room` is the frame's width
 * over the original block's. A one-line block (a title, a label) must stay one line, or it runs into
 * what is below it: its size shrinks with the length. A paragraph can wrap into more lines: its size
 * shrinks with the area (the square root).
 */
export function fittedFontSize(fontSize: number, original: string, text: string, room = 1, oneLine = false): number {
  const before = visualLength(original);
  const after = visualLength(text);
  if (after <= before || before === 0) return fontSize;
  const factor = oneLine ? (before / after) * room : Math.sqrt((before / after) * room);
  if (factor >= 1) return fontSize;
  return Math.max(MIN_FONT_SIZE, Math.floor(fontSize * factor * 2) / 2);
}

const overlapsVertically = (a: PositionedText, b: PositionedText) => a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * How wide a block's frame may be: a little wider than the block (another font's letters are wider
 * than the PDF's), and a one-line block as wide as the page's text; never into the next block to its
 * right or off the page.
 */
function frameWidth(block: PositionedText, page: DocxPage): number {
  const neighbour = page.blocks.filter((o) => o !== block && o.x >= block.x + block.w - 1 && overlapsVertically(o, block)).reduce((x, o) => Math.min(x, o.x), Infinity);
  const limit = Math.min(neighbour - 6, page.width - 18) - block.x;
  const textRight = page.blocks.reduce((x, o) => Math.max(x, o.x + o.w), 0);
  const wanted = block.lines === 1 ? Math.max(textRight - block.x, block.w * 1.12 + 6) : block.w * 1.12 + 6;
  return Math.max(block.w, Math.min(wanted, limit));
}

/** A paragraph's runs: line breaks and tabs a translator typed become Word's own; footnote marks superscript runs. */
function runs(text: string, rPr: string): string {
  const out: string[] = [];
  const raised = rPr.replace('</w:rPr>', '<w:vertAlign w:val="superscript"/></w:rPr>');
  for (const { text: part, superscript } of markPieces(text)) {
    if (superscript) {
      out.push(`<w:r>${raised}<w:t xml:space="preserve">${escapeXml(part)}</w:t></w:r>`);
      continue;
    }
    part.split(/\r\n|\n|\r/).forEach((line, i) => {
      if (i) out.push(`<w:r>${rPr}<w:br/></w:r>`);
      line.split('\t').forEach((piece, j) => {
        if (j) out.push(`<w:r>${rPr}<w:tab/></w:r>`);
        if (piece) out.push(`<w:r>${rPr}<w:t xml:space="preserve">${escapeXml(piece)}</w:t></w:r>`);
      });
    });
  }
  return out.join('');
}

const rPrOf = (size: number) => {
  const halfPoints = Math.max(2, Math.round(size * 2));
  return `<w:rPr><w:sz w:val="${halfPoints}"/><w:szCs w:val="${halfPoints}"/></w:rPr>`;
};

/**
 * A table where the PDF's stood: a floating table anchored to the page (as the frames are), fixed
 * column widths from the PDF's columns, rows at least as tall as they were, thin borders so the grid
 * shows (the PDF's own rules are not read), each cell's text shrunk on its own when it grew.
 */
function tableXml(block: PositionedText): string {
  const t = block.table!;
  const border = (side: string) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="999999"/>`;
  const borders = `<w:tblBorders>${['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('')}</w:tblBorders>`;
  const widths = t.columns.map((c) => twips(c.w));
  const total = widths.reduce((a, b) => a + b, 0);
  const pos = `<w:tblpPr w:leftFromText="0" w:rightFromText="0" w:topFromText="0" w:bottomFromText="0" w:vertAnchor="page" w:horzAnchor="page" w:tblpX="${twips(t.columns[0]!.x - 3)}" w:tblpY="${twips(block.y - 2)}"/>`;
  const tblPr = `<w:tblPr>${pos}<w:tblW w:w="${total}" w:type="dxa"/>${borders}<w:tblLayout w:type="fixed"/><w:tblCellMar><w:left w:w="57" w:type="dxa"/><w:right w:w="57" w:type="dxa"/></w:tblCellMar></w:tblPr>`;
  const grid = `<w:tblGrid>${widths.map((w) => `<w:gridCol w:w="${w}"/>`).join('')}</w:tblGrid>`;
  const rows = t.rows.map((row) => {
    const cells = row.cells.map((cell, c) => {
      const rPr = rPrOf(fittedFontSize(block.fontSize, cell.original, cell.text));
      return `<w:tc><w:tcPr><w:tcW w:w="${widths[c]}" w:type="dxa"/></w:tcPr><w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="240" w:lineRule="auto"/>${rPr}</w:pPr>${runs(cell.text, rPr)}</w:p></w:tc>`;
    });
    return `<w:tr><w:trPr><w:trHeight w:val="${twips(row.h + 2)}" w:hRule="atLeast"/></w:trPr>${cells.join('')}</w:tr>`;
  });
  // LibreOffice drops a framed paragraph that directly precedes a floating table: a hairline empty paragraph keeps them apart.
  return `<w:p><w:pPr><w:spacing w:before="0" w:after="0" w:line="20" w:lineRule="exact"/></w:pPr></w:p><w:tbl>${tblPr}${grid}${rows.join('')}</w:tbl>`;
}

function framed(block: PositionedText, page: DocxPage): string {
  const width = frameWidth(block, page);
  const size = fittedFontSize(block.fontSize, block.original, block.text, width / Math.max(block.w, 1), block.lines === 1);
  const halfPoints = Math.max(2, Math.round(size * 2));
  // The height is a minimum, so a long translation grows the frame rather than being cut off.
  const frame = `<w:framePr w:w="${twips(width)}" w:h="${twips(block.h + 2)}" w:hRule="atLeast" w:wrap="around" w:hAnchor="page" w:vAnchor="page" w:x="${twips(block.x)}" w:y="${twips(block.y)}"/>`;
  const rPr = `<w:rPr><w:sz w:val="${halfPoints}"/><w:szCs w:val="${halfPoints}"/></w:rPr>`;
  return `<w:p><w:pPr>${frame}<w:spacing w:before="0" w:after="0" w:line="240" w:lineRule="auto"/>${rPr}</w:pPr>${runs(block.text, rPr)}</w:p>`;
}

function sectionProperties(page: DocxPage): string {
  const orient = page.width > page.height ? ' w:orient="landscape"' : '';
  return `<w:sectPr><w:pgSz w:w="${twips(page.width)}" w:h="${twips(page.height)}"${orient}/><w:pgMar w:top="360" w:right="360" w:bottom="360" w:left="360" w:header="0" w:footer="0" w:gutter="0"/></w:sectPr>`;
}

export function documentXml(pages: DocxPage[]): string {
  const body: string[] = [];
  pages.forEach((page, i) => {
    for (const block of page.blocks) body.push(block.table ? tableXml(block) : framed(block, page));
    // A section ends in the properties of its last paragraph; the last section's are the body's own.
    if (i < pages.length - 1) body.push(`<w:p><w:pPr>${sectionProperties(page)}</w:pPr></w:p>`);
    else body.push(`<w:p/>${sectionProperties(page)}`);
  });
  if (!pages.length) body.push(`<w:p/>${sectionProperties({ width: 595.3, height: 841.9, blocks: [] })}`);
  return `${DECL}<w:document ${W}><w:body>${body.join('')}</w:body></w:document>`;
}

export function pagesDocx(pages: DocxPage[], title: string, language?: string): Buffer {
  const files: Array<[string, string]> = [
    [
      '[Content_Types].xml',
      `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    ],
    [
      'word/_rels/document.xml.rels',
      `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'docProps/core.xml',
      `${DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(title)}</dc:title></cp:coreProperties>`,
    ],
    // Document defaults only: the language, so spelling and hyphenation follow the translation.
    [
      'word/styles.xml',
      `${DECL}<w:styles ${W}><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/><w:szCs w:val="22"/>${language ? `<w:lang w:val="${escapeXml(language, true)}" w:eastAsia="${escapeXml(language, true)}"/>` : ''}</w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:before="0" w:after="0"/></w:pPr></w:pPrDefault></w:docDefaults></w:styles>`,
    ],
    ['word/document.xml', documentXml(pages)],
  ];
  return writeZip(files.map(([name, text]) => ({ name, data: Buffer.from(text, 'utf8') })));
}
