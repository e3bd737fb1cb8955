import type { InlineTag } from '@linguaport/sdk/shared';
import { attrOf, escapeXml, findElements, serializeXml, textOf, type XElement, type XNode } from '@linguaport/sdk/interchange';
import { documentLanguage, odfStylesLanguage } from './language.js';
import { officePackage, type PartReader, type Sink, type UnitWriter } from './ooxml/package.js';
import { keepEdgeSpaces, placeLifted } from './ooxml/runs.js';

/**
 * OpenDocument text, spreadsheets and presentations (odt, ods, odp). ODF writes a paragraph
 * (`text:p`, `text:h`) as mixed content: text, with spans and links around parts of it and marks
 * (tabs, line breaks, notes, frames, fields, bookmarks) between. Spans and links become paired
 * placeholders, marks standalone ones; runs of spaces (`text:s`) are spaces to the engine and are
 * written back as ODF spells them. A note, frame or annotation holds paragraphs of its own, which are
 * units after their paragraph. Spreadsheet cells that hold numbers, dates or other values keep their
 * display text: only string cells are translated. Zero-width marks (bookmarks, reference marks, soft page
 * breaks) are lifted out of the unit and written back where they were, or at the nearest word boundary
 * (the ODF twin of Word's hidden markup, runs.ts).
 */

const PARAGRAPHS = new Set(['text:p', 'text:h']);
const PAIRED = new Set(['text:span', 'text:a', 'text:ruby-base', 'text:meta', 'text:hidden-text']);
const isParagraph = (el: XElement) => PARAGRAPHS.has(el.name);
/** Marks without text or formatting: never placeholders in the middle of a sentence. */
const LIFTED = new Set(['text:bookmark', 'text:bookmark-start', 'text:bookmark-end', 'text:reference-mark', 'text:reference-mark-start', 'text:reference-mark-end', 'text:soft-page-break']);

interface Mark {
  nodes: XNode[];
}

function readParagraph(p: XElement): { source: string | null; tags: Record<string, InlineTag>; nested: XElement[]; write: UnitWriter['write'] } {
  const nested: XElement[] = [];
  const tags: Record<string, InlineTag> = {};
  const marks = new Map<string, Mark>();
  const paired = new Map<string, XElement>();
  let text = '';
  const all = p.children;
  // Numbers already written as text in the paragraph are not used for placeholders.
  const plain = findText(p);
  const taken = new Set([...plain.matchAll(/<\/?(\d+)\/?>/g)].map((m) => Number(m[1])));
  let n = 0;
  const next = () => {
    do n++;
    while (taken.has(n));
    return String(n);
  };
  let hasWords = false;
  let plainText = '';
  const lifted: Array<{ at: number; node: XElement }> = [];
  const walk = (children: XNode[]) => {
    for (let i = 0; i < children.length; i++) {
      const c = children[i]!;
      if (c.type === 'other') continue;
      if (c.type === 'text') {
        const t = textOf(c);
        if (t.trim()) hasWords = true;
        text += t;
        plainText += t;
        continue;
      }
      if (c.name === 'text:s') {
        const run = ' '.repeat(Math.max(1, Number(attrOf(c, 'text:c') ?? '1') || 1));
        text += run;
        plainText += run;
        continue;
      }
      if (LIFTED.has(c.name)) {
        lifted.push({ at: plainText.length, node: c });
        continue;
      }
      if (PAIRED.has(c.name) && c.children.length) {
        const tag = next();
        tags[tag] = { kind: 'paired', original: c.open, closing: c.close };
        paired.set(tag, c);
        text += `<${tag}>`;
        walk(c.children);
        text += `</${tag}>`;
        continue;
      }
      for (const inner of findElements(c, isParagraph)) nested.push(inner);
      // Consecutive marks are one placeholder.
      const group: XNode[] = [c];
      while (i + 1 < children.length && children[i + 1]!.type === 'element' && !PAIRED.has((children[i + 1] as XElement).name) && !LIFTED.has((children[i + 1] as XElement).name) && (children[i + 1] as XElement).name !== 'text:s') {
        const m = children[++i] as XElement;
        for (const inner of findElements(m, isParagraph)) nested.push(inner);
        group.push(m);
      }
      const tag = next();
      marks.set(tag, { nodes: group });
      tags[tag] = { kind: 'standalone', original: serializeXml(group) };
      text += `<${tag}/>`;
    }
  };
  walk(all);
  if (!hasWords) return { source: null, tags: {}, nested, write: () => serializeXml([p]) };

  return {
    source: text,
    tags,
    nested,
    write(translation, render) {
      const target = keepEdgeSpaces(text, translation);
      let out = '';
      const used = new Set<string>();
      const stack: string[] = [];
      let last = 0;
      const targetPlain = target.replace(/<\/?(\d+)\/?>/g, (whole, tag: string) => (tags[tag] ? '' : whole));
      const places = placeLifted(
        lifted.map((l) => ({ at: l.at, name: l.node.name })),
        plainText,
        targetPlain,
      );
      let nextLifted = 0;
      let plainAt = 0;
      // A space after lifted marks alone is still at the paragraph's start (written as text:s).
      let liftedChars = 0;
      const putLifted = () => {
        const xml = render([lifted[nextLifted++]!.node]);
        out += xml;
        liftedChars += xml.length;
      };
      const emitText = (chunk: string) => {
        let from = 0;
        while (nextLifted < places.length && places[nextLifted]! < plainAt + chunk.length) {
          const cut = Math.max(from, places[nextLifted]! - plainAt);
          out += spaces(chunk.slice(from, cut), out.length === liftedChars);
          putLifted();
          from = cut;
        }
        out += spaces(chunk.slice(from), out.length === liftedChars);
        plainAt += chunk.length;
      };
      for (const m of target.matchAll(/<(\/?)(\d+)(\/?)>/g)) {
        const tag = m[2]!;
        if (!tags[tag]) continue;
        emitText(target.slice(last, m.index));
        last = m.index! + m[0].length;
        used.add(tag);
        if (m[3]) {
          const mark = marks.get(tag);
          if (mark) out += render(mark.nodes);
        } else if (m[1]) {
          const at = stack.lastIndexOf(tag);
          if (at < 0) continue;
          while (stack.length > at) out += tags[stack.pop()!]!.closing ?? '';
        } else if (paired.has(tag)) {
          out += tags[tag]!.original;
          stack.push(tag);
        }
      }
      emitText(target.slice(last));
      while (stack.length) out += tags[stack.pop()!]!.closing ?? '';
      while (nextLifted < lifted.length) putLifted();
      for (const [tag, mark] of marks) if (!used.has(tag)) out += render(mark.nodes);
      return `${p.open.endsWith('/>') ? p.open.replace(/\/>$/, '>') : p.open}${out}</${p.name}>`;
    },
  };
}

