import { decodeEntities, escapeXml, XmlError, XmlTokenizer, xmlText, type XmlToken } from '@linguaport/sdk/interchange';
import { languageTag, platformLanguage, VARIANT_PREFERENCE, variantMatch, type InlineTag, type VariantMatch } from '@linguaport/sdk/shared';

/**
 * TMX 1.4b, read and written streaming (constant memory: a unit at a time).
 *
 * A segment's inline markup (level 2: bpt/ept, ph, it, ut, hi) becomes the numbered placeholders of the
 * format registry (`<1>…</1>` around a span, `<2/>` for a standalone mark) and `tags` keeps, for each
 * number, the TMX element exactly as the file wrote it, so matching and engines see text and a round
 * trip writes the same markup back. Placeholders take the element's `x` where it has one, so the same
 * tag carries the same number in every language of a unit. Level-1 files (no inline elements) read as
 * plain text.
 *
 * Languages are read as the platform names them in `lang` (`en-US`, `en`, `EN-us` are `en`; Chinese keeps
 * its script: `zh-CN`, `zh-TW`), as the full case-normalised BCP 47 tag in `tag` (`en-US`), and as written
 * in `xmlLang`; `variantsFor` picks a unit's variants for a tag.
 */

export interface TmxProp {
  type: string;
  value: string;
  lang?: string;
}

export interface TmxVariant {
  /** Platform code (`en`, `zh-CN`). */
  lang: string;
  /** The full language tag, case-normalised BCP 47 (`en-GB`, `zh-Hans-CN`), or the code as written when it is no tag (set by the reader). */
  tag?: string;
  /** The language as the file wrote it (`EN-us`); the writer uses `lang` when absent. */
  xmlLang?: string;
  /** The segment text with inline placeholders. */
  text: string;
  tags: Record<string, InlineTag>;
  /** Other attributes of the `tuv` (creationid, changedate...). */
  attrs?: Record<string, string>;
  props?: TmxProp[];
  notes?: string[];
  /**
   * Why the segment's inline markup breaks TMX's rules, if it does (set by the reader, which still reads
   * the text leniently: a lone bpt or ept becomes a standalone mark). An import refuses such a unit.
   */
  problem?: TmxSegmentProblem;
}

/**
 * A segment whose bpt/ept pairing is broken: `ept-first` (an ept before, or without, its bpt),
 * `unclosed` (a bpt whose ept never comes), `duplicate-i` (two bpt with one `i`).
 */
export interface TmxSegmentProblem {
  code: 'ept-first' | 'unclosed' | 'duplicate-i';
  /** The `i` concerned. */
  i: string;
}

export interface TmxUnit {
  tuid?: string;
  /** The unit's own source language as written (it overrides the header's), if it has one. */
  srclang?: string;
  /** Other attributes of the `tu` (creationdate, usagecount...). */
  attrs?: Record<string, string>;
  variants: TmxVariant[];
  props: TmxProp[];
  notes: string[];
}

export interface TmxHeader {
  /** As written: a code or `*all*` (any variant may be the source). */
  srclang: string;
  /** The platform code of `srclang`, or null for `*all*`. */
  sourceLanguage: string | null;
  attrs: Record<string, string>;
  props: TmxProp[];
  notes: string[];
}

/** The variant of a unit in `lang` (any region or case of it), or undefined. */
export function variantIn(unit: TmxUnit, lang: string): TmxVariant | undefined {
  const want = platformLanguage(lang);
  return unit.variants.find((v) => v.lang === want);
}

/**
 * The variants of a unit that answer the tag `wanted` best, with how they answer it
 * (`@linguaport/sdk/shared` variantMatch): every variant in the exact tag; else in the language's
 * generic tag; else, only then, in the other variants of the language (`en-US` for `en-GB`). A tag
 * without a region (`en`) takes every variant of its language as they come. Null when the unit
 * holds no variant of the language.
 */
