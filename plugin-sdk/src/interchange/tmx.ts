import type { InlineTag } from '../shared/file-format.js';
import { escapeXml, xmlTokens, XmlError, type XmlToken } from './xml-stream.js';

/**
 * TMX 1.4b, read and written streaming. A unit's segment text carries its inline markup (bpt/ept,
 * ph, it, ut, hi) as the numbered placeholders of the format registry (`<1>…</1>`, `<2/>`) with
 * the original markup kept in `tags`, so memories, engines and matching see text, and a round trip
 * writes the markup back. Language codes are read as the platform names them (`en-US` and `EN` are
 * `en`; Chinese keeps its region: `zh-CN`, `zh-TW`).
 */

export interface TmxVariant {
  lang: string;
  /** The segment text with inline placeholders. */
  text: string;
  tags: Record<string, InlineTag>;
}

export interface TmxUnit {
  tuid?: string;
  variants: TmxVariant[];
  props: Record<string, string>;
  notes: string[];
}

export interface TmxHeader {
  srclang: string;
  attrs: Record<string, string>;
}

/** `en-US` -> `en`, `zh-Hans` -> `zh-CN`, `ZH-tw` -> `zh-TW`; `*all*` stays. */
export function platformLanguage(code: string): string {
  const c = code.trim();
  if (c === '*all*') return c;
  const [primary, ...rest] = c.split(/[-_]/);
  const p = primary.toLowerCase();
  if (p === 'zh') {
    const sub = rest.map((r) => r.toLowerCase());
    return sub.includes('tw') || sub.includes('hk') || sub.includes('hant') ? 'zh-TW' : 'zh-CN';
  }
  return p;
}

/** The variant of a unit in `lang` (any region of it), or undefined. */
export function variantIn(unit: TmxUnit, lang: string): TmxVariant | undefined {
  const want = platformLanguage(lang);
  return unit.variants.find((v) => v.lang === want);
}

const INLINE = new Set(['bpt', 'ept', 'ph', 'it', 'ut', 'hi', 'sub']);

/** What an inline element holds, as the native code it stands for: its text (a `sub` inside is kept as markup). */
const codeOf = (t: XmlToken) => (t.type === 'text' ? t.text : t.raw);

/**
 * Reads the TMX text arriving in chunks: the header first (`onHeader`), then each `tu` as it
 * completes. Throws XmlError on a document that is no TMX.
 */
export async function* readTmx(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, onHeader?: (header: TmxHeader) => void): AsyncGenerator<TmxUnit> {
  let sawRoot = false;
  let unit: TmxUnit | null = null;
  let variant: { lang: string } | null = null;
  let seg: { text: string; tags: Record<string, InlineTag>; next: number; open: Map<string, string>; stack: string[] } | null = null;
  // Inside an inline element: its own markup is collected as the placeholder's original.
  let inline: { name: string; depth: number; raw: string; attrs: Record<string, string> } | null = null;
  let field: { kind: 'prop' | 'note'; type: string; text: string } | null = null;
  for await (const t of xmlTokens(chunks)) {
    if (!sawRoot) {
      if (t.type === 'open') {
        if (t.name !== 'tmx') throw new XmlError(`not a TMX document: the root element is <${t.name}>`);
        sawRoot = true;
      }
      continue;
    }
    if (inline) {
      if (t.type === 'open' && !t.selfClosing && INLINE.has(t.name)) inline.depth++;
      if (t.type === 'close' && INLINE.has(t.name)) {
        inline.depth--;
        if (inline.depth === 0) {
          closeInline(seg!, inline);
          inline = null;
          continue;
        }
      }
      inline.raw += codeOf(t);
      continue;
    }
    if (seg) {
      if (t.type === 'text') seg.text += t.text;
      else if (t.type === 'open' && INLINE.has(t.name)) {
        if (t.name === 'hi') {
          const n = String(seg.next++);
          seg.tags[n] = { kind: 'paired', original: t.raw, closing: '</hi>' };
          seg.text += `<${n}>`;
          seg.stack.push(n);
          if (t.selfClosing) {
            seg.text += `</${n}>`;
            seg.stack.pop();
          }
        } else if (t.selfClosing) {
          inline = { name: t.name, depth: 1, raw: '', attrs: t.attrs };
          closeInline(seg, inline);
          inline = null;
        } else inline = { name: t.name, depth: 1, raw: '', attrs: t.attrs };
      } else if (t.type === 'close' && t.name === 'hi') {
        const n = seg.stack.pop();
        if (n !== undefined) seg.text += `</${n}>`;
      } else if (t.type === 'close' && t.name === 'seg') {
        unit!.variants.push({ lang: platformLanguage(variant!.lang), text: seg.text, tags: seg.tags });
        seg = null;
      }
      continue;
    }
    if (field) {
      if (t.type === 'text') field.text += t.text;
      else if (t.type === 'close' && (t.name === 'prop' || t.name === 'note')) {
        if (unit) {
          if (field.kind === 'prop') unit.props[field.type] = field.text;
          else unit.notes.push(field.text);
        }
        field = null;
      }
      continue;
    }
    if (t.type === 'open') {
      if (t.name === 'header') onHeader?.({ srclang: t.attrs.srclang ?? '*all*', attrs: t.attrs });
      else if (t.name === 'tu') unit = { tuid: t.attrs.tuid, variants: [], props: {}, notes: [] };
      else if (t.name === 'tuv' && unit) variant = { lang: t.attrs['xml:lang'] ?? t.attrs.lang ?? '' };
      else if (t.name === 'seg' && variant) {
        seg = { text: '', tags: {}, next: 1, open: new Map(), stack: [] };
        if (t.selfClosing) {
          unit!.variants.push({ lang: platformLanguage(variant.lang), text: '', tags: {} });
          seg = null;
        }
      } else if ((t.name === 'prop' || t.name === 'note') && !t.selfClosing) field = { kind: t.name, type: t.attrs.type ?? '', text: '' };
    } else if (t.type === 'close') {
      if (t.name === 'tu' && unit) {
        yield unit;
        unit = null;
      } else if (t.name === 'tuv') variant = null;
    }
  }
  if (!sawRoot) throw new XmlError('not a TMX document: no <tmx> element');
}

