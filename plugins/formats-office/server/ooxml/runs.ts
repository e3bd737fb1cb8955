import type { InlineTag } from '@linguaport/sdk/shared';
import { escapeXml, findElements, serializeXml, textOf, withAttr, type XElement, type XNode } from '@linguaport/sdk/interchange';
import type { OfficeLanguage } from '@linguaport/sdk/server';

/**
 * Paragraphs made of runs, as WordprocessingML (`w:p/w:r/w:t`), DrawingML (`a:p/a:r/a:t`: slides,
 * charts, SmartArt, text boxes) and SpreadsheetML rich text (`si/r/t`) write them, read into one unit
 * each and written back.
 *
 * A paragraph's runs become a sequence of atoms: text with its run formatting, marks (a tab, a break, a
 * picture, a field code, a footnote reference: anything that is not text) and the containers runs sit
 * in (a hyperlink, a tracked insertion, a content control). The formatting all the text shares is
 * the paragraph's own and needs no tag; other formatting becomes a paired placeholder around
 * its text, so runs of the same formatting are merged first (a word split into three runs by revision
 * ids or spell-check marks is one word to the engine). Proofing marks (`w:proofErr`) and the clutter of
 * run properties that only say how a run was edited or spell-checked (`w:lang`, `w:noProof`, rsids) are
 * left out when runs are compared, so they never become tags. Marks before the first and after the last
 * text stay outside the unit. A mark may itself hold paragraphs (a text box in a drawing): those are
 * units of their own, and the mark is written with their translations.
 *
 * Word's zero-width markup (bookmarks such as `_GoBack`, comment and permission ranges, the page break
 * Word last rendered) carries no text and no formatting: it is lifted out of the unit, so the engine
 * sees whole words, and written back at the same place when the text is unchanged, else at the
 * placeholder it touched or the word boundary nearest its place (`placeLifted`). The paragraph's own
 * formatting is what all its text shares (its base); text with more is tagged. White space at a tag's
 * edge is written on the side the source had it (`keepEdgeSpaces`).
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
  /** Zero-width markup lifted out of the unit (bookmarks, range marks), at paragraph level or alone in a run. */
  lifted: Set<string>;
  /** The run properties (or `a:endParaRPr`) with the target language stamped in; absent where runs have no language. */
  stampLanguage?(rPr: string, language: OfficeLanguage): string;
}

/** Run-property children that come after `w:lang` in WordprocessingML's sequence (Word refuses them out of order). */
const AFTER_WORD_LANG = /<w:(?:eastAsianLayout|specVanish|oMath|rPrChange)\b/;

/** `w:lang` set in Word's run properties: `w:val`, `w:eastAsia` or `w:bidi` by the language's script. */
export function wordLanguage(rPr: string, language: OfficeLanguage): string {
  const slot = language.kind === 'asian' ? 'w:eastAsia' : language.kind === 'complex' ? 'w:bidi' : 'w:val';
  const existing = /<w:lang\b[^>]*?\/?>/.exec(rPr);
  if (existing) return rPr.slice(0, existing.index) + withAttr(existing[0], slot, language.tag, (v) => escapeXml(v, true)) + rPr.slice(existing.index + existing[0].length);
  const lang = `<w:lang ${slot}="${escapeXml(language.tag, true)}"/>`;
  if (!rPr) return `<w:rPr>${lang}</w:rPr>`;
  if (/^<w:rPr\b[^>]*\/>$/.test(rPr)) return `${rPr.slice(0, -2)}>${lang}</w:rPr>`;
  const after = AFTER_WORD_LANG.exec(rPr);
  const at = after ? after.index : rPr.lastIndexOf('</w:rPr>');
  return rPr.slice(0, at) + lang + rPr.slice(at);
}

