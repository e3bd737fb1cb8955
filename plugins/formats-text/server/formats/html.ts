import type { FileFormat, InlineTag, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { decodeText, encodeText, FormatError, textOf, UnitText, type Encoding } from './text.js';

/**
 * HTML pages. A unit is the text of a block (a paragraph, a heading, a list item, a table cell, a
 * caption, a title, a button, an option, and the loose text of a div or section beside its child
 * blocks), read with a forgiving tokenizer (unquoted attributes, unclosed `<p>` and `<li>`, stray
 * closes). Inline elements are paired placeholders, `br`, `img` and other void elements standalone;
 * script, style, textarea, svg, math, code blocks and comments are kept as they are. `alt`, `title`,
 * `placeholder`, `aria-label` and the description meta tags are units of their own
 * (`context.style` names the attribute). Character references are decoded in units and white space
 * folded as a browser shows it; a changed unit is written escaped (non-ASCII as references when the
 * page declares a charset other than UTF-8), an unchanged one keeps its bytes. `lang` on `<html>` is
 * set to the target language when one is given.
 */

type AttrSpot = { attr: string; quote: string; raw: string };
type Inner = string | AttrSpot;
type HPiece =
  | string
  | AttrSpot
  | { lang: string }
  | { unit: string; raw: Inner[]; spots: Array<{ tag: number; unit: string; start: number; end: number; quote: string }>; pre: boolean };

interface Skeleton {
  encoding: Encoding;
  pieces: HPiece[];
  ascii: boolean;
}

interface Attr {
  name: string;
  value: string;
  vstart: number;
  vend: number;
  quote: string;
}

type Token =
  | { kind: 'text'; start: number; end: number }
  | { kind: 'open'; name: string; attrs: Attr[]; selfClosing: boolean; start: number; end: number }
  | { kind: 'close'; name: string; start: number; end: number }
  | { kind: 'other'; start: number; end: number };

const INLINE = new Set('a abbr b bdi bdo big cite code data del dfn em font i ins kbd mark q s samp small span strike strong sub sup time tt u var'.split(' '));
const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
const INLINE_VOID = new Set('br img wbr input embed'.split(' '));
// Elements kept as they are, content and all.
const UNTOUCHED = new Set(['script', 'style', 'textarea', 'svg', 'math', 'noembed', 'xmp', 'iframe', 'object']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'xmp', 'noembed', 'title']);
const ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label']);
const META = /^(?:description|og:title|og:description|twitter:title|twitter:description)$/i;

const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';
const ENTITIES: Record<string, number> = {
  amp: 38, lt: 60, gt: 62, quot: 34, apos: 39, OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, fnof: 402, circ: 710, tilde: 732,
  ensp: 8194, emsp: 8195, thinsp: 8201, zwnj: 8204, zwj: 8205, lrm: 8206, rlm: 8207, ndash: 8211, mdash: 8212, lsquo: 8216, rsquo: 8217, sbquo: 8218,
  ldquo: 8220, rdquo: 8221, bdquo: 8222, dagger: 8224, Dagger: 8225, bull: 8226, hellip: 8230, permil: 8240, prime: 8242, Prime: 8243, lsaquo: 8249,
  rsaquo: 8250, euro: 8364, trade: 8482, larr: 8592, uarr: 8593, rarr: 8594, darr: 8595, harr: 8596, minus: 8722, ne: 8800, le: 8804, ge: 8805, infin: 8734,
};
LATIN1.split(' ').forEach((name, i) => (ENTITIES[name] = 160 + i));

