import { decodeEntities, XmlError } from './xml-stream.js';

/**
 * XML as a tree that remembers its own bytes: every element keeps its start and end tag exactly as
 * written, every text its raw form (entities and all), and comments, processing instructions, CDATA and
 * the DOCTYPE stay where they were. Serializing an untouched tree gives the input back character for
 * character, so a file format can change a few paragraphs of a document and leave the rest as it was
 * (office documents, XLIFF, ODF). `serializeXml` takes replacements by node, so one parsed tree serves
 * any number of writes without being changed.
 */

export interface XElement {
  type: 'element';
  /** The qualified name as written (`w:p`). */
  name: string;
  /** The start tag as written (`<w:p w:rsidR="00A1">`), or the whole empty-element tag. */
  open: string;
  /** The end tag as written; empty for an empty-element tag (`<w:br/>`). */
  close: string;
  children: XNode[];
  parent: XElement | null;
}

export interface XText {
  type: 'text';
  /** As written: entities undecoded, or a whole CDATA section. */
  raw: string;
  parent: XElement | null;
}

export interface XOther {
  type: 'other';
  /** A comment, processing instruction, DOCTYPE or XML declaration, as written. */
  raw: string;
  parent: XElement | null;
}

export type XNode = XElement | XText | XOther;

export interface XDocument {
  children: XNode[];
}

const NAME_END = /[\s/>]/;

/** More nodes than a parse may build: a file made to exhaust memory is refused while it is read. */
export class XmlBudgetError extends XmlError {
  readonly localized: Readonly<Record<'zh-CN' | 'en-US', string>>;
  constructor(readonly maxNodes: number, part?: string) {
    super(`${part ?? 'the XML'} holds more than ${maxNodes} nodes`);
    this.name = 'XmlBudgetError';
    this.localized = { 'zh-CN': `${part ? `部件 ${part} ` : 'XML '}的节点超过 ${maxNodes} 个，超出处理上限`, 'en-US': `${part ? `the part ${part}` : 'the XML'} holds more than ${maxNodes} nodes, over the processing limit` };
  }
}

/**
 * Parses well-formed XML; malformed input throws an XmlError naming the offset. `maxNodes` (counted as
 * the tags, texts and other markup read) stops the parse with an XmlBudgetError as soon as the tree would grow past it.
 */
export function parseXml(text: string, options: { maxNodes?: number; part?: string } = {}): XDocument {
  const root: XElement = { type: 'element', name: '', open: '', close: '', children: [], parent: null };
  let current = root;
  let at = 0;
  const n = text.length;
  const maxNodes = options.maxNodes ?? Infinity;
  let nodes = 0;
  const addText = (raw: string) => {
    if (raw) current.children.push({ type: 'text', raw, parent: current === root ? null : current });
  };
  while (at < n) {
    if (++nodes > maxNodes) throw new XmlBudgetError(maxNodes, options.part);
    const lt = text.indexOf('<', at);
    if (lt < 0) {
      addText(text.slice(at));
      break;
    }
    if (lt > at) addText(text.slice(at, lt));
    const next = text.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end < 0) throw new XmlError(`unclosed comment at offset ${lt}`);
        current.children.push({ type: 'other', raw: text.slice(lt, end + 3), parent: current === root ? null : current });
        at = end + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end < 0) throw new XmlError(`unclosed CDATA section at offset ${lt}`);
        current.children.push({ type: 'text', raw: text.slice(lt, end + 3), parent: current === root ? null : current });
        at = end + 3;
      } else {
        // DOCTYPE, with an internal subset in brackets perhaps.
        let i = lt + 2;
        let depth = 0;
        for (; i < n; i++) {
          const c = text.charCodeAt(i);
          if (c === 91) depth++;
          else if (c === 93) depth--;
          else if (c === 62 && depth <= 0) break;
        }
        if (i >= n) throw new XmlError(`unclosed declaration at offset ${lt}`);
        current.children.push({ type: 'other', raw: text.slice(lt, i + 1), parent: current === root ? null : current });
        at = i + 1;
      }
      continue;
    }
    if (next === 63 /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) throw new XmlError(`unclosed processing instruction at offset ${lt}`);
      current.children.push({ type: 'other', raw: text.slice(lt, end + 2), parent: current === root ? null : current });
      at = end + 2;
      continue;
    }
    // A tag: find its end outside quoted attribute values.
    const i = tagEnd(text, lt);
    if (i >= n) throw new XmlError(`unclosed tag at offset ${lt}`);
    const raw = text.slice(lt, i + 1);
    at = i + 1;
    if (next === 47 /* / */) {
      const name = raw.slice(2, -1).trim();
      if (current === root || current.name !== name) throw new XmlError(`</${name}> at offset ${lt} closes ${current === root ? 'nothing' : `<${current.name}>`}`);
      current.close = raw;
      current = current.parent ?? root;
      continue;
    }
    const m = NAME_END.exec(raw.slice(1));
    const name = raw.slice(1, m ? 1 + m.index : -1);
    if (!name) throw new XmlError(`malformed tag at offset ${lt}`);
    const el: XElement = { type: 'element', name, open: raw, close: '', children: [], parent: current === root ? null : current };
    current.children.push(el);
    if (raw.charCodeAt(raw.length - 2) !== 47) current = el;
  }
  if (current !== root) throw new XmlError(`<${current.name}> is never closed`);
  for (const child of root.children) child.parent = null;
  return { children: root.children };
}