/** bpt/ept pair through their `i`; ph, it and ut stand alone. */
function closeInline(seg: { text: string; tags: Record<string, InlineTag>; next: number; open: Map<string, string> }, inline: { name: string; raw: string; attrs: Record<string, string> }) {
  const { name, raw, attrs } = inline;
  if (name === 'bpt') {
    const n = String(seg.next++);
    seg.tags[n] = { kind: 'paired', original: raw, closing: '' };
    seg.open.set(attrs.i ?? n, n);
    seg.text += `<${n}>`;
  } else if (name === 'ept') {
    const n = seg.open.get(attrs.i ?? '');
    if (n !== undefined) {
      seg.tags[n] = { ...seg.tags[n]!, closing: raw };
      seg.open.delete(attrs.i ?? '');
      seg.text += `</${n}>`;
    } else {
      // An ept whose bpt is in another segment: a standalone mark.
      const m = String(seg.next++);
      seg.tags[m] = { kind: 'standalone', original: raw };
      seg.text += `<${m}/>`;
    }
  } else if (name !== 'sub') {
    const n = String(seg.next++);
    seg.tags[n] = { kind: 'standalone', original: raw };
    seg.text += `<${n}/>`;
  }
}

/** The segment markup of a text with placeholders: paired tags as bpt/ept, standalone ones as ph. */
export function segmentXml(text: string, tags: Record<string, InlineTag> = {}): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/<(\/?)(\d+)(\/?)>/g)) {
    const [whole, close, n, self] = m;
    const tag = tags[n];
    if (!tag) continue;
    out += escapeXml(text.slice(last, m.index));
    // A TMX <hi> read from a file is markup of TMX itself: written back as it was. Any other tag's
    // original is the native code (an HTML or OOXML tag) that bpt, ept and ph carry as text.
    const hi = tag.kind === 'paired' && tag.closing === '</hi>' && /^<hi[\s>]/.test(tag.original);
    if (self) out += `<ph x="${n}">${escapeXml(tag.original)}</ph>`;
    else if (hi) out += close ? '</hi>' : tag.original;
    else if (close) out += `<ept i="${n}">${escapeXml(tag.closing ?? '')}</ept>`;
    else out += `<bpt i="${n}" x="${n}">${escapeXml(tag.original)}</bpt>`;
    last = m.index! + whole.length;
  }
  return out + escapeXml(text.slice(last));
}

export interface TmxWriteOptions {
  srclang: string;
  /** Shown in the header's creationtool. */
  tool?: string;
  toolVersion?: string;
  segtype?: 'sentence' | 'paragraph' | 'block' | 'phrase';
  adminlang?: string;
}

/** TMX 1.4b, one chunk at a time: the header, each unit, the end. Valid against the TMX 1.4b DTD. */
export async function* writeTmx(units: AsyncIterable<TmxUnit> | Iterable<TmxUnit>, options: TmxWriteOptions): AsyncGenerator<string> {
  const attr = (v: string) => escapeXml(v, true);
  const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx version="1.4">\n';
  yield `  <header creationtool="${attr(options.tool ?? 'Linguaport')}" creationtoolversion="${attr(options.toolVersion ?? '1')}" datatype="plaintext" segtype="${options.segtype ?? 'sentence'}" adminlang="${attr(options.adminlang ?? 'en')}" srclang="${attr(options.srclang)}" o-tmf="Linguaport" creationdate="${now}"/>\n  <body>\n`;
  for await (const u of units) {
    let xml = `    <tu${u.tuid ? ` tuid="${attr(u.tuid)}"` : ''}>\n`;
    for (const [type, value] of Object.entries(u.props)) xml += `      <prop type="${attr(type)}">${escapeXml(value)}</prop>\n`;
    for (const note of u.notes) xml += `      <note>${escapeXml(note)}</note>\n`;
    for (const v of u.variants) xml += `      <tuv xml:lang="${attr(v.lang)}"><seg>${segmentXml(v.text, v.tags)}</seg></tuv>\n`;
    yield `${xml}    </tu>\n`;
  }
  yield '  </body>\n</tmx>\n';
}
