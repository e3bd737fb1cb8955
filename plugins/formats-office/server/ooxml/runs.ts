import type { InlineTag } from '@linguaport/sdk/shared';
import { escapeXml, findElements, serializeXml, textOf, type XElement, type XNode } from '@linguaport/sdk/interchange';

/**
 * Paragraphs made of runs, as WordprocessingML (`w:p/w:r/w:t`), DrawingML (`a:p/a:r/a:t`: slides,
 * charts, SmartArt, text boxes) and SpreadsheetML rich text (`si/r/t`) write them, read into one unit
 * each and written back.
 *
 * A paragraph's runs become a sequence of atoms: text with its run formatting, marks (a tab, a break, a
 * picture, a field code, a footnote reference: anything that is not text) and the containers runs sit
 * in (a hyperlink, a tracked insertion, a content control). The formatting that covers most of the
 * text is the paragraph's own and needs no tag; other formatting becomes a paired placeholder around
 * its text, so runs of the same formatting are merged first (a word split into three runs by revision
 * ids or spell-check marks is one word to the engine). Proofing marks (`w:proofErr`) and the clutter of
 * run properties that only say how a run was edited or spell-checked (`w:lang`, `w:noProof`, rsids) are
 * left out when runs are compared, so they never become tags. Marks before the first and after the last
 * text stay outside the unit. A mark may itself hold paragraphs (a text box in a drawing): those are
 * units of their own, and the mark is written with their translations.
 *
 * Writing rebuilds the paragraph's runs from the translation: each stretch of text gets the formatting
 * of the innermost paired placeholder around it (the paragraph's own outside any), marks and containers
 * go back where their placeholders are, and a mark the translation dropped is put at the end rather than
 * lost (a footnote reference must survive an engine that ate its placeholder). A unit written with its
 * own source gives back the paragraph exactly as it was.
 */

export interface RunDialect {
  p: string;
  r: string;
  t: string;
  rPr: string;
  /** Paragraph children kept before the unit (paragraph properties). */
  lead: Set<string>;
  /** Paragraph children kept after the unit (`a:endParaRPr`). */
  tail: Set<string>;
  /** Elements whose runs are part of the paragraph, wrapped (a hyperlink): name -> child that holds the runs, or '' for the element itself. */
  containers: Record<string, string>;
  /** Run-level text elements that are text too (`a:fld` holds an `a:t`: a field is a mark, but its own text is not ours). */
  dropped: Set<string>;
  /** Whether `t` needs `xml:space="preserve"` to keep edge spaces. */
  preserve: boolean;
  /** Run-property clutter (element names and attribute names) ignored when runs are compared and left out when they are written. */
  clutterElements: string[];
  clutterAttributes: string[];
}

export const WORD: RunDialect = {
  p: 'w:p',
  r: 'w:r',
  t: 'w:t',
  rPr: 'w:rPr',
  lead: new Set(['w:pPr']),
  tail: new Set(),
  containers: { 'w:hyperlink': '', 'w:ins': '', 'w:smartTag': '', 'w:fldSimple': '', 'w:customXml': '', 'w:sdt': 'w:sdtContent', 'w:moveTo': '', 'w:dir': '', 'w:bdo': '' },
  dropped: new Set(['w:proofErr']),
  preserve: true,
  clutterElements: ['w:lang', 'w:noProof', 'w:webHidden'],
  clutterAttributes: ['w:rsidRPr', 'w:rsidR', 'w:rsidDel'],
};

export const DRAWING: RunDialect = {
  p: 'a:p',
  r: 'a:r',
  t: 'a:t',
  rPr: 'a:rPr',
  lead: new Set(['a:pPr']),
  tail: new Set(['a:endParaRPr']),
  containers: {},
  dropped: new Set(),
  preserve: false,
  clutterElements: [],
  clutterAttributes: ['lang', 'altLang', 'dirty', 'err', 'noProof', 'smtClean', 'smtId'],
};

/** Shared strings, inline strings and comments of a workbook: `si`/`is`/`text` hold `t` or runs `r`. */
export const CELL: RunDialect = {
  p: '',
  r: 'r',
  t: 't',
  rPr: 'rPr',
  lead: new Set(),
  tail: new Set(['rPh', 'phoneticPr']),
  containers: {},
  dropped: new Set(),
  preserve: true,
  clutterElements: [],
  clutterAttributes: [],
};

