import type { InlineTag, TargetState } from '../shared/file-format.js';
import { escapeXml } from './xml-stream.js';

/**
 * XLIFF 1.2 and 2.1 written from units (a document's, a memory's entries): one writer for every area
 * that hands translators a bilingual file. Placeholders become the standard's own inline codes, so any
 * CAT tool shows them as codes: 1.2 `<g>` around a span, `<x/>` standalone, `<bx/>`/`<ex/>` for a
 * span whose other end is not in the segment; 2.1 `<pc>`, `<ph/>`, isolated `<sc/>`/`<ec/>`. A
 * placeholder is a code only when `tags` holds its number with its kind (as the TMX writer decides);
 * anything else is text. States as the formats-text XLIFF writer marks them (`xliff12Marks`, `xliff2Marks`).
 * Reading is the formats-text plugin's (the `xliff` format of the format registry).
 */

export interface XliffUnit {
  id: string;
  source: string;
  target?: string | null;
  /** The source's placeholders; the target's too unless `targetTags` is given (a memory numbers each side on its own). */
  tags?: Record<string, InlineTag>;
  targetTags?: Record<string, InlineTag>;
  /** The target's state; a target without one is a translator's (`translated`). */
  state?: TargetState;
  notes?: string[];
  /** A name for the unit a tool shows (1.2 `resname`, 2.1 `name`). */
  name?: string;
}

export interface XliffWriteOptions {
  version: '1.2' | '2.1';
  sourceLanguage: string;
  targetLanguage: string;
  /** The file the units came from (1.2 `original`, 2.1 `<file id>` stays `f1`). */
  original: string;
}

/** The 1.2 marks of a target written with `state`: machine and fuzzy memory output need review. */
export function xliff12Marks(state: TargetState): { state: string; qualifier?: string; approved: boolean } {
  const qualifier = state.origin === 'mt' ? 'mt-suggestion' : state.origin === 'tm' ? (state.detail === '100' ? 'leveraged-tm' : 'fuzzy-match') : undefined;
  const value = { new: 'needs-translation', draft: 'needs-review-translation', translated: 'translated', reviewed: 'translated', final: 'final' }[state.stage];
  return { state: value, ...(qualifier ? { qualifier } : {}), approved: state.stage === 'reviewed' || state.stage === 'final' };
}

/** The 2.x marks: XLIFF 2 has no "needs review" state, so machine and memory output is `translated` with a subState naming its origin. */
export function xliff2Marks(state: TargetState): { state: string; subState?: string } {
  const detail = state.detail ? `=${state.detail.trim().replace(/\s+/g, '-')}` : '';
  const subState = state.origin === 'mt' || state.origin === 'tm' ? `linguaport:${state.origin}${detail}` : undefined;
  if (state.stage === 'reviewed' || state.stage === 'final') return { state: state.stage };
  if (subState) return { state: 'translated', subState };
  return { state: state.stage === 'translated' ? 'translated' : 'initial' };
}