/** DrawingML's `lang` on run properties (one language per run: the text's). */
export function drawingLanguage(rPr: string, language: OfficeLanguage): string {
  if (!rPr) return `<a:rPr lang="${escapeXml(language.tag, true)}"/>`;
  const end = rPr.indexOf('>') + 1;
  return withAttr(rPr.slice(0, end), 'lang', language.tag, (v) => escapeXml(v, true)) + rPr.slice(end);
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
  lifted: new Set([
    'w:bookmarkStart',
    'w:bookmarkEnd',
    'w:commentRangeStart',
    'w:commentRangeEnd',
    'w:commentReference',
    'w:permStart',
    'w:permEnd',
    'w:lastRenderedPageBreak',
    'w:moveFromRangeStart',
    'w:moveFromRangeEnd',
    'w:moveToRangeStart',
    'w:moveToRangeEnd',
    'w:customXmlInsRangeStart',
    'w:customXmlInsRangeEnd',
    'w:customXmlDelRangeStart',
    'w:customXmlDelRangeEnd',
    'w:customXmlMoveFromRangeStart',
    'w:customXmlMoveFromRangeEnd',
    'w:customXmlMoveToRangeStart',
    'w:customXmlMoveToRangeEnd',
  ]),
  stampLanguage: wordLanguage,
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
  lifted: new Set(),
  stampLanguage: drawingLanguage,
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
  lifted: new Set(),
};

/** Run properties as compared and written: clutter left out; `key` is the same for the same effective formatting. */
interface RunFormat {
  key: string;
  xml: string;
  attrs: string[];
  children: Array<{ xml: string; key: string }>;
}

const NO_FORMAT: RunFormat = { key: '', xml: '', attrs: [], children: [] };

function formatFrom(attrs: string[], children: RunFormat['children'], dialect: RunDialect): RunFormat {
  if (!attrs.length && !children.length) return NO_FORMAT;
  const key = `${[...attrs].sort().join('')}|${children
    .map((c) => c.key)
    .sort()
    .join('')}`;
  const open = `<${dialect.rPr}${attrs.join('')}`;
  return { key, xml: children.length ? `${open}>${children.map((c) => c.xml).join('')}</${dialect.rPr}>` : `${open}/>`, attrs, children };
}