export function variantsFor(unit: TmxUnit, wanted: string): { variants: TmxVariant[]; match: VariantMatch } | null {
  let best: { variants: TmxVariant[]; match: VariantMatch } | null = null;
  for (const v of unit.variants) {
    const m = variantMatch(wanted, v.tag ?? v.lang);
    if (!m) continue;
    if (!best || VARIANT_PREFERENCE[m] < VARIANT_PREFERENCE[best.match]) best = { variants: [v], match: m };
    else if (m === best.match) best.variants.push(v);
  }
  return best;
}

/**
 * The unit's source variant: in the unit's `srclang`, else the header's; with `*all*` (or none found),
 * the first variant.
 */
export function sourceVariant(unit: TmxUnit, header?: Pick<TmxHeader, 'srclang'> | null): TmxVariant | undefined {
  const declared = unit.srclang ?? header?.srclang;
  if (declared && declared !== '*all*') {
    const found = variantIn(unit, declared);
    if (found) return found;
  }
  return unit.variants[0];
}

export interface ReadTmxOptions {
  /** Called once, when the header is complete (before the first unit). */
  onHeader?(header: TmxHeader): void;
}

type TmxSource = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/**
 * Reads TMX text or bytes arriving in pieces (a Node stream, chunks): each `tu` is yielded as it
 * completes. Throws XmlError on malformed XML or a document that is no TMX.
 */
export async function* readTmx(input: TmxSource, options?: ReadTmxOptions | ((header: TmxHeader) => void)): AsyncGenerator<TmxUnit> {
  const onHeader = typeof options === 'function' ? options : options?.onHeader;
  const reader = new TmxReader(onHeader);
  const tokenizer = new XmlTokenizer((t) => reader.token(t));
  for await (const text of xmlText(input)) {
    tokenizer.write(text);
    if (reader.units.length) yield* reader.take();
  }
  tokenizer.write('', true);
  yield* reader.take();
  if (!reader.sawRoot) throw new XmlError('not a TMX document: no <tmx> element');
}

/** A piece of a segment while it is read; numbers are given when the segment ends. */
type SegPart = string | { tag: number; role: 'open' | 'close' | 'alone' };

interface SegTag {
  kind: 'paired' | 'standalone';
  original: string;
  closing?: string;
  /** The file's `x`, preferred as the placeholder's number. */
  x?: number;
  /** For bpt: its `i`, to find its ept. */
  i?: string;
}

interface SegState {
  parts: SegPart[];
  tags: SegTag[];
  /** Open bpt by `i` -> tag index. */
  open: Map<string, number>;
  /** Open hi elements (tag indexes). */
  hi: number[];
  /** Every bpt `i` seen in the segment (an `i` is unique within it), and the first pairing problem. */
  seenI: Set<string>;
  problem?: TmxSegmentProblem;
}

const INLINE = new Set(['bpt', 'ept', 'ph', 'it', 'ut']);

class TmxReader {
  units: TmxUnit[] = [];
  sawRoot = false;
  private header: TmxHeader | null = null;
  private headerDone = false;
  private unit: TmxUnit | null = null;
  private variant: TmxVariant | null = null;
  private seg: SegState | null = null;
  /** Inside bpt/ept/ph/it/ut: the element's markup as written, and its nesting depth (sub). */
  private inline: { name: string; attrs: Record<string, string>; markup: string; depth: number } | null = null;
  private field: { kind: 'prop' | 'note'; attrs: Record<string, string>; text: string } | null = null;

  constructor(private readonly onHeader?: (header: TmxHeader) => void) {}

  take(): TmxUnit[] {
    const out = this.units;
    this.units = [];
    return out;
  }

  token(t: XmlToken): void {
    if (!this.sawRoot) {
      if (t.type === 'open') {
        if (t.name !== 'tmx') throw new XmlError(`not a TMX document: the root element is <${t.name}>`);
        this.sawRoot = true;
      }
      return;
    }
    if (this.inline) return this.inInline(t);
    if (this.seg) return this.inSeg(t);
    if (this.field) {
      if (t.type === 'text') this.field.text += t.text;
      else if (t.type === 'close' && t.name === this.field.kind) this.endField();
      return;
    }
    if (t.type === 'open') this.openElement(t);
    else if (t.type === 'close') this.closeElement(t.name);
  }