/**
 * The tree as text. `replace` may give the text to write instead of a node (and its subtree); it is
 * asked for every node, so one map of changes serves nested replacements too.
 */
export function serializeXml(nodes: XNode[], replace?: (node: XNode) => string | undefined): string {
  const parts: string[] = [];
  const walk = (list: XNode[]) => {
    for (const node of list) {
      const instead = replace?.(node);
      if (instead !== undefined) {
        parts.push(instead);
        continue;
      }
      if (node.type !== 'element') {
        parts.push(node.raw);
        continue;
      }
      parts.push(node.open);
      if (node.children.length) walk(node.children);
      parts.push(node.close);
    }
  };
  walk(nodes);
  return parts.join('');
}

/** The text a text node stands for (entities decoded, CDATA unwrapped). */
export function textOf(node: XText): string {
  return node.raw.startsWith('<![CDATA[') ? node.raw.slice(9, -3) : decodeEntities(node.raw);
}

/** All the text under a node, decoded. */
export function innerText(node: XNode): string {
  if (node.type === 'text') return textOf(node);
  if (node.type === 'other') return '';
  let out = '';
  for (const child of node.children) out += innerText(child);
  return out;
}

const attrCache = new WeakMap<XElement, Record<string, string>>();

/** The element's attributes, decoded (parsed from its start tag once, on first use). */
export function attrsOf(el: XElement): Record<string, string> {
  let attrs = attrCache.get(el);
  if (!attrs) {
    attrs = {};
    const body = el.open.slice(1 + el.name.length, el.open.endsWith('/>') ? -2 : -1);
    for (const a of body.matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) attrs[a[1]!] = decodeEntities(a[3] ?? a[4] ?? '');
    attrCache.set(el, attrs);
  }
  return attrs;
}

export function attrOf(el: XElement, name: string): string | undefined {
  return attrsOf(el)[name];
}

/** The start tag with one attribute set (added at the end when missing) or, with `undefined`, removed. */
export function withAttr(open: string, name: string, value: string | undefined, escape: (v: string) => string): string {
  const re = new RegExp(`\\s${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*("[^"]*"|'[^']*')`);
  const m = re.exec(open);
  if (m) return open.slice(0, m.index) + (value === undefined ? '' : ` ${name}="${escape(value)}"`) + open.slice(m.index + m[0].length);
  if (value === undefined) return open;
  const end = open.endsWith('/>') ? open.length - 2 : open.length - 1;
  return `${open.slice(0, end).replace(/\s+$/, '')} ${name}="${escape(value)}"${open.slice(end)}`;
}

/** Child elements, optionally by name. */
export function elementsOf(el: XElement | XDocument, name?: string): XElement[] {
  const out: XElement[] = [];
  for (const c of el.children) if (c.type === 'element' && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** Every element under `el` (depth first, document order) for which `match` holds; `descend` false stops there. */
export function findElements(el: XElement | XDocument, match: (e: XElement) => boolean, descendIntoMatches = false): XElement[] {
  const out: XElement[] = [];
  const walk = (list: XNode[]) => {
    for (const c of list) {
      if (c.type !== 'element') continue;
      if (match(c)) {
        out.push(c);
        if (!descendIntoMatches) continue;
      }
      walk(c.children);
    }
  };
  walk(el.children);
  return out;
}

/** The local part of a qualified name (`w:p` -> `p`). */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/** The offset of the `>` that ends the tag opened at `lt`, outside quoted attribute values; the text's length when none does. */
export function tagEnd(text: string, lt: number): number {
  let quote = 0;
  for (let i = lt + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i;
  }
  return text.length;
}