type Atom =
  | { kind: 'text'; text: string; rPr: string }
  | { kind: 'mark'; nodes: XNode[]; rPr: string | null; runOpen: string | null }
  | { kind: 'open'; el: XElement; content: XElement }
  | { kind: 'close'; el: XElement; content: XElement };

export interface RunParagraph {
  /** The unit text with placeholders; null when the paragraph holds no text (its nested paragraphs may). */
  source: string | null;
  tags: Record<string, InlineTag>;
  /** The paragraph's own elements that hold paragraphs of their own (text boxes), for the caller to read as units. */
  nested: XElement[];
  /** The paragraph (or rich string) written with `target`; `render` writes nested nodes (the caller's replacements). */
  write(target: string, render: (nodes: XNode[]) => string): string;
}

const escapeText = (s: string) => escapeXml(s);

/** Run properties as compared and written: clutter removed, empty properties as none. */
function cleanRunProperties(raw: string, dialect: RunDialect): string {
  let out = raw;
  for (const name of dialect.clutterElements) out = out.replace(new RegExp(`<${name}(\\s[^>]*)?/>|<${name}(\\s[^>]*)?>[\\s\\S]*?</${name}>`, 'g'), '');
  for (const name of dialect.clutterAttributes) out = out.replace(new RegExp(`\\s${name}="[^"]*"`, 'g'), '');
  const empty = new RegExp(`^<${dialect.rPr}\\s*/>$|^<${dialect.rPr}\\s*></${dialect.rPr}>$`);
  return empty.test(out) ? '' : out;
}

function isElement(node: XNode, name?: string): node is XElement {
  return node.type === 'element' && (name === undefined || node.name === name);
}

/**
 * Reads one paragraph (for `CELL`, a rich string element). Whitespace
 * between elements is ignored (it carries nothing in these vocabularies).
 */
