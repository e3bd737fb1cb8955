import { attrOf, decodeEntities, escapeXml, findElements, withAttr, type XElement } from '@linguaport/sdk/interchange';
import { elementsNamed, officePackage, type PartReader, type Sink } from './package.js';
import type { OfficeLanguage } from '@linguaport/sdk/server';
import { documentLanguage, drawingDefaultsLanguage, wordStylesLanguage } from '../language.js';
import { CELL, DRAWING, WORD } from './runs.js';

/**
 * docx, pptx and xlsx: which parts of each package hold text, and how each part is walked. The run
 * paragraphs themselves are read and written by runs.ts; the package by package.ts.
 */

const isWordParagraph = (el: XElement) => el.name === 'w:p';
const isDrawingParagraph = (el: XElement) => el.name === 'a:p';
const WORD_P = new Set(['w:p']);
const DRAWING_P = new Set(['a:p']);

/** A WordprocessingML part: every paragraph, tables and text boxes included. */
function wordPart(label: string): PartReader {
  return (doc, sink) => {
    for (const p of elementsNamed(doc, WORD_P)) sink.runs(p, WORD, { part: label, style: styleOf(p) }, isWordParagraph, (inner) => wordParagraph(inner, sink, label));
  };
}

function wordParagraph(p: XElement, sink: Sink, label: string): void {
  sink.runs(p, WORD, { part: label, style: styleOf(p) }, isWordParagraph, (inner) => wordParagraph(inner, sink, label));
}

function styleOf(p: XElement): string | undefined {
  const pPr = p.children.find((c) => c.type === 'element' && c.name === 'w:pPr') as XElement | undefined;
  const style = pPr?.children.find((c) => c.type === 'element' && c.name === 'w:pStyle') as XElement | undefined;
  return style ? attrOf(style, 'w:val') : undefined;
}

/** DrawingML text anywhere in a part (slides, notes, layouts, SmartArt, text boxes of a sheet). */
function drawingPart(label: string): PartReader {
  return (doc, sink) => {
    for (const p of elementsNamed(doc, DRAWING_P)) sink.runs(p, DRAWING, { part: label }, isDrawingParagraph);
  };
}

/** A chart: rich-text titles and labels, and the category and series names of its string caches. */
function chartPart(label: string): PartReader {
  return (doc, sink) => {
    for (const el of findElements(doc, (e) => e.name === 'a:p' || e.name === 'c:strCache')) {
      if (el.name === 'a:p') sink.runs(el, DRAWING, { part: label, style: 'title' }, isDrawingParagraph);
      else for (const v of findElements(el, (e) => e.name === 'c:v')) sink.plain(v, { part: label, style: 'label' });
    }
  };
}

/** The document's title and subject in its core properties. */
const corePart: PartReader = (doc, sink) => {
  for (const el of findElements(doc, (e) => e.name === 'dc:title' || e.name === 'dc:subject')) sink.plain(el, { part: 'properties', style: el.name.slice(3) });
};

/** The core properties' `dc:language`, which every OOXML package may state. */
const coreLanguage = (part: string, xml: string, language: OfficeLanguage) => (part === 'docProps/core.xml' ? documentLanguage(xml, language.tag, 'cp:coreProperties') : xml);

const numbered = (prefix: string, name: string) => new RegExp(`^${prefix}\\d*\\.xml$`).test(name);
const numberOf = (name: string) => /(\d+)\.xml$/.exec(name)?.[1] ?? '';