const REFERENCE = /&(#[xX][0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);/g;

function character(ref: string): string | null {
  if (ref[0] === '#') {
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
  }
  return ENTITIES[ref] !== undefined ? String.fromCodePoint(ENTITIES[ref]!) : null;
}

/** Text with its references decoded; an entity this table does not know is left as it is. */
function decodeHtml(text: string): string {
  return text.replace(REFERENCE, (whole, ref: string) => character(ref) ?? whole);
}

/** Adds text to a unit: references decoded (unknown ones as standalone marks), white space folded outside `pre`. */
function addText(unit: UnitText, raw: string, pre: boolean): void {
  let last = 0;
  const fold = (s: string) => (pre ? s : s.replace(/[ \t\n\r\f]+/g, ' '));
  for (const m of raw.matchAll(REFERENCE)) {
    const c = character(m[1]!);
    if (c !== null) continue;
    unit.text(fold(decodeHtml(raw.slice(last, m.index))));
    unit.standalone(m[0]);
    last = m.index! + m[0].length;
  }
  unit.text(fold(decodeHtml(raw.slice(last))));
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const fail = (at: number, what: string): never => {
    throw new FormatError('html', `the file ends inside ${what} that starts at line ${text.slice(0, at).split('\n').length} (is it truncated?)`);
  };
  let i = 0;
  let textStart = 0;
  const flushText = (to: number) => {
    if (to > textStart) out.push({ kind: 'text', start: textStart, end: to });
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt === -1) break;
    const next = text[lt + 1] ?? '';
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) fail(lt, 'a comment');
      flushText(lt);
      out.push({ kind: 'other', start: lt, end: end + 3 });
      i = textStart = end + 3;
    } else if (next === '!' || next === '?' || (next === '/' && !/[A-Za-z]/.test(text[lt + 2] ?? ''))) {
      const end = text.indexOf('>', lt);
      if (end === -1) fail(lt, 'a declaration');
      flushText(lt);
      out.push({ kind: 'other', start: lt, end: end + 1 });
      i = textStart = end + 1;
    } else if (next === '/') {
      const end = text.indexOf('>', lt);
      if (end === -1) fail(lt, 'a closing tag');
      flushText(lt);
      out.push({ kind: 'close', name: /^[^\s/>]+/.exec(text.slice(lt + 2))![0].toLowerCase(), start: lt, end: end + 1 });
      i = textStart = end + 1;
    } else if (/[A-Za-z]/.test(next)) {
      const name = /^[^\s/>]+/.exec(text.slice(lt + 1, lt + 200))![0].toLowerCase();
      let j = lt + 1 + name.length;
      const attrs: Attr[] = [];
      let selfClosing = false;
      for (;;) {
        while (j < text.length && /\s/.test(text[j]!)) j++;
        if (j >= text.length) fail(lt, `the tag <${name}>`);
        const c = text[j]!;
        if (c === '>') break;
        if (c === '/' && text[j + 1] === '>') {
          selfClosing = true;
          j++;
          break;
        }
        const an = /^[^\s"'>/=]+/.exec(text.slice(j, j + 200))?.[0];
        if (!an) {
          j++;
          continue;
        }
        j += an.length;
        let k = j;
        while (k < text.length && /\s/.test(text[k]!)) k++;
        if (text[k] !== '=') {
          attrs.push({ name: an.toLowerCase(), value: '', vstart: j, vend: j, quote: '' });
          continue;
        }
        k++;
        while (k < text.length && /\s/.test(text[k]!)) k++;
        const q = text[k];
        if (q === '"' || q === "'") {
          const end = text.indexOf(q, k + 1);
          if (end === -1) fail(lt, `the tag <${name}>`);
          attrs.push({ name: an.toLowerCase(), value: decodeHtml(text.slice(k + 1, end)), vstart: k, vend: end + 1, quote: q });
          j = end + 1;
        } else {
          const v = /^[^\s>]*/.exec(text.slice(k))![0];
          attrs.push({ name: an.toLowerCase(), value: decodeHtml(v), vstart: k, vend: k + v.length, quote: '' });
          j = k + v.length;
        }
      }
      flushText(lt);
      out.push({ kind: 'open', name, attrs, selfClosing, start: lt, end: j + 1 });
      i = textStart = j + 1;
      if (RAW_TEXT.has(name) && !selfClosing) {
        // Raw text runs to its own closing tag; a missing one takes the rest of the file.
        const close = new RegExp(`</${name}[\\s>/]`, 'ig');
        close.lastIndex = i;
        const m = close.exec(text);
        const end = m ? m.index : text.length;
        if (end > i) out.push({ kind: name === 'title' ? 'text' : 'other', start: i, end });
        i = textStart = end;
      }
    } else i = lt + 1;
  }
  flushText(text.length);
  return out;
}