  private openElement(t: Extract<XmlToken, { type: 'open' }>): void {
    switch (t.name) {
      case 'header':
        this.header = { srclang: t.attrs.srclang ?? '*all*', sourceLanguage: null, attrs: t.attrs, props: [], notes: [] };
        this.header.sourceLanguage = this.header.srclang === '*all*' ? null : platformLanguage(this.header.srclang);
        if (t.selfClosing) this.endHeader();
        return;
      case 'body':
      case 'tu':
        this.endHeader();
        if (t.name === 'tu') {
          const { tuid, srclang, ...attrs } = t.attrs;
          this.unit = { variants: [], props: [], notes: [] };
          if (tuid !== undefined) this.unit.tuid = tuid;
          if (srclang !== undefined) this.unit.srclang = srclang;
          if (Object.keys(attrs).length) this.unit.attrs = attrs;
          if (t.selfClosing) this.closeElement('tu');
        }
        return;
      case 'tuv': {
        if (!this.unit) return;
        // TMX 1.4 writes xml:lang; 1.1 and some tools wrote lang.
        const { 'xml:lang': xmlLang, lang, ...attrs } = t.attrs;
        const written = xmlLang ?? lang ?? '';
        this.variant = { lang: platformLanguage(written), tag: languageTag(written) ?? written.trim(), xmlLang: written, text: '', tags: {} };
        if (Object.keys(attrs).length) this.variant.attrs = attrs;
        return;
      }
      case 'seg':
        if (!this.variant) return;
        this.seg = { parts: [], tags: [], open: new Map(), hi: [], seenI: new Set() };
        if (t.selfClosing) this.endSeg();
        return;
      case 'prop':
      case 'note':
        this.field = { kind: t.name, attrs: t.attrs, text: '' };
        if (t.selfClosing) this.endField();
        return;
    }
  }

  private closeElement(name: string): void {
    if (name === 'header') this.endHeader();
    else if (name === 'tuv' && this.variant && this.unit) {
      this.unit.variants.push(this.variant);
      this.variant = null;
    } else if (name === 'tu' && this.unit) {
      this.units.push(this.unit);
      this.unit = null;
    }
  }

  private endHeader(): void {
    if (this.headerDone) return;
    this.headerDone = true;
    this.onHeader?.(this.header ?? { srclang: '*all*', sourceLanguage: null, attrs: {}, props: [], notes: [] });
  }

  private endField(): void {
    const f = this.field!;
    this.field = null;
    const lang = f.attrs['xml:lang'] ?? f.attrs.lang;
    // A prop or note belongs to the innermost element open: tuv, tu, else the header.
    const owner = this.variant ?? this.unit ?? (this.headerDone ? null : this.header);
    if (!owner) return;
    if (f.kind === 'prop') {
      const prop: TmxProp = { type: f.attrs.type ?? '', value: f.text };
      if (lang) prop.lang = lang;
      (owner.props ??= []).push(prop);
    } else (owner.notes ??= []).push(f.text);
  }

  private inSeg(t: XmlToken): void {
    const seg = this.seg!;
    if (t.type === 'text') {
      seg.parts.push(t.text);
      return;
    }
    if (t.type === 'open') {
      if (INLINE.has(t.name)) {
        this.inline = { name: t.name, attrs: t.attrs, markup: t.raw, depth: 1 };
        if (t.selfClosing) this.endInline();
      } else if (t.name === 'hi') {
        const idx = seg.tags.push({ kind: 'paired', original: t.raw, closing: '</hi>', x: numberAttr(t.attrs.x) }) - 1;
        if (t.selfClosing) {
          seg.parts.push({ tag: idx, role: 'open' }, { tag: idx, role: 'close' });
        } else {
          seg.hi.push(idx);
          seg.parts.push({ tag: idx, role: 'open' });
        }
      }
      // Anything else inside a segment is not TMX; its text is kept, the element itself dropped.
      return;
    }
    if (t.name === 'hi') {
      const idx = seg.hi.pop();
      if (idx !== undefined) seg.parts.push({ tag: idx, role: 'close' });
    } else if (t.name === 'seg') this.endSeg();
  }