const attr = (s: string) => escapeXml(s).replace(/"/g, '&quot;');
// Characters XML 1.0 cannot hold at all: left out rather than written into a file no reader opens.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const text = (s: string) => escapeXml(s.replace(INVALID_XML, ''));

/** A segment's content: text escaped, placeholders as the version's inline codes. */
export function xliffInline(value: string, tags: Record<string, InlineTag> = {}, version: '1.2' | '2.1' = '1.2'): string {
  const marks = [...value.matchAll(/<(\/?)(\d+)(\/?)>/g)].filter((m) => {
    const tag = tags[m[2]!];
    return tag && !(m[1] && m[3]) && (m[3] ? tag.kind === 'standalone' : tag.kind === 'paired');
  });
  // Which opens and closes pair up, properly nested: the others are isolated ends.
  const paired = new Set<number>();
  const stack: Array<{ n: string; at: number }> = [];
  marks.forEach((m, k) => {
    if (m[3]) return;
    if (!m[1]) stack.push({ n: m[2]!, at: k });
    else {
      let top = stack.length - 1;
      while (top >= 0 && stack[top]!.n !== m[2]) top--;
      if (top === -1) return;
      // Opens above the matched one stay isolated: their spans would cross this one.
      const open = stack[top]!;
      stack.length = top;
      paired.add(open.at).add(k);
    }
  });
  const v2 = version === '2.1';
  let out = '';
  let last = 0;
  marks.forEach((m, k) => {
    out += text(value.slice(last, m.index));
    last = m.index! + m[0].length;
    const id = attr(m[2]!);
    if (m[3]) out += v2 ? `<ph id="${id}"/>` : `<x id="${id}"/>`;
    else if (paired.has(k)) out += m[1] ? (v2 ? '</pc>' : '</g>') : v2 ? `<pc id="${id}">` : `<g id="${id}">`;
    else if (m[1]) out += v2 ? `<ec id="${id}" isolated="yes"/>` : `<ex id="${id}"/>`;
    else out += v2 ? `<sc id="${id}" isolated="yes"/>` : `<bx id="${id}"/>`;
  });
  return out + text(value.slice(last));
}

function unit12(u: XliffUnit, id: string): string {
  const target = u.target ?? null;
  const marks = target !== null ? xliff12Marks(u.state ?? { stage: 'translated' }) : null;
  const approved = marks ? ` approved="${marks.approved ? 'yes' : 'no'}"` : '';
  const name = u.name ? ` resname="${attr(u.name)}"` : '';
  let xml = `      <trans-unit id="${attr(id)}"${name}${approved}>\n        <source xml:space="preserve">${xliffInline(u.source, u.tags, '1.2')}</source>\n`;
  if (marks) {
    const qualifier = marks.qualifier ? ` state-qualifier="${marks.qualifier}"` : '';
    xml += `        <target xml:space="preserve" state="${marks.state}"${qualifier}>${xliffInline(target!, u.targetTags ?? u.tags, '1.2')}</target>\n`;
  }
  for (const note of u.notes ?? []) xml += `        <note>${text(note)}</note>\n`;
  return `${xml}      </trans-unit>\n`;
}

function unit21(u: XliffUnit, id: string): string {
  const target = u.target ?? null;
  const marks = target !== null ? xliff2Marks(u.state ?? { stage: 'translated' }) : { state: 'initial' };
  const name = u.name ? ` name="${attr(u.name)}"` : '';
  let xml = `    <unit id="${attr(id)}"${name}>\n`;
  // Notes come before the segment in 2.x.
  if (u.notes?.length) xml += `      <notes>\n${u.notes.map((n) => `        <note>${text(n)}</note>\n`).join('')}      </notes>\n`;
  const sub = marks.subState ? ` subState="${attr(marks.subState)}"` : '';
  xml += `      <segment state="${marks.state}"${sub}>\n        <source xml:space="preserve">${xliffInline(u.source, u.tags, '2.1')}</source>\n`;
  if (target !== null) xml += `        <target xml:space="preserve">${xliffInline(target, u.targetTags ?? u.tags, '2.1')}</target>\n`;
  return `${xml}      </segment>\n    </unit>\n`;
}

/**
 * An XLIFF file as text pieces of about 64 KB (give it to `Readable.from` for a stream). Unit ids are
 * the units' own, made unique and valid (2.x ids are NMTOKENs: other characters become `_`).
 */
export async function* writeXliff(units: AsyncIterable<XliffUnit> | Iterable<XliffUnit>, options: XliffWriteOptions): AsyncGenerator<string> {
  const v2 = options.version === '2.1';
  const src = attr(options.sourceLanguage);
  const trg = attr(options.targetLanguage);
  let buffer = v2
    ? `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="${src}" trgLang="${trg}">\n  <file id="f1" original="${attr(options.original)}">\n`
    : `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n  <file original="${attr(options.original)}" source-language="${src}" target-language="${trg}" datatype="plaintext">\n    <body>\n`;
  const seen = new Set<string>();
  for await (const u of units) {
    let id = v2 ? u.id.replace(/[^\p{L}\p{N}._:-]/gu, '_') || 'u' : u.id || 'u';
    for (let k = 2; seen.has(id); k++) id = `${u.id}#${k}`.replace(v2 ? /[^\p{L}\p{N}._:-]/gu : /$^/, '_');
    seen.add(id);
    buffer += v2 ? unit21(u, id) : unit12(u, id);
    if (buffer.length >= 64 * 1024) {
      yield buffer;
      buffer = '';
    }
  }
  yield buffer + (v2 ? '  </file>\n</xliff>\n' : '    </body>\n  </file>\n</xliff>\n');
}
