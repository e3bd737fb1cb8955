import { isZip, readZip, writeZip, type ZipEntry } from '../interchange/zip.js';
import { parseXml, attrsOf, tagEnd, textOf, localName, type XElement, type XNode } from '../interchange/xml-tree.js';
import { escapeXml } from '../interchange/xml-stream.js';

/**
 * A document's own references to other things, removed before LibreOffice opens it. LibreOffice
 * fetches `http` stylesheets and pictures named by HTML and embeds local pictures named by `file://`
 * (another user's stored files); office formats can name linked pictures, included files and
 * external workbooks the same way. What LibreOffice reads is judged by the bytes (it detects the
 * format by content, whatever the name says), and everything it could follow is taken out: HTML is
 * written again from an allow-list of elements and attributes; XML parts (OOXML, ODF, flat XML, SVG)
 * lose external relationships, linking attributes and field or formula code that names another
 * file; RTF loses such field code. Hyperlinks to web and mail addresses stay (nothing fetches them).
 */

export class UncheckableDocument extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UncheckableDocument';
  }
}

/** What a package may unpack to while it is checked (LibreOffice would unpack it all anyway). */
const PACKAGE_BUDGET = { maxEntries: 10_000, maxBytes: 256 * 1024 * 1024 };
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** A web or mail address a hyperlink may keep (never fetched: a PDF only carries it). */
const WEB_LINK = /^(https?:\/\/|mailto:)[^\s"'<>\\]*$/i;
/** Pictures a document may carry inline (a data URI that names nothing else). */
const SAFE_IMAGE = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]*$/i;
/** Field code that includes or links another file, or names one. */
const LINKING_FIELD = /INCLUDE|LINK|DDE|IMPORT|DATABASE|file:|:\/\/|\\\\|\.\.|^\s*["']?[/\\]|[a-z]:[/\\]/i;
/** Formula functions that reach outside the document, and external references. */
const LINKING_FORMULA = /WEBSERVICE|FILTERXML|INDIRECT|\bDDE\b|file:|:\/\/|\\\\/i;

const hasPrefix = (b: Uint8Array, p: number[]) => p.every((v, i) => b[i] === v);

/** True when the bytes are a PDF, a package, OLE or RTF (formats LibreOffice detects by their first bytes). */
function binaryKind(bytes: Uint8Array): 'pdf' | 'zip' | 'ole' | 'rtf' | null {
  const head = Buffer.from(bytes.subarray(0, 8)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'pdf';
  if (isZip(bytes)) return 'zip';
  if (hasPrefix(bytes, OLE)) return 'ole';
  if (/^\s*\{\\rtf/.test(Buffer.from(bytes.subarray(0, 64)).toString('latin1'))) return 'rtf';
  return null;
}

/**
 * The bytes LibreOffice may open in place of `bytes`. `text` says the caller opens them with a text
 * filter (nothing is followed then). PDF and the old binary formats (doc, xls, ppt) are left as they are:
 * the profile and the missing network are their guard.
 */
export function neutraliseDocument(bytes: Uint8Array, options: { text?: boolean } = {}): Buffer {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (options.text) return buf;
  switch (binaryKind(bytes)) {
    case 'pdf':
    case 'ole':
      return buf;
    case 'zip':
      return neutralisePackage(buf, 0);
    case 'rtf':
      return Buffer.from(neutraliseRtf(buf.toString('latin1')), 'latin1');
    default:
      return neutraliseMarkup(buf);
  }
}

/** Text markup: flat office XML is checked as XML, anything else is written again as HTML. */
function neutraliseMarkup(buf: Buffer): Buffer {
  const { text, encode } = decodeText(buf);
  const out = looksLikeOfficeXml(text) ? neutraliseXml(text) : neutraliseHtml(text);
  return out === text ? buf : encode(out);
}

/**
 * Text as it is encoded, and the way back. Bytes that are not UTF-8 are read as Latin-1, which keeps
 * every byte, so any ASCII-compatible charset passes through unchanged.
 */
function decodeText(buf: Buffer): { text: string; encode: (s: string) => Buffer } {
  if (buf[0] === 0xff && buf[1] === 0xfe) return { text: buf.subarray(2).toString('utf16le'), encode: (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]) };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encode: (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf), encode: (s) => Buffer.from(s, 'utf8') };
  } catch {
    return { text: buf.toString('latin1'), encode: (s) => Buffer.from(s, 'latin1') };
  }
}