  private inInline(t: XmlToken): void {
    const inline = this.inline!;
    if (t.type === 'text') inline.markup += escapeXml(t.text);
    else {
      inline.markup += t.raw;
      if (t.type === 'open' && !t.selfClosing && t.name === inline.name) inline.depth++;
      if (t.type === 'close' && t.name === inline.name && --inline.depth === 0) this.endInline();
    }
  }

  /** A bpt waits for its ept (same `i`); an ept without one, and ph/it/ut, stand alone. */
  private endInline(): void {
    const { name, attrs, markup } = this.inline!;
    this.inline = null;
    const seg = this.seg!;
    if (name === 'bpt') {
      if (attrs.i !== undefined) {
        if (seg.seenI.has(attrs.i)) seg.problem ??= { code: 'duplicate-i', i: attrs.i };
        seg.seenI.add(attrs.i);
      }
      const idx = seg.tags.push({ kind: 'paired', original: markup, closing: '', x: numberAttr(attrs.x), i: attrs.i }) - 1;
      seg.open.set(attrs.i ?? `#${idx}`, idx);
      seg.parts.push({ tag: idx, role: 'open' });
      return;
    }
    if (name === 'ept') {
      const idx = seg.open.get(attrs.i ?? '');
      if (idx !== undefined) {
        seg.tags[idx]!.closing = markup;
        seg.open.delete(attrs.i ?? '');
        seg.parts.push({ tag: idx, role: 'close' });
        return;
      }
      if (attrs.i !== undefined) seg.problem ??= { code: 'ept-first', i: attrs.i };
    }
    const idx = seg.tags.push({ kind: 'standalone', original: markup, x: numberAttr(attrs.x) }) - 1;
    seg.parts.push({ tag: idx, role: 'alone' });
  }

  private endSeg(): void {
    const seg = this.seg!;
    this.seg = null;
    // A bpt whose ept never came is a standalone mark: its opening placeholder stands alone.
    for (const [i, idx] of seg.open) {
      seg.tags[idx]!.kind = 'standalone';
      if (!i.startsWith('#')) seg.problem ??= { code: 'unclosed', i };
    }
    const numbers = numberTags(seg);
    let text = '';
    const tags: Record<string, InlineTag> = {};
    for (const part of seg.parts) {
      if (typeof part === 'string') {
        text += part;
        continue;
      }
      const tag = seg.tags[part.tag]!;
      const n = numbers[part.tag]!;
      if (tag.kind === 'standalone') {
        if (part.role === 'close') continue;
        text += `<${n}/>`;
        tags[n] = { kind: 'standalone', original: tag.original };
      } else {
        text += part.role === 'open' ? `<${n}>` : `</${n}>`;
        tags[n] = { kind: 'paired', original: tag.original, closing: tag.closing ?? '' };
      }
    }
    this.variant!.text = text;
    this.variant!.tags = tags;
    if (seg.problem) this.variant!.problem = seg.problem;
  }
}

/** The reason a segment is refused, in both languages: `unbalanced bpt/ept i=2` and what is wrong. */
export function tmxProblemReason(p: TmxSegmentProblem): { 'zh-CN': string; 'en-US': string } {
  switch (p.code) {
    case 'ept-first':
      return { 'zh-CN': `bpt/ept 不配对 i=${p.i}：ept 出现在对应的 bpt 之前（或没有 bpt）`, 'en-US': `unbalanced bpt/ept i=${p.i}: an ept before (or without) its bpt` };
    case 'unclosed':
      return { 'zh-CN': `bpt/ept 不配对 i=${p.i}：bpt 没有对应的 ept`, 'en-US': `unbalanced bpt/ept i=${p.i}: a bpt whose ept never comes` };
    case 'duplicate-i':
      return { 'zh-CN': `i=${p.i} 重复：同一段中两个 bpt 使用了相同的 i`, 'en-US': `duplicated i=${p.i}: two bpt of the segment share it` };
  }
}

const numberAttr = (v: string | undefined) => (v !== undefined && /^[1-9]\d{0,5}$/.test(v) ? Number(v) : undefined);

/**
 * A number per tag: its `x` when that is free, else the lowest free one. Numbers the segment's own
 * text already shows as characters (`<1>` written as text) are never used, so they stay text.
 */