export const docxFormat = officePackage({
  module: import.meta.url,
  id: 'docx',
  name: 'Word document',
  extensions: ['docx', 'docm', 'dotx'],
  mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  isPackage: (names) => names.has('word/document.xml'),
  rank: (part) => ['word/document', 'word/header', 'word/footer', 'word/footnotes', 'word/endnotes', 'word/comments', 'word/charts', 'word/diagrams', 'docProps'].findIndex((p) => part.startsWith(p)),
  readerFor(part) {
    if (part === 'word/document.xml') return wordPart('body');
    if (numbered('word/header', part)) return wordPart('header');
    if (numbered('word/footer', part)) return wordPart('footer');
    if (part === 'word/footnotes.xml') return wordPart('footnote');
    if (part === 'word/endnotes.xml') return wordPart('endnote');
    if (part === 'word/comments.xml') return wordPart('comment');
    if (numbered('word/charts/chart', part)) return chartPart('chart');
    if (numbered('word/diagrams/data', part) || numbered('word/diagrams/drawing', part)) return drawingPart('diagram');
    if (part === 'docProps/core.xml') return corePart;
    return null;
  },
  language: (part, xml, language) => (part === 'word/styles.xml' ? wordStylesLanguage(xml, language) : coreLanguage(part, xml, language)),
});

export const pptxFormat = officePackage({
  module: import.meta.url,
  id: 'pptx',
  name: 'PowerPoint presentation',
  extensions: ['pptx', 'pptm', 'potx', 'ppsx'],
  mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  isPackage: (names) => names.has('ppt/presentation.xml'),
  rank: (part) => ['ppt/slides/', 'ppt/notesSlides/', 'ppt/charts/', 'ppt/diagrams/', 'ppt/slideLayouts/', 'ppt/slideMasters/', 'docProps'].findIndex((p) => part.startsWith(p)),
  readerFor(part) {
    if (numbered('ppt/slides/slide', part)) return drawingPart(`slide ${numberOf(part)}`);
    if (numbered('ppt/notesSlides/notesSlide', part)) return drawingPart(`slide notes ${numberOf(part)}`);
    if (numbered('ppt/slideLayouts/slideLayout', part)) return drawingPart(`layout ${numberOf(part)}`);
    if (numbered('ppt/slideMasters/slideMaster', part)) return drawingPart(`master ${numberOf(part)}`);
    if (numbered('ppt/charts/chart', part)) return chartPart('chart');
    if (numbered('ppt/diagrams/data', part) || numbered('ppt/diagrams/drawing', part)) return drawingPart('diagram');
    if (part === 'docProps/core.xml') return corePart;
    return null;
  },
  language: (part, xml, language) => (part === 'ppt/presentation.xml' || numbered('ppt/slideMasters/slideMaster', part) ? drawingDefaultsLanguage(xml, language) : coreLanguage(part, xml, language)),
});

/** Characters a sheet name may not hold, and its longest length. */
const SHEET_FORBIDDEN = /[[\]:*?/\\]/g;
const SHEET_MAX = 31;

interface SheetNames {
  /** unit id -> the sheet's name in the original */
  byUnit: Map<string, string>;
  all: string[];
}

const workbookPart: PartReader = (doc, sink, _part, extra) => {
  const names: SheetNames = { byUnit: new Map(), all: [] };
  extra.sheets = names;
  for (const sheet of findElements(doc, (e) => e.name === 'sheet')) {
    const name = attrOf(sheet, 'name') ?? '';
    names.all.push(name);
    // The name is written by \`transform\`, once every translated name is known (they must stay unique).
    const id = sink.custom(name, { part: 'sheet name', style: 'sheet' }, { node: sheet, write: () => sheet.open + sheet.close });
    if (id) names.byUnit.set(id, name);
  }
};

/** Translated sheet names made valid and unique: Excel refuses `[]:*?/\`, more than 31 characters and duplicates. */
function sheetRenames(targets: Map<string, string>, names: SheetNames | undefined): Map<string, string> {
  const renames = new Map<string, string>();
  if (!names) return renames;
  const taken = new Set(names.all.map((n) => n.toLowerCase()));
  for (const [id, old] of names.byUnit) {
    const target = targets.get(id);
    if (target === undefined) continue;
    let name = target.replace(/<\/?\d+\/?>/g, '').replace(SHEET_FORBIDDEN, ' ').replace(/^'+|'+$/g, '').trim().slice(0, SHEET_MAX).trim();
    if (!name || name === old) continue;
    taken.delete(old.toLowerCase());
    let candidate = name;
    for (let k = 2; taken.has(candidate.toLowerCase()); k++) candidate = `${name.slice(0, SHEET_MAX - String(k).length - 3)} (${k})`;
    name = candidate;
    taken.add(name.toLowerCase());
    renames.set(old, name);
  }
  return renames;
}