function looksLikeOfficeXml(text: string): boolean {
  const head = text.slice(0, 65536);
  if (!/^\ufeff?\s*<\?xml/.test(head)) return false;
  return !/<(?:[\w-]+:)?html[\s>]/i.test(head);
}

// ---------------------------------------------------------------------------------------------
// Packages (OOXML, ODF): every part that is XML, RTF, HTML or a package itself is checked.

function neutralisePackage(buf: Buffer, depth: number): Buffer {
  let entries: ZipEntry[];
  try {
    entries = readZip(buf, PACKAGE_BUDGET);
  } catch (err) {
    throw new UncheckableDocument(`the package cannot be checked: ${(err as Error).message}`);
  }
  const names = new Set<string>();
  for (const e of entries) {
    const parts = e.name.split('/');
    for (let i = 1; i <= parts.length; i++) names.add(parts.slice(0, i).join('/'));
  }
  let changed = false;
  const out = entries.map((e) => {
    const data = neutralisePart(e.data, names, depth);
    if (data === e.data) return e;
    changed = true;
    return { name: e.name, data, store: e.name === 'mimetype' };
  });
  return changed ? writeZip(out) : buf;
}

function neutralisePart(data: Buffer, names: Set<string>, depth: number): Buffer {
  const kind = binaryKind(data);
  if (kind === 'zip') {
    // An embedded document LibreOffice may open to draw it; deeper nesting is not opened at all.
    if (depth >= 2) return Buffer.alloc(0);
    const inner = neutralisePackage(data, depth + 1);
    return inner;
  }
  if (kind === 'rtf') {
    const text = data.toString('latin1');
    const out = neutraliseRtf(text);
    return out === text ? data : Buffer.from(out, 'latin1');
  }
  if (kind) return data;
  // Pictures and other binary parts: only text that starts as markup is read by LibreOffice as markup.
  const utf16 = (data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff);
  const head = utf16 ? decodeText(data.subarray(0, 1024)).text : data.subarray(0, 512).toString('latin1');
  const start = head.replace(/^(\ufeff|\xef\xbb\xbf)/, '').trimStart();
  if (!start.startsWith('<')) return data;
  const { text, encode } = decodeText(data);
  let out: string;
  if (!/<(?:[\w-]+:)?html[\s>]|^<!DOCTYPE\s+html/i.test(start.slice(0, 2048))) {
    // Most parts name nothing: they are not parsed at all.
    if (!MAY_LINK.some((re) => re.test(text))) return data;
    try {
      out = neutraliseXml(text, names);
    } catch {
      // LibreOffice reads some parts leniently (Excel's VML drawings are often not well-formed).
      out = scrubTags(text, names);
    }
  } else {
    out = neutraliseHtml(text);
  }
  return out === text ? data : encode(out);
}

// ---------------------------------------------------------------------------------------------
// XML

const HYPERLINK_ELEMENTS = new Set(['a', 'hyperlink', 'hlink', 'hlinkclick', 'hlinkhover', 'hlinkmouseover']);
const LINKING_ATTRIBUTES = new Set(['href', 'src', 'dest', 'link', 'source', 'background', 'data', 'codebase', 'lowsrc', 'dynsrc', 'poster', 'srcset', 'action', 'formaction', 'template', 'datasource']);
const FORMULA_ELEMENTS = new Set(['f', 'formula', 'formula1', 'formula2', 'definedname']);
const FORMULA_ATTRIBUTES = new Set(['formula', 'condition', 'expression', 'value-highlighting']);
const FIELD_ELEMENTS = new Set(['instrtext', 'fldinst']);