export function readRunParagraph(paragraph: XElement, dialect: RunDialect, isParagraph: (el: XElement) => boolean): RunParagraph {
  const atoms: Atom[] = [];
  const lead: XNode[] = [];
  const tail: XNode[] = [];
  const nested: XElement[] = [];
  const collectNested = (node: XNode) => {
    if (node.type === 'element') for (const p of findElements(node, isParagraph)) nested.push(p);
  };

  const readRun = (run: XElement) => {
    const props = run.children.find((c) => isElement(c, dialect.rPr)) as XElement | undefined;
    const rawProps = props ? serializeXml([props]) : '';
    const rPr = cleanRunProperties(rawProps, dialect);
    for (const child of run.children) {
      if (child === props || child.type === 'text' || child.type === 'other') continue;
      if (child.name === dialect.t) {
        const text = child.children.map((c) => (c.type === 'text' ? textOf(c) : '')).join('');
        if (text) atoms.push({ kind: 'text', text, rPr });
        continue;
      }
      collectNested(child);
      atoms.push({ kind: 'mark', nodes: [child], rPr: rawProps, runOpen: run.open.endsWith('/>') ? `<${dialect.r}>` : run.open });
    }
  };

  const readChildren = (children: XNode[], top: boolean) => {
    for (const child of children) {
      if (!isElement(child)) continue;
      if (top && dialect.lead.has(child.name) && atoms.length === 0) {
        lead.push(child);
        continue;
      }
      if (top && dialect.tail.has(child.name)) {
        tail.push(child);
        continue;
      }
      if (dialect.dropped.has(child.name)) continue;
      if (child.name === dialect.r) {
        readRun(child);
        continue;
      }
      if (!dialect.p && child.name === dialect.t) {
        // A plain string (`si/t`).
        const text = child.children.map((c) => (c.type === 'text' ? textOf(c) : '')).join('');
        if (text) atoms.push({ kind: 'text', text, rPr: '' });
        continue;
      }
      const holder = dialect.containers[child.name];
      if (holder !== undefined) {
        const content = holder ? (child.children.find((c) => isElement(c, holder)) as XElement | undefined) : child;
        if (content) {
          atoms.push({ kind: 'open', el: child, content });
          readChildren(content.children, false);
          atoms.push({ kind: 'close', el: child, content });
          continue;
        }
      }
      collectNested(child);
      atoms.push({ kind: 'mark', nodes: [child], rPr: null, runOpen: null });
    }
  };
  readChildren(paragraph.children, true);

  // Containers without text inside are marks as a whole.
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    if (a.kind !== 'open') continue;
    let j = i + 1;
    let depth = 0;
    let text = false;
    for (; j < atoms.length; j++) {
      const b = atoms[j]!;
      if (b.kind === 'open') depth++;
      else if (b.kind === 'close') {
        if (depth === 0) break;
        depth--;
      } else if (b.kind === 'text') text = true;
    }
    if (!text) atoms.splice(i, j - i + 1, { kind: 'mark', nodes: [a.el], rPr: null, runOpen: null });
  }
  if (!atoms.some((a) => a.kind === 'text' && a.text.trim())) return { source: null, tags: {}, nested, write: () => serializeXml([paragraph]) };

  // Marks at the very start and end stay outside the unit.
  let first = 0;
  while (atoms[first]?.kind === 'mark') first++;
  let last = atoms.length;
  while (atoms[last - 1]?.kind === 'mark') last--;
  const before = atoms.slice(0, first);
  const after = atoms.slice(last);
  const body = atoms.slice(first, last);

  // The paragraph's own formatting: the one covering most characters.
  const weight = new Map<string, number>();
  for (const a of body) if (a.kind === 'text') weight.set(a.rPr, (weight.get(a.rPr) ?? 0) + a.text.length);
  let base = '';
  let most = -1;
  for (const [rPr, w] of weight) if (w > most) [base, most] = [rPr, w];

  const allText = body.map((a) => (a.kind === 'text' ? a.text : '')).join('');
  const next = numbersAvoiding(allText);
  const tags: Record<string, InlineTag> = {};
  const formatOf = new Map<string, string>(); // tag -> rPr
  const markOf = new Map<string, Atom[]>(); // tag -> marks
  const containerOf = new Map<string, XElement>();
  const containerTag = new Map<XElement, string>();
  // A container whose text has one formatting (a link in the link style) carries it: one tag, not two.
  const uniformInside = (from: number): string | null => {
    let depth = 0;
    let found: string | null = null;
    for (let j = from + 1; j < body.length; j++) {
      const b = body[j]!;
      if (b.kind === 'open') return null;
      if (b.kind === 'close') return depth === 0 ? found : null;
      if (b.kind === 'text') {
        if (found !== null && found !== b.rPr) return null;
        found = b.rPr;
      }
    }
    return null;
  };
  const bases: string[] = [base];
  let source = '';
  let open: { tag: string; rPr: string } | null = null;
  const closeFormat = () => {
    if (open) source += `</${open.tag}>`;
    open = null;
  };
  for (let i = 0; i < body.length; i++) {
    const a = body[i]!;
    if (a.kind === 'text') {
      if (a.rPr === bases[bases.length - 1]) {
        closeFormat();
      } else if (!open || open.rPr !== a.rPr) {
        closeFormat();
        const tag = String(next());
        open = { tag, rPr: a.rPr };
        formatOf.set(tag, a.rPr);
        tags[tag] = { kind: 'paired', original: a.rPr, closing: '' };
        source += `<${tag}>`;
      }
      source += a.text;
      continue;
    }
    closeFormat();
    if (a.kind === 'mark') {
      const group: Atom[] = [a];
      while (body[i + 1]?.kind === 'mark') group.push(body[++i]!);
      const tag = String(next());
      markOf.set(tag, group);
      tags[tag] = { kind: 'standalone', original: group.map((g) => (g.kind === 'mark' ? serializeXml(g.nodes) : '')).join('') };
      source += `<${tag}/>`;
    } else if (a.kind === 'open') {
      const tag = String(next());
      containerOf.set(tag, a.el);
      containerTag.set(a.el, tag);
      const inside = uniformInside(i);
      if (inside !== null) formatOf.set(tag, inside);
      bases.push(inside ?? bases[bases.length - 1]!);
      tags[tag] = { kind: 'paired', original: openingOf(a.el, a.content), closing: closingOf(a.el, a.content) };
      source += `<${tag}>`;
    } else {
      bases.pop();
      source += `</${containerTag.get(a.el)}>`;
    }
  }
  closeFormat();
  // White space at either end stays outside the unit (engines and memories see the sentence alone).
  const edges = /^(\s*)([\s\S]*?)(\s*)$/.exec(source)!;
  const [leadSpace, trailSpace] = [edges[1]!, edges[3]!];
  source = edges[2]!;

  const runXml = (text: string, rPr: string) => {
    if (!dialect.p && !rPr && !dialect.r) return `<${dialect.t}>${escapeText(text)}</${dialect.t}>`;
    const space = dialect.preserve && (/^\s|\s$/.test(text) || text.includes('  ')) ? ' xml:space="preserve"' : '';
    return `<${dialect.r}>${rPr}<${dialect.t}${space}>${escapeText(text)}</${dialect.t}></${dialect.r}>`;
  };
  const markXml = (group: Atom[], render: (nodes: XNode[]) => string) =>
    group
      .map((g) => {
        if (g.kind !== 'mark') return '';
        if (g.runOpen === null) return render(g.nodes);
        return `${g.runOpen}${g.rPr ?? ''}${render(g.nodes)}</${dialect.r}>`;
      })
      .join('');
  const plainOnly = !dialect.p && body.every((a) => a.kind === 'text' && !a.rPr) && before.length === 0 && after.length === 0;

  return {
    source,
    tags,
    nested,
    write(translation, render) {
      const target = leadSpace + translation + trailSpace;
      const leadXml = render(lead);
      const tailXml = render(tail);
      const beforeXml = markXml(before, render);
      const afterXml = markXml(after, render);
      const plainString = plainOnly && !/<\d+\/?>/.test(target);
      let out = '';
      const stack: string[] = [];
      const used = new Set<string>();
      const rPrNow = () => {
        for (let k = stack.length - 1; k >= 0; k--) {
          const f = formatOf.get(stack[k]!);
          if (f !== undefined) return f;
        }
        return base;
      };
      let last = 0;
      const emitText = (text: string) => {
        if (!text) return;
        out += plainString ? `<${dialect.t}${dialect.preserve && /^\s|\s$/.test(text) ? ' xml:space="preserve"' : ''}>${escapeText(text)}</${dialect.t}>` : runXml(text, rPrNow());
      };
      for (const m of target.matchAll(/<(\/?)(\d+)(\/?)>/g)) {
        const tag = m[2]!;
        if (!tags[tag]) continue;
        emitText(target.slice(last, m.index));
        last = m.index! + m[0].length;
        used.add(tag);
        if (m[3]) {
          const group = markOf.get(tag);
          if (group) out += markXml(group, render);
        } else if (m[1]) {
          const at = stack.lastIndexOf(tag);
          if (at < 0) continue;
          // Close what was opened inside it too.
          while (stack.length > at) {
            const t = stack.pop()!;
            const el = containerOf.get(t);
            if (el) out += tags[t]!.closing ?? '';
          }
        } else {
          const el = containerOf.get(tag);
          if (el) out += tags[tag]!.original;
          stack.push(tag);
        }
      }
      emitText(target.slice(last));
      while (stack.length) {
        const t = stack.pop()!;
        if (containerOf.has(t)) out += tags[t]!.closing ?? '';
      }
      // Marks the translation dropped go at the end: nothing of the document is lost.
      for (const [tag, group] of markOf) if (!used.has(tag)) out += markXml(group, render);
      const inner = leadXml + beforeXml + out + afterXml + tailXml;
      return `${paragraph.open.endsWith('/>') ? paragraph.open.replace(/\/>$/, '>') : paragraph.open}${inner}</${paragraph.name}>`;
    },
  };
}

/** The markup that opens a container up to its runs (`<w:sdt><w:sdtPr>…</w:sdtPr><w:sdtContent>`). */
function openingOf(el: XElement, content: XElement): string {
  if (content === el) return el.open;
  let out = el.open;
  for (const c of el.children) {
    if (c === content) return out + content.open;
    out += serializeXml([c]);
  }
  return out;
}

function closingOf(el: XElement, content: XElement): string {
  if (content === el) return el.close;
  let out = content.close;
  let after = false;
  for (const c of el.children) {
    if (after) out += serializeXml([c]);
    if (c === content) after = true;
  }
  return out + el.close;
}

/** Placeholder numbers that cannot be mistaken for text already in the paragraph. */
function numbersAvoiding(text: string): () => number {
  const taken = new Set([...text.matchAll(/<\/?(\d+)\/?>/g)].map((m) => Number(m[1])));
  let n = 0;
  return () => {
    do n++;
    while (taken.has(n));
    return n;
  };
}