const quoteSheet = (name: string) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

/** Formula text with references to renamed sheets rewritten (`'Old name'!A1`, `Old!A1`, `Old:Other!A1` left alone). */
function rewriteFormula(formula: string, renames: Map<string, string>): string {
  let out = formula;
  for (const [old, name] of renames) {
    const quoted = `'${old.replace(/'/g, "''")}'!`;
    out = out.split(quoted).join(`${quoteSheet(name)}!`);
    if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(old)) out = out.replace(new RegExp(`(^|[^A-Za-z0-9_.'!])${old.replace(/\./g, '\\.')}!`, 'g'), `$1${quoteSheet(name)}!`);
  }
  return out;
}

export const xlsxFormat = officePackage({
  module: import.meta.url,
  id: 'xlsx',
  name: 'Excel workbook',
  extensions: ['xlsx', 'xlsm', 'xltx'],
  mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  isPackage: (names) => names.has('xl/workbook.xml'),
  rank: (part) => ['xl/workbook.xml', 'xl/sharedStrings', 'xl/worksheets/', 'xl/comments', 'xl/charts/', 'xl/drawings/', 'docProps'].findIndex((p) => part.startsWith(p)),
  readerFor(part) {
    if (part === 'xl/sharedStrings.xml') {
      return (doc, sink) => {
        for (const si of elementsNamed(doc, new Set(['si']))) sink.runs(si, CELL, { part: 'cells' }, () => false);
      };
    }
    if (numbered('xl/worksheets/sheet', part)) {
      return (doc, sink) => {
        for (const cell of findElements(doc, (e) => e.name === 'c' && attrOf(e, 't') === 'inlineStr')) {
          const is = cell.children.find((c) => c.type === 'element' && c.name === 'is') as XElement | undefined;
          if (is) sink.runs(is, CELL, { part: `sheet ${numberOf(part)}`, style: attrOf(cell, 'r') }, () => false);
        }
      };
    }
    if (numbered('xl/comments', part)) {
      return (doc, sink) => {
        for (const text of findElements(doc, (e) => e.name === 'text')) sink.runs(text, CELL, { part: 'comment' }, () => false);
      };
    }
    if (part === 'xl/workbook.xml') return workbookPart;
    if (numbered('xl/charts/chart', part)) return chartPart('chart');
    if (numbered('xl/drawings/drawing', part)) return drawingPart('drawing');
    if (part === 'docProps/core.xml') return corePart;
    return null;
  },
  // Cells have no language of their own: the workbook states it in its properties.
  language: coreLanguage,
  transform(part, xml, targets, skeleton) {
    const renames = sheetRenames(targets, skeleton.extra.sheets as SheetNames | undefined);
    if (!renames.size) return xml;
    if (part === 'xl/workbook.xml') {
      xml = xml.replace(/<sheet\s[^>]*?\/?>/g, (tag) => {
        const m = /\sname="([^"]*)"/.exec(tag);
        const name = m ? renames.get(decodeEntities(m[1]!)) : undefined;
        return name ? withAttr(tag, 'name', name, (v) => escapeXml(v, true)) : tag;
      });
    }
    if (part === 'docProps/app.xml') {
      return xml.replace(/<vt:lpstr>([^<]*)<\/vt:lpstr>/g, (whole, body: string) => {
        const name = renames.get(decodeEntities(body));
        return name ? `<vt:lpstr>${escapeXml(name)}</vt:lpstr>` : whole;
      });
    }
    return xml.replace(/<(f|definedName|c:f)(\s[^>]*)?>([^<]*)<\/\1>/g, (whole, tag: string, attrs: string | undefined, body: string) => {
      const formula = decodeEntities(body);
      const rewritten = rewriteFormula(formula, renames);
      return rewritten === formula ? whole : `<${tag}${attrs ?? ''}>${escapeXml(rewritten)}</${tag}>`;
    });
  },
});