/**
 * What `neutraliseXml` acts on, as plain patterns: a part none of them matches is left as it is
 * without being parsed (a superset of what the parse would find).
 */
const MAY_LINK = [
  /<(\w+:)?Relationship\b/i,
  /<!DOCTYPE/i,
  /<(\w+:)?(script|foreignObject|iframe|object|embed|style|f|formula|formula1|formula2|definedName|instrText|fldinst)[\s>/]/i,
  /[\s:](href|src|dest|link|source|background|data|codebase|lowsrc|dynsrc|poster|srcset|action|formaction|template|datasource|style|formula|condition|expression|value-highlighting|instr|on[\w-]*)\s*=/i,
  /=\s*["']\s*(&|file:|ftp:|smb:|dav:|webdav:|vnd\.sun\.star\.|macro:|\.uno:|data:)/i,
];

/** A reference that stays inside the package (`Pictures/1.png`, `#bookmark`). */
function internal(value: string, names: Set<string> | undefined): boolean {
  const v = value.trim();
  if (v === '' || v.startsWith('#')) return true;
  if (!names) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(v) || /^[/\\]/.test(v) || v.includes('\\') || v.includes('%')) return false;
  const parts = v.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return false;
  return names.has(parts.join('/'));
}

/** True when CSS names anything outside itself. */
function linkingCss(css: string): boolean {
  return /url\s*\(|@import|\\|expression\s*\(|image-set|image\s*\(|behavior|binding|src\s*:/i.test(css);
}

/** CSS without imports and outside references (`url(...)` becomes `none`); null when that cannot be done safely. */
function neutraliseCss(css: string): string | null {
  if (css.includes('\\') || css.includes('<')) return null;
  const out = css
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .replace(/@import[^;]*(;|$)/gi, '')
    .replace(/url\s*\((?:"[^"]*"|'[^']*'|[^)]*)\)/gi, 'none')
    .replace(/@font-face\s*\{[^}]*\}/gi, '');
  return linkingCss(out) ? null : out;
}

function fieldLinks(code: string): boolean {
  const c = code.trim();
  if (/^HYPERLINK\s+"(https?:\/\/|mailto:)[^"\\]*"(\s+\\[a-z](\s+"[^"\\]*")?)*\s*$/i.test(c)) return false;
  if (/^HYPERLINK\s+\\l\s+"[^"\\/:.]*"\s*$/i.test(c)) return false;
  return LINKING_FIELD.test(c);
}

/** An XML document or part with its outside references removed. Malformed XML cannot be checked and is refused. */
export function neutraliseXml(text: string, names?: Set<string>): string {
  let doc;
  try {
    doc = parseXml(text);
  } catch (err) {
    throw new UncheckableDocument(`an XML part cannot be checked: ${(err as Error).message}`);
  }
  const drop = new Set<XNode>();
  const empty = new Set<XElement>();
  const opens = new Map<XElement, string>();
  const contents = new Map<XElement, string>();
  // Complex fields (w:fldChar begin, instrText..., separate): their code may be split over many runs.
  const fields: XElement[][] = [];
  const stack: XElement[][] = [];
  const visit = (nodes: XNode[]) => {
    for (const node of nodes) {
      if (node.type === 'other') {
        // A DOCTYPE could declare entities that name other files.
        if (/^<!DOCTYPE/i.test(node.raw)) drop.add(node);
        continue;
      }
      if (node.type !== 'element') continue;
      const local = localName(node.name).toLowerCase();
      if (local === 'fldchar') {
        const type = Object.entries(attrsOf(node)).find(([k]) => localName(k) === 'fldCharType')?.[1];
        if (type === 'begin') stack.push([]);
        else if (type === 'separate' || type === 'end') {
          const f = stack.pop();
          if (f) fields.push(f);
          // The result runs after `separate` hold no code, but keep begin and end paired.
          if (type === 'separate') stack.push([]);
        }
      }
      if (FIELD_ELEMENTS.has(local)) stack[stack.length - 1]?.push(node);
      if (local === 'relationship') {
        const a = attrsOf(node);
        const target = (a.Target ?? '').trim();
        const external = (a.TargetMode ?? '').toLowerCase() === 'external';
        const hyperlink = /\/hyperlink$/i.test(a.Type ?? '');
        if (external ? !(hyperlink && WEB_LINK.test(target)) : /^[a-z][a-z0-9+.-]*:/i.test(target) || target.includes('\\')) {
          drop.add(node);
          continue;
        }
      }
      if (local === 'script' || local === 'foreignobject' || local === 'iframe' || local === 'object' || local === 'embed') {
        drop.add(node);
        continue;
      }
      if (FORMULA_ELEMENTS.has(local) && LINKING_FORMULA.test(innerTextOf(node))) {
        // The cached value beside it stays what is shown.
        drop.add(node);
        continue;
      }
      if (local === 'style' && node.children.length) {
        const css = innerTextOf(node);
        const safe = neutraliseCss(css);
        if (safe !== css) contents.set(node, safe === null ? '' : escapeXml(safe));
      }
      if (FIELD_ELEMENTS.has(local) && fieldLinks(innerTextOf(node))) empty.add(node);
      const open = rewriteAttributes(node, local, names);
      if (open !== node.open) opens.set(node, open);
      visit(node.children);
    }
  };
  visit(doc.children);
  for (const field of fields) {
    if (fieldLinks(field.map((n) => innerTextOf(n)).join(''))) for (const n of field) empty.add(n);
  }
  if (drop.size === 0 && empty.size === 0 && opens.size === 0 && contents.size === 0) return text;
  const write = (nodes: XNode[]): string => {
    let s = '';
    for (const n of nodes) {
      if (drop.has(n)) continue;
      if (n.type !== 'element') {
        s += n.raw;
        continue;
      }
      const open = opens.get(n) ?? n.open;
      if (!n.close) {
        s += open;
        continue;
      }
      s += open + (empty.has(n) ? '' : contents.get(n) ?? write(n.children)) + n.close;
    }
    return s;
  };
  return write(doc.children);
}

function innerTextOf(el: XElement): string {
  let s = '';
  for (const c of el.children) s += c.type === 'text' ? textOf(c) : c.type === 'element' ? innerTextOf(c) : '';
  return s;
}

function rewriteAttributes(el: XElement, local: string, names: Set<string> | undefined): string {
  const attrs = attrsOf(el);
  let changed = false;
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(attrs)) {
    const a = localName(name).toLowerCase();
    const v = value.trim();
    let keep = true;
    if (name.startsWith('xmlns')) keep = true;
    else if (/^on/.test(a) && !name.includes(':')) keep = false;
    else if (LINKING_ATTRIBUTES.has(a)) keep = internal(v, names) || SAFE_IMAGE.test(v) || (HYPERLINK_ELEMENTS.has(local) && WEB_LINK.test(v));
    else if (a === 'style') keep = !linkingCss(value);
    else if (FORMULA_ATTRIBUTES.has(a)) keep = !LINKING_FORMULA.test(value);
    else if (a === 'instr') keep = !fieldLinks(value);
    // Any other attribute holding a fetchable address goes too (schema names live in xmlns and type).
    else if (/^(file|ftp|smb|dav|webdav|vnd\.sun\.star\.[\w.]+|macro|\.uno|data):/i.test(v)) keep = false;
    if (keep) kept.push([name, value]);
    else changed = true;
  }
  if (!changed) return el.open;
  return `<${el.name}${kept.map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`).join('')}${el.open.endsWith('/>') ? '/>' : '>'}`;
}

const escapeAttribute = (v: string) => escapeXml(v, true).replace(/[^\u0000-\u007e]/gu, (c) => `&#${c.codePointAt(0)};`);