function runFormat(props: XElement | undefined, dialect: RunDialect): RunFormat {
  if (!props) return NO_FORMAT;
  const clutter = (xml: string) => dialect.clutterAttributes.reduce((out, name) => out.replace(new RegExp(`\\s${name}="[^"]*"`, 'g'), ''), xml);
  const body = props.open.slice(1 + props.name.length, props.open.endsWith('/>') ? -2 : -1);
  const attrs = [...body.matchAll(/([^\s=]+)\s*=\s*("[^"]*"|'[^']*')/g)].filter((m) => !dialect.clutterAttributes.includes(m[1]!)).map((m) => ` ${m[1]}=${m[2]}`);
  const children: RunFormat['children'] = [];
  for (const c of props.children) {
    if (c.type !== 'element' || dialect.clutterElements.includes(c.name)) continue;
    const xml = clutter(serializeXml([c]));
    // `<w:b/>`, `<w:b w:val="true"/>` and `<w:b w:val="1"/>` are the same formatting.
    children.push({ xml, key: xml.replace(/\s(?:\w+:)?val="(?:true|1|on)"/g, '') });
  }
  return formatFrom(attrs, children, dialect);
}

/** What every formatting shares: the paragraph's base, which text outside every tag takes. */
function commonFormat(formats: RunFormat[], dialect: RunDialect): RunFormat {
  const [first, ...rest] = formats;
  if (!first) return NO_FORMAT;
  if (rest.every((f) => f.key === first.key)) return first;
  const attrs = first.attrs.filter((a) => rest.every((f) => f.attrs.includes(a)));
  const children = first.children.filter((c) => rest.every((f) => f.children.some((d) => d.key === c.key)));
  return formatFrom(attrs, children, dialect);
}

type Atom =
  | { kind: 'text'; text: string; format: RunFormat }
  | { kind: 'mark'; nodes: XNode[]; rPr: string | null; runOpen: string | null; lift: boolean }
  | { kind: 'open'; el: XElement; content: XElement }
  | { kind: 'close'; el: XElement; content: XElement };

type Mark = Extract<Atom, { kind: 'mark' }>;

export interface RunParagraph {
  /** The unit text with placeholders; null when the paragraph holds no text (its nested paragraphs may). */
  source: string | null;
  tags: Record<string, InlineTag>;
  /** The paragraph's own elements that hold paragraphs of their own (text boxes), for the caller to read as units. */
  nested: XElement[];
  /** The paragraph (or rich string) written with `target`; `render` writes nested nodes (the caller's replacements); `language` is stamped on the runs written. */
  write(target: string, render: (nodes: XNode[]) => string, language?: OfficeLanguage): string;
}

const escapeText = (s: string) => escapeXml(s);

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
    const format = runFormat(props, dialect);
    for (const child of run.children) {
      if (child === props || child.type === 'text' || child.type === 'other') continue;
      if (child.name === dialect.t) {
        const text = child.children.map((c) => (c.type === 'text' ? textOf(c) : '')).join('');
        if (text) atoms.push({ kind: 'text', text, format });
        continue;
      }
      collectNested(child);
      atoms.push({ kind: 'mark', nodes: [child], rPr: rawProps, runOpen: run.open.endsWith('/>') ? `<${dialect.r}>` : run.open, lift: dialect.lifted.has(child.name) });
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
        if (text) atoms.push({ kind: 'text', text, format: NO_FORMAT });
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
      atoms.push({ kind: 'mark', nodes: [child], rPr: null, runOpen: null, lift: dialect.lifted.has(child.name) });
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
    if (!text) atoms.splice(i, j - i + 1, { kind: 'mark', nodes: [a.el], rPr: null, runOpen: null, lift: false });
  }
  if (!atoms.some((a) => a.kind === 'text' && a.text.trim())) return { source: null, tags: {}, nested, write: () => serializeXml([paragraph]) };

  // Marks at the very start and end stay outside the unit.
  let first = 0;
  while (atoms[first]?.kind === 'mark') first++;
  let last = atoms.length;
  while (atoms[last - 1]?.kind === 'mark') last--;
  const before = atoms.slice(0, first);
  const after = atoms.slice(last);
  // Zero-width markup inside is lifted out, remembered at its offset in the paragraph's text.
  const body: Atom[] = [];
  // `before`: the body atom it preceded; `anchor`: the placeholder it touched in the source, if any.
  const lifted: Array<{ at: number; mark: Mark; before: number; anchor?: string }> = [];
  let plain = '';
  for (const a of atoms.slice(first, last)) {
    if (a.kind === 'mark' && a.lift) lifted.push({ at: plain.length, mark: a, before: body.length });
    else {
      if (a.kind === 'text') plain += a.text;
      body.push(a);
    }
  }

  const base = commonFormat(
    body.flatMap((a) => (a.kind === 'text' ? [a.format] : [])),
    dialect,
  );

  const next = numbersAvoiding(plain);
  const tags: Record<string, InlineTag> = {};
  const formatOf = new Map<string, string>(); // tag -> rPr
  const markOf = new Map<string, Atom[]>(); // tag -> marks
  const containerOf = new Map<string, XElement>();
  const containerTag = new Map<XElement, string>();
  // A container whose text has one formatting (a link in the link style) carries it: one tag, not two.
  const uniformInside = (from: number): RunFormat | null => {
    let found: RunFormat | null = null;
    for (let j = from + 1; j < body.length; j++) {
      const b = body[j]!;
      if (b.kind === 'open') return null;
      if (b.kind === 'close') return found;
      if (b.kind === 'text') {
        if (found !== null && found.key !== b.format.key) return null;
        found = b.format;
      }
    }
    return null;
  };
  const bases: RunFormat[] = [base];
  let source = '';
  let open: { tag: string; key: string } | null = null;
  const closeFormat = () => {
    if (open) source += `</${open.tag}>`;
    open = null;
  };
  const liftedAt = new Map<(typeof lifted)[number], number>();
  let nextLift = 0;
  for (let i = 0; i < body.length; i++) {
    const a = body[i]!;
    for (; nextLift < lifted.length && lifted[nextLift]!.before === i; nextLift++) liftedAt.set(lifted[nextLift]!, source.length);
    if (a.kind === 'text') {
      if (a.format.key === bases[bases.length - 1]!.key) {
        closeFormat();
      } else if (!open || open.key !== a.format.key) {
        closeFormat();
        const tag = String(next());
        open = { tag, key: a.format.key };
        formatOf.set(tag, a.format.xml);
        tags[tag] = { kind: 'paired', original: a.format.xml, closing: '' };
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
      if (inside !== null) formatOf.set(tag, inside.xml);
      bases.push(inside ?? bases[bases.length - 1]!);
      tags[tag] = { kind: 'paired', original: openingOf(a.el, a.content), closing: closingOf(a.el, a.content) };
      source += `<${tag}>`;
    } else {
      bases.pop();
      source += `</${containerTag.get(a.el)}>`;
    }
  }
  closeFormat();
  // Markup that touched a placeholder (a comment range around a bold word) follows that placeholder.
  const placeholderFrom = /<\/?\d+\/?>/y;
  for (const [l, at] of liftedAt) {
    placeholderFrom.lastIndex = at;
    const after = placeholderFrom.exec(source);
    const open = source[at - 1] === '>' ? source.lastIndexOf('<', at - 1) : -1;
    const before = open >= 0 && /^<\/?\d+\/?>$/.test(source.slice(open, at)) ? source.slice(open, at) : undefined;
    l.anchor = after?.[0] ?? before;
  }
  // White space at either end stays outside the unit (engines and memories see the sentence alone).
  const edges = /^(\s*)([\s\S]*?)(\s*)$/.exec(source)!;
  const [leadSpace, trailSpace] = [edges[1]!, edges[3]!];
  source = edges[2]!;

  const markXml = (group: Atom[], render: (nodes: XNode[]) => string) =>
    group
      .map((g) => {
        if (g.kind !== 'mark') return '';
        if (g.runOpen === null) return render(g.nodes);
        return `${g.runOpen}${g.rPr ?? ''}${render(g.nodes)}</${dialect.r}>`;
      })
      .join('');
  const plainOnly = !dialect.p && body.every((a) => a.kind === 'text' && !a.format.xml) && before.length === 0 && after.length === 0;

  return {
    source,
    tags,
    nested,
    write(translation, render, language) {
      const target = leadSpace + keepEdgeSpaces(source, translation) + trailSpace;
      const stamp = (rPr: string) => (language && dialect.stampLanguage ? dialect.stampLanguage(rPr, language) : rPr);
      const runXml = (text: string, rPr: string) => {
        const props = stamp(rPr);
        if (!dialect.p && !props && !dialect.r) return `<${dialect.t}>${escapeText(text)}</${dialect.t}>`;
        const space = dialect.preserve && (/^\s|\s$/.test(text) || text.includes('  ')) ? ' xml:space="preserve"' : '';
        return `<${dialect.r}>${props}<${dialect.t}${space}>${escapeText(text)}</${dialect.t}></${dialect.r}>`;
      };
      const leadXml = render(lead);
      // The paragraph's end properties say the language of text typed after it (`a:endParaRPr`).
      const tailXml = tail.map((n) => (isElement(n) && /endParaRPr$/.test(n.name) ? stamp(render([n])) : render([n]))).join('');
      const beforeXml = markXml(before, render);
      const afterXml = markXml(after, render);
      const plainString = plainOnly && !/<\d+\/?>/.test(target);
      // Lifted markup goes where it was when the text is unchanged, else to the nearest word boundary.
      let targetPlain = '';
      const placeholderAt = new Map<string, number>(); // placeholder -> offset in the translation's text
      let from = 0;
      for (const m of target.matchAll(/<\/?(\d+)\/?>/g)) {
        if (!tags[m[1]!]) continue;
        targetPlain += target.slice(from, m.index);
        from = m.index! + m[0].length;
        if (!placeholderAt.has(m[0])) placeholderAt.set(m[0], targetPlain.length);
      }
      targetPlain += target.slice(from);
      const places = placeLifted(
        lifted.map((l) => ({ at: l.at, anchor: l.anchor, name: l.mark.nodes[0]?.type === 'element' ? l.mark.nodes[0].name : '' })),
        plain,
        targetPlain,
        placeholderAt,
      );
      let nextLifted = 0;
      let plainAt = 0;
      let out = '';
      const stack: string[] = [];
      const used = new Set<string>();
      const rPrNow = () => {
        for (let k = stack.length - 1; k >= 0; k--) {
          const f = formatOf.get(stack[k]!);
          if (f !== undefined) return f;
        }
        return base.xml;
      };
      let last = 0;
      const emitRun = (text: string) => {
        if (!text) return;
        out += plainString ? `<${dialect.t}${dialect.preserve && /^\s|\s$/.test(text) ? ' xml:space="preserve"' : ''}>${escapeText(text)}</${dialect.t}>` : runXml(text, rPrNow());
      };
      const emitText = (text: string) => {
        if (!text) return;
        let from = 0;
        while (nextLifted < places.length && places[nextLifted]! < plainAt + text.length) {
          const cut = Math.max(from, places[nextLifted]! - plainAt);
          emitRun(text.slice(from, cut));
          out += markXml([lifted[nextLifted]!.mark], render);
          from = cut;
          nextLifted++;
        }
        emitRun(text.slice(from));
        plainAt += text.length;
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
      // Lifted markup at the end of the text, then marks the translation dropped: nothing of the document is lost.
      for (; nextLifted < lifted.length; nextLifted++) out += markXml([lifted[nextLifted]!.mark], render);
      for (const [tag, group] of markOf) if (!used.has(tag)) out += markXml(group, render);
      const inner = leadXml + beforeXml + out + afterXml + tailXml;
      return `${paragraph.open.endsWith('/>') ? paragraph.open.replace(/\/>$/, '>') : paragraph.open}${inner}</${paragraph.name}>`;
    },
  };
}

/**
 * White space at a paired placeholder's edge kept on the side the source had it: an engine that moves
 * the space of a link (`See<1> our site</1>`) outside it (`Voir <1>notre site</1>`) gets it put back
 * inside, and the other way round. Edges with space on both sides or neither are left as translated.
 */
export function keepEdgeSpaces(source: string, target: string): string {
  // Each placeholder whose space lies on one side only in the source: the side it belongs on.
  const side = new Map<string, 'before' | 'after'>();
  for (const m of source.matchAll(/<\/?\d+>/g)) {
    const spaceBefore = /\s/.test(source[m.index! - 1] ?? '');
    const spaceAfter = /\s/.test(source[m.index! + m[0].length] ?? '');
    if (spaceBefore !== spaceAfter) side.set(m[0], spaceBefore ? 'before' : 'after');
  }
  if (!side.size) return target;
  return target.replace(/([^\S\r\n]*)(<\/?\d+>)([^\S\r\n]*)/g, (whole, before: string, tag: string, after: string) => {
    const want = side.get(tag);
    if (want === 'after' && before && !after) return tag + before;
    if (want === 'before' && after && !before) return after + tag;
    return whole;
  });
}

/** Characters between which no word boundary lies: letters, digits, marks and apostrophes of scripts written with spaces. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}'’_-]/u;
/** Scripts written without spaces: any place between two characters is a boundary. */
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function isBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const a = text[i - 1]!;
  const b = text[i]!;
  if (/[\uD800-\uDBFF]/.test(a) || /\p{M}/u.test(b)) return false;
  return !(WORD_CHAR.test(a) && WORD_CHAR.test(b)) || NO_SPACES.test(a) || NO_SPACES.test(b);
}

/**
 * Where lifted markup goes in the translation (offsets in its text without placeholders): its own offset
 * when the text is the same; at the placeholder it touched when the translation kept it; else the word
 * boundary nearest its place in proportion, the start of a range before its word and its end after, so
 * a range over part of a word covers the whole word. Never before markup that came before it (a
 * bookmark's end stays after its start).
 */
export function placeLifted(lifted: Array<{ at: number; anchor?: string; name: string }>, source: string, target: string, placeholderAt = new Map<string, number>()): number[] {
  if (source === target) return lifted.map((l) => l.at);
  // The word boundaries of the translation, once (a paragraph may hold thousands of bookmarks).
  let boundaries: number[] | null = null;
  const boundariesOf = () => {
    if (!boundaries) {
      boundaries = [];
      for (let i = 0; i <= target.length; i++) if (isBoundary(target, i)) boundaries.push(i);
    }
    return boundaries;
  };
  let floor = 0;
  return lifted.map(({ at, anchor, name }) => {
    const bias = /start$/i.test(name) ? -1 : /end$/i.test(name) ? 1 : 0;
    const anchored = anchor === undefined ? undefined : placeholderAt.get(anchor);
    let place: number;
    if (at <= 0) place = 0;
    else if (at >= source.length) place = target.length;
    else if (anchored !== undefined) place = anchored;
    else {
      const t = Math.round((at / source.length) * target.length);
      const list = boundariesOf();
      // The first boundary at or after t (0 and the end are always boundaries).
      let lo = 0;
      let hi = list.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      const after = list[lo]!;
      const before = after === t ? t : list[Math.max(0, lo - 1)]!;
      place = bias < 0 ? before : bias > 0 ? after : t - before <= after - t ? before : after;
    }
    floor = Math.max(floor, place);
    return floor;
  });
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