function numberTags(seg: SegState): number[] {
  const used = new Set<number>();
  for (const part of seg.parts) if (typeof part === 'string' && part.includes('<')) for (const m of part.matchAll(/<\/?(\d+)\/?>/g)) used.add(Number(m[1]));
  const numbers: number[] = new Array(seg.tags.length);
  seg.tags.forEach((tag, idx) => {
    if (tag.x !== undefined && !used.has(tag.x)) {
      numbers[idx] = tag.x;
      used.add(tag.x);
    }
  });
  let next = 1;
  seg.tags.forEach((_, idx) => {
    if (numbers[idx] !== undefined) return;
    while (used.has(next)) next++;
    numbers[idx] = next;
    used.add(next);
  });
  return numbers;
}

// ---------------------------------------------------------------------------------------------------
// Writing

const TMX_MARKUP = /^<(bpt|ept|ph|it|ut|hi)(?=[\s>/])/;

/**
 * The native code a tag stands for: the content of a TMX inline element read from a file (`<b>` of
 * `<bpt i="1">&lt;b&gt;</bpt>`), or the original itself when it is not TMX markup.
 */
export function nativeCode(original: string): string {
  if (original === '</hi>') return '';
  const m = TMX_MARKUP.exec(original);
  if (!m) return original;
  if (m[1] === 'hi') return '';
  const open = original.indexOf('>');
  if (original[open - 1] === '/') return '';
  const inner = original.slice(open + 1, original.lastIndexOf('</'));
  return decodeEntities(inner.replace(/<\/?sub\b[^>]*>/g, ''));
}

/**
 * The `<seg>` content of a text with placeholders. A tag read from a TMX file is written back as it was
 * read; a tag of another format's native code goes into bpt/ept (paired) or ph (standalone). A paired
 * placeholder that lost its other half (a translator dropped it) is written as an isolated `it`, and a
 * `hi` that would overlap another is left out, so the output always validates.
 */
export function segmentXml(text: string, tags: Record<string, InlineTag> = {}): string {
  const marks = [...text.matchAll(/<(\/?)(\d+)(\/?)>/g)].filter((m) => {
    const tag = tags[m[2]!];
    return tag && (m[3] ? tag.kind === 'standalone' : tag.kind === 'paired');
  });
  const opens = new Map<string, number>();
  const closes = new Map<string, number>();
  for (const m of marks) {
    if (m[3]) continue;
    const counts = m[1] ? closes : opens;
    counts.set(m[2]!, (counts.get(m[2]!) ?? 0) + 1);
  }
  const balanced = (n: string) => opens.get(n) === 1 && closes.get(n) === 1 && text.indexOf(`<${n}>`) < text.indexOf(`</${n}>`);
  const droppedHi = overlappingHi(marks, tags, balanced);
  // `i` pairs a bpt with its ept: numbers already taken by bpt markup read from a file are skipped.
  const takenI = new Set<string>();
  for (const tag of Object.values(tags)) for (const m of `${tag.original}${tag.closing ?? ''}`.matchAll(/<(?:bpt|ept)\b[^>]*\bi="([^"]*)"/g)) takenI.add(m[1]!);
  const iOf = new Map<string, string>();
  let nextI = 1;
  const freshI = (n: string) => {
    let i = iOf.get(n);
    if (!i) {
      while (takenI.has(String(nextI))) nextI++;
      i = String(nextI++);
      iOf.set(n, i);
    }
    return i;
  };

  let out = '';
  let last = 0;
  for (const m of marks) {
    const [whole, close, n, self] = m as unknown as [string, string, string, string];
    const tag = tags[n]!;
    out += escapeXml(text.slice(last, m.index));
    last = m.index! + whole.length;
    const tmx = TMX_MARKUP.exec(tag.original)?.[1];
    if (self) {
      // A bpt or ept read without its other half stays isolated: an `it`.
      if (tmx === 'bpt' || tmx === 'ept') out += `<it pos="${tmx === 'bpt' ? 'begin' : 'end'}" x="${n}">${escapeXml(nativeCode(tag.original))}</it>`;
      else out += tmx && tmx !== 'hi' ? tag.original : `<ph x="${n}">${escapeXml(nativeCode(tag.original))}</ph>`;
      continue;
    }
    if (tmx === 'hi') {
      if (balanced(n) && !droppedHi.has(n)) out += close ? '</hi>' : tag.original;
      continue;
    }
    const code = close ? tag.closing ?? '' : tag.original;
    if (!balanced(n)) {
      out += `<it pos="${close ? 'end' : 'begin'}" x="${n}">${escapeXml(nativeCode(code))}</it>`;
    } else if (tmx === 'bpt' && TMX_MARKUP.exec(tag.closing ?? '')?.[1] === 'ept') {
      out += code;
    } else {
      const i = freshI(n);
      out += close ? `<ept i="${i}">${escapeXml(nativeCode(code))}</ept>` : `<bpt i="${i}" x="${n}">${escapeXml(nativeCode(code))}</bpt>`;
    }
  }
  return out + escapeXml(text.slice(last));
}