const escapeText = (ascii: boolean) => (s: string) => {
  const out = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');
  return ascii ? out.replace(/[^\u0000-\u007f]/gu, (c) => `&#${c.codePointAt(0)};`) : out;
};

function quoted(value: string, quote: string, ascii: boolean): string {
  const q = quote || '"';
  const escaped = escapeText(ascii)(value).replace(q === '"' ? /"/g : /'/g, q === '"' ? '&quot;' : '&#39;');
  return `${q}${escaped}${q}`;
}

export const htmlFormat: FileFormat = {
  id: 'html',
  name: 'HTML',
  extensions: ['html', 'htm', 'xhtml'],
  mimeTypes: ['text/html', 'application/xhtml+xml'],
  sniff(bytes) {
    const text = textOf(bytes);
    if (text === null) return false;
    const head = text.replace(/^\uFEFF/, '').slice(0, 4096).trimStart();
    return /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta|title|p|div|h[1-6]|table|ul|section|article|span|a)[\s>/]/i.test(head);
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'html');
    const tokens = tokenize(text);
    const units: TranslationUnit[] = [];
    const pieces: HPiece[] = [];
    const charset = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(text.slice(0, 4096))?.[1];
    const ascii = !!charset && !/^utf-?(8|16)/i.test(charset);
    const newUnit = (source: string, tags: Record<string, InlineTag>, context: TranslationUnit['context']) => {
      const id = String(units.length + 1);
      units.push({ id, source, tags, context: { ...context, position: units.length + 1 } });
      return id;
    };
    /** The translatable attributes of a tag, as units; their spots in the tag. */
    const attributeUnits = (t: Extract<Token, { kind: 'open' }>) => {
      const found: Array<{ unit: string; attr: Attr }> = [];
      const meta = t.name === 'meta' ? t.attrs.find((a) => a.name === 'name' || a.name === 'property') : undefined;
      for (const a of t.attrs) {
        const wanted = ATTRIBUTES.has(a.name) || (meta && a.name === 'content' && META.test(meta.value));
        if (!wanted || !a.value.trim() || !a.quote && a.vstart === a.vend) continue;
        found.push({ unit: newUnit(a.value, {}, { style: meta && a.name === 'content' ? meta.value.toLowerCase() : a.name }), attr: a });
      }
      return found;
    };
    // Outside a run: raw text with attribute spots for the tag's translatable attributes.
    const rawWithSpots = (t: Token, spots: Array<{ unit: string; attr: Attr }>): Inner[] => {
      const inner: Inner[] = [];
      let last = t.start;
      for (const s of spots) {
        inner.push(text.slice(last, s.attr.vstart), { attr: s.unit, quote: s.attr.quote, raw: text.slice(s.attr.vstart, s.attr.vend) });
        last = s.attr.vend;
      }
      inner.push(text.slice(last, t.end));
      return inner;
    };

    let run: Token[] = [];
    const blocks: string[] = [];
    let preDepth = 0;
    const flush = () => {
      const tokensOfRun = run;
      run = [];
      if (!tokensOfRun.length) return;
      const hasText = tokensOfRun.some((t) => t.kind === 'text' && decodeHtml(text.slice(t.start, t.end)).replace(/[ \t\n\r\f]/g, '') !== '');
      if (!hasText) {
        for (const t of tokensOfRun) {
          if (t.kind === 'open') pieces.push(...rawWithSpots(t, attributeUnits(t)));
          else pieces.push(text.slice(t.start, t.end));
        }
        return;
      }
      const pre = preDepth > 0;
      const first = tokensOfRun[0]!;
      const lastToken = tokensOfRun[tokensOfRun.length - 1]!;
      const lead = first.kind === 'text' ? /^[ \t\n\r\f]*/.exec(text.slice(first.start, first.end))![0].length : 0;
      const trail = lastToken.kind === 'text' ? /[ \t\n\r\f]*$/.exec(text.slice(lastToken.start, lastToken.end))![0].length : 0;
      const start = first.start + lead;
      const end = lastToken.end - trail;
      const unit = new UnitText();
      const stack: Array<{ name: string; ref: number }> = [];
      const spots: Array<{ key: object; unit: string; attr: Attr; tagStart: number }> = [];
      const inner: Inner[] = [];
      let innerLast = start;
      for (const t of tokensOfRun) {
        const from = Math.max(t.start, start);
        const to = Math.min(t.end, end);
        if (t.kind === 'text') {
          if (to > from) addText(unit, text.slice(from, to), pre);
        } else if (t.kind === 'open') {
          const raw = text.slice(t.start, t.end);
          const key = {};
          for (const s of attributeUnits(t)) {
            spots.push({ key, unit: s.unit, attr: s.attr, tagStart: t.start });
            inner.push(text.slice(innerLast, s.attr.vstart), { attr: s.unit, quote: s.attr.quote, raw: text.slice(s.attr.vstart, s.attr.vend) });
            innerLast = s.attr.vend;
          }
          if (INLINE.has(t.name) && !t.selfClosing) stack.push({ name: t.name, ref: unit.open(raw, `</${t.name}>`, key) });
          else unit.standalone(raw, key);
        } else if (t.kind === 'close') {
          const raw = text.slice(t.start, t.end);
          if (stack.length && stack[stack.length - 1]!.name === t.name) unit.close(stack.pop()!.ref, raw);
          else unit.standalone(raw);
        } else unit.standalone(text.slice(t.start, t.end));
      }
      inner.push(text.slice(innerLast, end));
      const { source, tags, numbers } = unit.build();
      pieces.push(text.slice(first.start, start));
      const id = newUnit(source, tags, { style: blocks[blocks.length - 1] ?? 'body' });
      // Attribute units were numbered first; the block's unit follows them in the file's order.
      pieces.push({
        unit: id,
        raw: inner,
        spots: spots.map((s) => ({ tag: numbers.get(s.key)!, unit: s.unit, start: s.attr.vstart - s.tagStart, end: s.attr.vend - s.tagStart, quote: s.attr.quote })),
        pre,
      });
      pieces.push(text.slice(end, lastToken.end));
    };

    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      if (t.kind === 'open') {
        const name = t.name;
        let after = k + 1;
        while (tokens[after]?.kind === 'text' && !text.slice(tokens[after]!.start, tokens[after]!.end).trim()) after++;
        const firstChild = tokens[after];
        // A code block (`<pre><code>`) is code: kept as it is.
        const codeBlock = name === 'pre' && firstChild?.kind === 'open' && firstChild.name === 'code';
        if ((UNTOUCHED.has(name) || codeBlock) && !t.selfClosing) {
          flush();
          // The element to its own closing tag (nested ones of its name counted), as it is.
          let depth = 0;
          let m = k;
          for (; m < tokens.length; m++) {
            const x = tokens[m]!;
            if (x.kind === 'open' && x.name === name && !x.selfClosing) depth++;
            else if (x.kind === 'close' && x.name === name && --depth === 0) break;
          }
          const last = tokens[Math.min(m, tokens.length - 1)]!;
          pieces.push(text.slice(t.start, last.end));
          k = m;
          continue;
        }
        if (INLINE.has(name) || INLINE_VOID.has(name) || (!VOID.has(name) && !BLOCKS.has(name) && name.includes('-'))) {
          run.push(t);
          continue;
        }
        flush();
        if (name === 'html') pieces.push({ lang: text.slice(t.start, t.end) });
        else pieces.push(...rawWithSpots(t, attributeUnits(t)));
        if (!VOID.has(name) && !t.selfClosing) {
          blocks.push(name);
          if (name === 'pre') preDepth++;
        }
      } else if (t.kind === 'close') {
        if (INLINE.has(t.name) || (!BLOCKS.has(t.name) && t.name.includes('-'))) {
          run.push(t);
          continue;
        }
        flush();
        pieces.push(text.slice(t.start, t.end));
        const at = blocks.lastIndexOf(t.name);
        if (at !== -1) {
          if (blocks.slice(at).includes('pre')) preDepth -= blocks.slice(at).filter((b) => b === 'pre').length;
          blocks.length = at;
        }
      } else run.push(t);
    }
    flush();
    return { format: 'html', units, skeleton: { encoding, pieces: merge(pieces), ascii } satisfies Skeleton };
  },
  async write(file, units, options) {
    const skeleton = file.skeleton as Skeleton;
    const read = new Map(file.units.map((u) => [u.id, u]));
    const given = new Map(units.map((u) => [u.id, u]));
    const textOfUnit = (id: string) => {
      const u = given.get(id) ?? read.get(id)!;
      return u.target ?? u.source;
    };
    const changed = (id: string) => textOfUnit(id) !== read.get(id)!.source;
    const attr = (spot: AttrSpot) => (changed(spot.attr) ? quoted(textOfUnit(spot.attr), spot.quote, skeleton.ascii) : spot.raw);
    let out = '';
    for (const piece of skeleton.pieces) {
      if (typeof piece === 'string') out += piece;
      else if ('attr' in piece) out += attr(piece);
      else if ('lang' in piece) out += options?.targetLanguage ? setLang(piece.lang, options.targetLanguage) : piece.lang;
      else if (!changed(piece.unit)) out += piece.raw.map((r) => (typeof r === 'string' ? r : attr(r))).join('');
      else {
        const unit = given.get(piece.unit) ?? read.get(piece.unit)!;
        const tags: Record<string, InlineTag> = { ...unit.tags };
        // Tags holding translatable attributes carry their translations, from the end of the tag backwards.
        for (const s of [...piece.spots].sort((a, b) => b.start - a.start)) {
          const tag = tags[s.tag];
          if (!tag) continue;
          tags[s.tag] = { ...tag, original: tag.original.slice(0, s.start) + attr({ attr: s.unit, quote: s.quote, raw: tag.original.slice(s.start, s.end) }) + tag.original.slice(s.end) };
        }
        out += restoreTags(textOfUnit(piece.unit), tags, escapeText(skeleton.ascii));
      }
    }
    return encodeText(out, skeleton.encoding);
  },
};

const BLOCKS = new Set(
  'address article aside blockquote body button caption dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup html label legend li main menu nav noscript ol optgroup option p pre section select summary table tbody td template tfoot th thead title tr ul'.split(' '),
);

/** Adjacent strings as one. */
function merge(pieces: HPiece[]): HPiece[] {
  const out: HPiece[] = [];
  for (const p of pieces) {
    if (typeof p === 'string' && typeof out[out.length - 1] === 'string') out[out.length - 1] += p;
    else if (p !== '') out.push(p);
  }
  return out;
}

/** `<html>` with `lang` (and `xml:lang` where present) set. */
function setLang(tag: string, language: string): string {
  let out = tag;
  for (const name of ['lang', 'xml:lang']) {
    const re = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*'|[^\\s"'=<>\`]+)`, 'i');
    if (re.test(out)) out = out.replace(re, (_m, head: string) => `${head}"${language.replace(/[^\w-]/g, '')}"`);
    else if (name === 'lang') out = out.replace(/^<html/i, (h) => `${h} lang="${language.replace(/[^\w-]/g, '')}"`);
  }
  return out;
}