function findText(el: XElement): string {
  let out = '';
  for (const c of el.children) {
    if (c.type === 'text') out += textOf(c);
    else if (c.type === 'element') out += findText(c);
  }
  return out;
}

/** Text as ODF writes it: spaces after the first of a run (and at the start of the paragraph) as `text:s`. */
function spaces(text: string, atStart: boolean): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/ {2,}|^ /g)) {
    out += escapeXml(text.slice(last, m.index));
    const run = m[0].length;
    if (m.index === 0 && atStart) out += `<text:s${run > 1 ? ` text:c="${run}"` : ''}/>`;
    else out += run === 1 ? ' ' : ` <text:s${run > 2 ? ` text:c="${run - 1}"` : ''}/>`;
    last = m.index! + run;
  }
  return out + escapeXml(text.slice(last));
}

function odfParagraph(p: XElement, sink: Sink, label: string): void {
  const read = readParagraph(p);
  if (read.source !== null) sink.custom(read.source, { part: label, style: attrOf(p, 'text:style-name') }, { node: p, write: read.write }, read.tags);
  for (const inner of read.nested) odfParagraph(inner, sink, label);
}

/** Cells holding a value other than a string keep their display text. */
function inValueCell(p: XElement): boolean {
  for (let e = p.parent; e; e = e.parent) {
    if (e.name === 'table:table-cell' || e.name === 'table:covered-table-cell') {
      const type = attrOf(e, 'office:value-type');
      return type !== undefined && type !== 'string';
    }
  }
  return false;
}

function odfPart(label: string): PartReader {
  return (doc, sink) => {
    for (const p of findElements(doc, isParagraph)) if (!inValueCell(p)) odfParagraph(p, sink, label);
  };
}

const metaPart: PartReader = (doc, sink) => {
  for (const el of findElements(doc, (e) => e.name === 'dc:title' || e.name === 'dc:subject')) sink.plain(el, { part: 'properties', style: el.name.slice(3) });
};

function odf(id: string, name: string, mime: string) {
  return officePackage({
    module: import.meta.url,
    id,
    name,
    extensions: [id],
    mimeTypes: [mime],
    isPackage: (names) => names.has('content.xml') && names.has('mimetype'),
    rank: (part) => ['meta.xml', 'content.xml', 'styles.xml', 'Object '].findIndex((p) => part.startsWith(p)),
    sniffBytes: (bytes) => Buffer.from(bytes.subarray(30, 30 + 8 + mime.length)).toString('latin1') === `mimetype${mime}`,
    readerFor(part) {
      if (part === 'content.xml') return odfPart('content');
      if (part === 'styles.xml') return odfPart('header/footer');
      if (/^Object \d+\/content\.xml$/.test(part)) return odfPart('chart');
      if (part === 'meta.xml') return metaPart;
      return null;
    },
    language(part, xml, language) {
      if (part === 'meta.xml') return documentLanguage(xml, language.tag, 'office:meta');
      if (part === 'styles.xml' || part === 'content.xml') return odfStylesLanguage(xml, language, part === 'styles.xml');
      return xml;
    },
  });
}

export const odtFormat = odf('odt', 'OpenDocument text', 'application/vnd.oasis.opendocument.text');
export const odsFormat = odf('ods', 'OpenDocument spreadsheet', 'application/vnd.oasis.opendocument.spreadsheet');
export const odpFormat = odf('odp', 'OpenDocument presentation', 'application/vnd.oasis.opendocument.presentation');