/** `hi` is real XML nesting: a hi whose span crosses another hi's cannot be written, so it is dropped. */
function overlappingHi(marks: RegExpMatchArray[], tags: Record<string, InlineTag>, balanced: (n: string) => boolean): Set<string> {
  const dropped = new Set<string>();
  const stack: string[] = [];
  for (const m of marks) {
    const n = m[2]!;
    if (m[3] || TMX_MARKUP.exec(tags[n]!.original)?.[1] !== 'hi' || !balanced(n)) continue;
    if (!m[1]) stack.push(n);
    else if (stack[stack.length - 1] === n) stack.pop();
    else {
      dropped.add(n);
      const at = stack.indexOf(n);
      // Everything opened inside the crossing one is dropped with it.
      for (const inner of stack.splice(at)) dropped.add(inner);
    }
  }
  return dropped;
}

export interface TmxWriteOptions {
  /** The header's source language (a code, or `*all*`). */
  srclang: string;
  /** Shown in the header's creationtool. */
  tool?: string;
  toolVersion?: string;
  segtype?: 'sentence' | 'paragraph' | 'block' | 'phrase';
  adminlang?: string;
  datatype?: string;
  /** The header's o-tmf (the format of the memory the file came from; default `Linguaport`). */
  otmf?: string;
  props?: TmxProp[];
  notes?: string[];
  /** The header's creation date (default: now). */
  now?: Date;
}

const TU_ATTRS = new Set(['o-encoding', 'datatype', 'usagecount', 'lastusagedate', 'creationtool', 'creationtoolversion', 'creationdate', 'creationid', 'changedate', 'changeid', 'o-tmf', 'segtype']);
const TUV_ATTRS = new Set(['o-encoding', 'datatype', 'usagecount', 'lastusagedate', 'creationtool', 'creationtoolversion', 'creationdate', 'creationid', 'changedate', 'changeid', 'o-tmf']);
const SEGTYPES = new Set(['block', 'paragraph', 'sentence', 'phrase']);

const HTML_ELEMENTS = new Set('a abbr b big blockquote br caption cite code col dd del dfn div dl dt em font h1 h2 h3 h4 h5 h6 hr i img ins kbd li ol p pre q s samp small span strike strong sub sup table tbody td th thead tr tt u ul var'.split(' '));

/**
 * What kind of native code a tag carries, for the header's `datatype`: `html` (HTML elements), `xml`
 * (other elements), `rtf` (control words), or null when it is none of those (a bare placeholder).
 */
export function codeDatatype(tag: InlineTag): 'html' | 'xml' | 'rtf' | null {
  const code = `${nativeCode(tag.original)}${tag.closing ? nativeCode(tag.closing) : ''}`.trim();
  if (!code) return null;
  const el = /^<\/?([A-Za-z_][\w:.-]*)/.exec(code);
  if (el) return HTML_ELEMENTS.has(el[1]!.toLowerCase()) ? 'html' : 'xml';
  return /(^|[^\\])\\[a-z]{1,32}-?\d*|^[{}]+$/.test(code) ? 'rtf' : null;
}