/**
 * Markup that is not well-formed, judged tag by tag: linking attributes, external relationships and
 * linking field code go as in `neutraliseXml`.
 */
function scrubTags(text: string, names: Set<string> | undefined): string {
  const out: string[] = [];
  let at = 0;
  const n = text.length;
  while (at < n) {
    const lt = text.indexOf('<', at);
    if (lt < 0) {
      out.push(text.slice(at));
      break;
    }
    out.push(text.slice(at, lt));
    const i = tagEnd(text, lt);
    const raw = text.slice(lt, Math.min(i + 1, n));
    at = i + 1;
    const m = /^<([A-Za-z_][\w.:-]*)/.exec(raw);
    if (!m || raw.startsWith('</')) {
      if (/^<!DOCTYPE/i.test(raw)) continue;
      out.push(raw);
      continue;
    }
    const el: XElement = { type: 'element', name: m[1]!, open: raw.endsWith('>') ? raw : `${raw}>`, close: '', children: [], parent: null };
    const local = localName(el.name).toLowerCase();
    if (local === 'relationship') {
      const a = attrsOfLenient(el);
      const target = (a.Target ?? '').trim();
      const external = (a.TargetMode ?? '').toLowerCase() === 'external';
      if (external ? !(/\/hyperlink$/i.test(a.Type ?? '') && WEB_LINK.test(target)) : /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    }
    if (FIELD_ELEMENTS.has(local) || FORMULA_ELEMENTS.has(local)) {
      // The element's text up to the next tag is its code.
      const next = text.indexOf('<', at);
      const code = text.slice(at, next < 0 ? n : next);
      if (FIELD_ELEMENTS.has(local) ? fieldLinks(code) : LINKING_FORMULA.test(code)) at = next < 0 ? n : next;
    }
    let open: string;
    try {
      open = rewriteAttributes(el, local, names);
    } catch {
      // Attribute values that cannot be decoded: the tag goes.
      continue;
    }
    out.push(open);
  }
  return out.join('');
}

function attrsOfLenient(el: XElement): Record<string, string> {
  try {
    return attrsOf(el);
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------------------------
// RTF

/** RTF with every field whose code includes, links or names another file emptied (its shown result stays). */
export function neutraliseRtf(text: string): string {
  const groups: number[] = [];
  const cut: [number, number][] = [];
  let fieldGroup = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const m = /^\\([a-zA-Z]+)(-?\d+)? ?/.exec(text.slice(i, i + 40));
      if (m) {
        if (m[1] === 'bin' && m[2]) {
          // Raw bytes follow: braces in them are not groups.
          i += m[0].length - 1 + Math.max(0, Number(m[2]));
          continue;
        }
        if ((m[1] === 'fldinst' || m[1] === 'objautlink' || m[1] === 'objlink' || m[1] === 'linkself') && fieldGroup < 0) fieldGroup = groups.length - 1;
        i += m[0].length - 1;
      } else i += 1; // an escaped symbol (\{, \}, \\, \'hh's first character)
      continue;
    }
    if (c === '{') groups.push(i);
    else if (c === '}') {
      const start = groups.pop();
      if (start !== undefined && fieldGroup === groups.length) {
        cut.push([start, i + 1]);
        fieldGroup = -1;
      }
    }
  }
  let out = '';
  let at = 0;
  for (const [start, end] of cut) {
    const group = text.slice(start, end);
    if (!/\\obj(aut)?link|\\linkself/.test(group) && !fieldLinks(rtfPlain(group))) continue;
    out += text.slice(at, start) + (group.includes('\\fldinst') ? '{\\*\\fldinst }' : '{}');
    at = end;
  }
  out += text.slice(at);
  // Linked pictures of drawing shapes name their file in a shape property.
  return out.replace(/(\\sn\s*)(pibName|pibFlags)/g, '$1x$2');
}

/** The characters RTF markup stands for (control words dropped, escapes decoded), for judging field code. */
function rtfPlain(group: string): string {
  return group
    .replace(/\\'([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\u(-?\d+) ?\??/g, (_, n: string) => String.fromCharCode((Number(n) + 65536) % 65536))
    .replace(/\\([\\{}])/g, (_, ch: string) => (ch === '\\' ? '\u0000' : ch))
    .replace(/\\[a-zA-Z]+-?\d* ?/g, '')
    .replace(/\\[^a-zA-Z\u0000]/g, '')
    .replace(/[{}]/g, '')
    .replace(/\u0000/g, '\\');
}

// ---------------------------------------------------------------------------------------------
// HTML: written again from its tokens, so LibreOffice sees only tags and attributes judged here.

const HTML_TAGS = new Set(
  'html head body title div span p br hr h1 h2 h3 h4 h5 h6 a img ul ol li dl dt dd table thead tbody tfoot tr td th caption col colgroup b i u s strike em strong small big sub sup font center blockquote pre code kbd samp var tt address abbr acronym cite q dfn ins del mark section article header footer nav aside main figure figcaption details summary label wbr nobr ruby rt rp bdi bdo time meta style form input select option optgroup textarea button fieldset legend map area basefont dir menu listing xmp plaintext'.split(' '),
);
/** Elements dropped with everything inside them. */
const HTML_DROPPED = new Set(['script', 'template', 'object', 'applet', 'iframe', 'frameset', 'noframes', 'svg', 'math', 'audio', 'video', 'xml', 'noembed']);
const HTML_ATTRIBUTES = new Set(
  'id class title lang dir align valign width height border cellpadding cellspacing bgcolor color face size colspan rowspan nowrap span clear noshade hspace vspace summary scope headers abbr axis char charoff frame rules compact type start value name label selected checked disabled readonly maxlength rows cols multiple for tabindex accesskey alt xml:lang charset text link vlink alink target shape coords reversed datetime cite'.split(' '),
);
const VOID = new Set(['br', 'hr', 'img', 'meta', 'input', 'col', 'wbr', 'area', 'basefont', 'embed', 'param', 'source', 'track', 'link', 'base', 'frame', 'bgsound', 'isindex', 'keygen']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', sol: '/', tab: '\t', newline: '\n', lpar: '(', rpar: ')', period: '.', num: '#', nbsp: '\u00a0', bsol: '\\' };

/** An attribute value as a browser reads it; null when it holds an entity not known here. */
function htmlDecode(value: string): string | null {
  let unknown = false;
  const out = value.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const known = NAMED[ref.toLowerCase()];
    if (known === undefined) unknown = true;
    return known ?? whole;
  });
  return unknown ? null : out;
}

function htmlAttributes(tag: string, attrs: [string, string | null][]): string {
  let out = '';
  for (const [rawName, raw] of attrs) {
    const name = rawName.toLowerCase();
    const value = raw === null ? '' : htmlDecode(raw);
    if (value === null) continue;
    const v = value.replace(/[\u0000-\u0020\u007f]+/g, '');
    let keep: boolean;
    if (name === 'href') keep = (tag === 'a' || tag === 'area') && (v.startsWith('#') || WEB_LINK.test(v));
    else if (name === 'src') keep = tag === 'img' && SAFE_IMAGE.test(value.trim());
    else if (name === 'style') keep = !linkingCss(value);
    else if (name === 'charset') keep = tag === 'meta' || tag === 'form';
    else if (name === 'http-equiv') keep = tag === 'meta' && v.toLowerCase() === 'content-type';
    else if (name === 'content') keep = tag === 'meta' && /^[\w/+.;= -]*$/.test(value);
    else keep = HTML_ATTRIBUTES.has(name);
    if (!keep) continue;
    // The value as written (its bytes untouched), quoted so that it cannot end the tag.
    out += raw === null ? ` ${name}` : ` ${name}="${raw.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}"`;
  }
  return out;
}

/** HTML rebuilt from an allow-list: nothing in it names a stylesheet, picture, frame or other file outside it. */
export function neutraliseHtml(text: string): string {
  const out: string[] = [];
  const n = text.length;
  // ASCII only: the same length as the text, so offsets agree.
  const lower = text.replace(/[A-Z]+/g, (c) => c.toLowerCase());
  let at = 0;
  let dropping: string | null = null;
  let dropDepth = 0;
  while (at < n) {
    const lt = text.indexOf('<', at);
    const chunk = text.slice(at, lt < 0 ? n : lt);
    if (!dropping && chunk) out.push(chunk.replace(/>/g, '&gt;'));
    if (lt < 0) break;
    at = lt;
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      at = end < 0 ? n : end + 3;
      continue;
    }
    if (text[at + 1] === '!' || text[at + 1] === '?') {
      const end = text.indexOf('>', at);
      at = end < 0 ? n : end + 1;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9:_-]*)/.exec(text.slice(at, at + 128));
    if (!m) {
      if (!dropping) out.push('&lt;');
      at += 1;
      continue;
    }
    const closing = m[1] === '/';
    const tag = m[2]!.toLowerCase();
    // Attributes, as HTML reads them: quoted values may hold '>'.
    let i = at + m[0].length;
    const attrs: [string, string | null][] = [];
    while (i < n) {
      while (i < n && /[\s/]/.test(text[i]!)) i++;
      if (i >= n || text[i] === '>') break;
      const nameMatch = /^[^\s/>=]+/.exec(text.slice(i, i + 256));
      const name = nameMatch ? nameMatch[0] : text[i]!;
      i += name.length;
      while (i < n && /\s/.test(text[i]!)) i++;
      if (text[i] !== '=') {
        attrs.push([name, null]);
        continue;
      }
      i++;
      while (i < n && /\s/.test(text[i]!)) i++;
      const q = text[i];
      let value: string;
      if (q === '"' || q === "'") {
        const end = text.indexOf(q, i + 1);
        value = text.slice(i + 1, end < 0 ? n : end);
        i = end < 0 ? n : end + 1;
      } else {
        const v = /^[^\s>]*/.exec(text.slice(i))![0];
        value = v;
        i += v.length;
      }
      attrs.push([name, value]);
    }
    at = i + 1;
    if (dropping) {
      if (tag === dropping) dropDepth += closing ? -1 : VOID.has(tag) ? 0 : 1;
      if (dropDepth === 0) dropping = null;
      continue;
    }
    if (!closing && HTML_DROPPED.has(tag)) {
      dropping = tag;
      dropDepth = 1;
      continue;
    }
    if (tag === 'style' && !closing) {
      const end = lower.indexOf('</style', at);
      const css = neutraliseCss(text.slice(at, end < 0 ? n : end));
      if (css !== null && css.trim()) out.push(`<style>${css}</style>`);
      at = end < 0 ? n : (text.indexOf('>', end) + 1 || n);
      continue;
    }
    if (tag === 'script' || tag === 'textarea' || tag === 'title') {
      // Raw text: what follows up to the end tag is not markup.
      if (!closing && tag !== 'script') {
        const end = lower.indexOf(`</${tag}`, at);
        const inner = text.slice(at, end < 0 ? n : end);
        out.push(`<${tag}>${inner.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</${tag}>`);
        at = end < 0 ? n : (text.indexOf('>', end) + 1 || n);
      }
      continue;
    }
    if (!HTML_TAGS.has(tag)) continue;
    // A picture whose source went is left out whole (LibreOffice would draw an empty frame).
    if (tag === 'img' && !closing && !attrs.some(([k, v]) => k.toLowerCase() === 'src' && v !== null && SAFE_IMAGE.test((htmlDecode(v) ?? '').trim()))) continue;
    if (closing) out.push(`</${tag}>`);
    else out.push(`<${tag}${htmlAttributes(tag, attrs)}>`);
  }
  return out.join('');
}