/**
 * The honest `datatype` of segments holding these tags: `plaintext` without codes, `html`, `rtf` or
 * `xml` when all codes are of one kind, `unknown` when they mix. Feed it tag sets with `add`.
 */
export class TmxDatatype {
  private kinds = new Set<string>();
  add(tags: Record<string, InlineTag> | undefined): void {
    for (const tag of Object.values(tags ?? {})) {
      const kind = codeDatatype(tag);
      if (kind) this.kinds.add(kind);
    }
  }
  get codes(): boolean {
    return this.kinds.size > 0;
  }
  get value(): string {
    if (!this.kinds.size) return 'plaintext';
    // HTML is XML-like: html with xml elements stays html (an unknown element in HTML markup).
    if (this.kinds.size === 2 && this.kinds.has('html') && this.kinds.has('xml')) return 'html';
    return this.kinds.size === 1 ? [...this.kinds][0]! : 'unknown';
  }
}

/** TMX's date form: `20240131T235959Z`. */
export function tmxDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

const attr = (v: string) => escapeXml(v, true);

function attrsXml(attrs: Record<string, string> | undefined, allowed: Set<string>): string {
  let out = '';
  if (!attrs) return out;
  for (const [k, v] of Object.entries(attrs)) if (allowed.has(k) && (k !== 'segtype' || SEGTYPES.has(v))) out += ` ${k}="${attr(v)}"`;
  return out;
}

function fieldsXml(props: TmxProp[] | undefined, notes: string[] | undefined, indent: string): string {
  let out = '';
  for (const note of notes ?? []) out += `${indent}<note>${escapeXml(note)}</note>\n`;
  for (const p of props ?? []) out += `${indent}<prop type="${attr(p.type)}"${p.lang ? ` xml:lang="${attr(p.lang)}"` : ''}>${escapeXml(p.value)}</prop>\n`;
  return out;
}

/** One `tu` element. */
export function unitXml(u: TmxUnit): string {
  let xml = `<tu${u.tuid !== undefined ? ` tuid="${attr(u.tuid)}"` : ''}${attrsXml(u.attrs, TU_ATTRS)}${u.srclang ? ` srclang="${attr(u.srclang)}"` : ''}>\n`;
  xml += fieldsXml(u.props, u.notes, '      ');
  for (const v of u.variants) {
    const fields = fieldsXml(v.props, v.notes, '        ');
    xml += `      <tuv xml:lang="${attr(v.xmlLang || v.lang)}"${attrsXml(v.attrs, TUV_ATTRS)}>${fields ? `\n${fields}        ` : ''}<seg>${segmentXml(v.text, v.tags)}</seg></tuv>\n`;
  }
  return `    ${xml}    </tu>\n`;
}

/**
 * TMX 1.4b as text pieces of about 64 KB: the header, the units, the end (a unit without variants is
 * skipped: the DTD needs at least one). Valid against the TMX 1.4b DTD (`tmx14.dtd` beside this file).
 * Give it to `Readable.from` for a stream.
 */
export async function* writeTmx(units: AsyncIterable<TmxUnit> | Iterable<TmxUnit>, options: TmxWriteOptions): AsyncGenerator<string> {
  const segtype = options.segtype && SEGTYPES.has(options.segtype) ? options.segtype : 'sentence';
  let out =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx version="1.4">\n' +
    `  <header creationtool="${attr(options.tool ?? 'Linguaport')}" creationtoolversion="${attr(options.toolVersion ?? '1')}" datatype="${attr(options.datatype ?? 'plaintext')}" segtype="${segtype}" adminlang="${attr(options.adminlang ?? 'en-US')}" srclang="${attr(options.srclang)}" o-tmf="${attr(options.otmf || 'Linguaport')}" creationdate="${tmxDate(options.now ?? new Date())}"`;
  const headerFields = fieldsXml(options.props, options.notes, '    ');
  out += headerFields ? `>\n${headerFields}  </header>\n  <body>\n` : '/>\n  <body>\n';
  for await (const u of units) {
    if (!u.variants.length) continue;
    out += unitXml(u);
    if (out.length >= 65536) {
      yield out;
      out = '';
    }
  }
  yield `${out}  </body>\n</tmx>\n`;
}
