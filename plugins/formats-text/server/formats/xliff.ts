import { escapeXml, xliff12Marks, xliff2Marks } from '@linguaport/sdk/interchange';
import type { FileFormat, InlineTag, ParsedFile, TargetStage, TargetState, TranslationUnit } from '@linguaport/sdk/shared';
import { placeholderNumbers, restoreTags, writtenState } from '@linguaport/sdk/shared';
import { decodeText, encodeText, FormatError, textOf, UnitText, type Encoding } from './text.js';
import { removeAttribute, scanXml, setAttribute, type XmlPart } from './xml-scan.js';

/**
 * XLIFF 1.2 (`file/body/trans-unit` with `source` and `target`) and XLIFF 2.0/2.1
 * (`file/unit/segment` with `source` and `target`). A unit is a trans-unit's or a segment's source;
 * a target already there is read as the unit's target, its inline codes matched to the source's
 * placeholders. Inline elements with content (`g`, `pc`, `mrk`) are paired placeholders, the others
 * (`x`, `bx`, `ex`, `ph`, `bpt`, `ept`, `it`, `sc`, `ec`, `cp`) standalone, each standing for its own
 * markup. Units under `translate="no"` and the gettext header (`restype="x-gettext-domain-header"`)
 * are skipped. Each unit carries its target's state (see `stateOf12`, `stateOf2`). Writing replaces or
 * inserts the `target` of each unit whose target (or, given anew, its state) changed, marked with the state it is written with
 * (see `mark12`, `mark2`), and sets `target-language` / `trgLang`; every other byte is kept.
 */

type XPiece =
  | string
  | { lang: string; attr: string }
  | { segment: string; unit: string }
  /** A 1.2 trans-unit's start tag, whose `approved` follows the state of the target written. */
  | { transUnit: string; unit: string }
  | { unit: string; target: { open: string; close: string; raw: string } | null; indent: string; v2: boolean };

interface Skeleton {
  encoding: Encoding;
  pieces: XPiece[];
}

type Part = { text: string } | { standalone: string } | { open: string; closing: string; pair: number } | { close: number };

// 1.2 elements whose content is native code, not text: the whole element is one placeholder.
const CODE_ELEMENTS = new Set(['ph', 'bpt', 'ept', 'it', 'sub']);
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The inline content between two tokens as text and markup. */
function contentOf(text: string, tokens: XmlPart[], from: number, to: number, v2: boolean): Part[] {
  const parts: Part[] = [];
  for (let k = from; k < to; k++) {
    const t = tokens[k]!;
    if (t.kind === 'text') parts.push({ text: t.text });
    else if (t.kind === 'other') parts.push({ standalone: text.slice(t.start, t.end) });
    else if (t.kind === 'open') {
      const raw = text.slice(t.start, t.end);
      if (t.selfClosing) {
        parts.push({ standalone: raw });
        continue;
      }
      let depth = 0;
      let close = k;
      for (; close < to; close++) {
        const c = tokens[close]!;
        if (c.kind === 'open' && !c.selfClosing) depth++;
        else if (c.kind === 'close' && --depth === 0) break;
      }
      const end = tokens[close]!;
      if (!v2 && CODE_ELEMENTS.has(local(t.name))) {
        parts.push({ standalone: text.slice(t.start, end.end) });
        k = close;
      } else parts.push({ open: raw, closing: text.slice(end.start, end.end), pair: close });
    } else parts.push({ close: k });
  }
  return parts;
}

function sourceOf(parts: Part[]): { source: string; tags: Record<string, InlineTag> } {
  const unit = new UnitText();
  const refs = new Map<number, number>();
  for (const p of parts) {
    if ('text' in p) unit.text(p.text);
    else if ('standalone' in p) unit.standalone(p.standalone);
    else if ('open' in p) refs.set(p.pair, unit.open(p.open, p.closing));
    else unit.close(refs.get(p.close)!);
  }
  return unit.build();
}

/** A target's text with the source's placeholders where its markup is the same, new ones (added to `tags`) where not. */
function targetOf(parts: Part[], source: string, tags: Record<string, InlineTag>): string {
  const next = placeholderNumbers(source + parts.map((p) => ('text' in p ? p.text : '')).join(''));
  const used = new Set<string>();
  const find = (kind: InlineTag['kind'], original: string, closing?: string) => {
    const hit = Object.keys(tags).find((n) => !used.has(n) && tags[n]!.kind === kind && tags[n]!.original === original && (kind === 'standalone' || tags[n]!.closing === closing));
    const n = hit ?? String(next());
    if (!hit) tags[n] = kind === 'paired' ? { kind, original, closing } : { kind, original };
    used.add(n);
    return n;
  };
  const pairs = new Map<number, string>();
  let out = '';
  for (const p of parts) {
    if ('text' in p) out += p.text;
    else if ('standalone' in p) out += `<${find('standalone', p.standalone)}/>`;
    else if ('open' in p) {
      const n = find('paired', p.open, p.closing);
      pairs.set(p.pair, n);
      out += `<${n}>`;
    } else out += `</${pairs.get(p.close)}>`;
  }
  return out;
}

/**
 * A 1.2 target's state from `state`, `state-qualifier` and the trans-unit's `approved`. A target with
 * no state is a translator's unless the unit says `approved="no"` (as translate-toolkit writes fuzzy
 * entries); `approved="yes"` is a reviewer's pass, so a `needs-*` state under it counts as translated.
 */
export function stateOf12(hasTarget: boolean, approved: string | undefined, state: string | undefined, qualifier: string | undefined): TargetState {
  const native = [state, approved === 'yes' ? 'approved' : undefined].filter(Boolean).join(' ') || undefined;
  const origin: TargetState['origin'] = qualifier === 'mt-suggestion' ? 'mt' : qualifier && /match|leveraged|tm-suggestion/.test(qualifier) ? 'tm' : undefined;
  const extra: Omit<TargetState, 'stage'> = { ...(native ? { native } : {}), ...(origin ? { origin } : {}), ...(origin === 'tm' ? { detail: /exact|leveraged-tm|id-match/.test(qualifier!) ? '100' : 'fuzzy' } : {}) };
  if (!hasTarget) return { stage: 'new', ...extra };
  let stage: TargetStage;
  if (state === 'final' || state === 'signed-off') stage = 'final';
  else if (state === 'new' || state?.startsWith('needs-')) stage = approved === 'yes' ? 'translated' : 'draft';
  else if (state === undefined && approved === 'no') stage = 'draft';
  else stage = approved === 'yes' ? 'reviewed' : 'translated';
  return { stage, ...extra };
}

/** A 2.x segment's state: `initial` (the default) with a target is a draft; our own unreviewed output (subState `linguaport:mt`, a fuzzy `linguaport:tm`) too. */
export function stateOf2(hasTarget: boolean, state: string | undefined, subState: string | undefined): TargetState {
  const native = state ?? 'initial';
  const mine = /^linguaport:(mt|tm)(?:=(.*))?$/.exec(subState ?? '');
  const extra = { native, ...(mine ? { origin: mine[1] as 'mt' | 'tm', ...(mine[2] ? { detail: mine[2] } : {}) } : {}) };
  if (!hasTarget) return { stage: 'new', ...extra };
  const stage: TargetStage = state === 'final' ? 'final' : state === 'reviewed' ? 'reviewed' : state === 'translated' ? 'translated' : 'draft';
  if (stage === 'translated' && mine && !(mine[1] === 'tm' && mine[2] === '100')) return { stage: 'draft', ...extra };
  return { stage, ...extra };
}

// Written states: the SDK's marks, the same the XLIFF exports of documents and memories write.
const mark12 = xliff12Marks;
const mark2 = xliff2Marks;

interface OpenUnit {
  id: string;
  translate: boolean;
  /** 1.2: the trans-unit's start tag (its token) and `approved`. */
  open: number;
  approved?: string;
  header: boolean;
  notes: string[];
  resname?: string;
  segments: Array<{ id?: string; open?: number; state?: string; subState?: string; source?: [number, number]; target?: [number, number]; after?: number }>;
}

export const xliffFormat: FileFormat = {
  id: 'xliff',
  name: 'XLIFF',
  extensions: ['xlf', 'xliff'],
  mimeTypes: ['application/xliff+xml', 'application/x-xliff+xml'],
  sniff(bytes) {
    const text = textOf(bytes);
    return text !== null && /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<(?:\w+:)?xliff[\s>]/.test(text);
  },
  async validate(bytes) {
    await xliffFormat.parse(bytes);
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'xliff');
    const declared = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
    if (declared && !/^(utf-?8|us-ascii|ascii|utf-?16(le|be)?)$/i.test(declared)) throw new FormatError('xliff', `the file declares the encoding ${declared}; only UTF-8 and UTF-16 are read`);
    const tokens = scanXml(text, 'xliff');
    const root = tokens.find((t) => t.kind === 'open') as Extract<XmlPart, { kind: 'open' }>;
    if (local(root.name) !== 'xliff') throw new FormatError('xliff', `the root element is <${root.name}>, not <xliff>`);
    const v2 = /^2\./.test(root.attrs.version ?? '');
    const parsed: ParsedFile = { format: 'xliff', units: [], skeleton: null };
    const edits: Array<{ start: number; end: number; piece: XPiece }> = [];
    if (v2) {
      if (root.attrs.srcLang) parsed.sourceLanguage = root.attrs.srcLang;
      if (root.attrs.trgLang) parsed.targetLanguage = root.attrs.trgLang;
      edits.push({ start: root.start, end: root.end, piece: { lang: text.slice(root.start, root.end), attr: 'trgLang' } });
    }
    const ids = new Set<string>();
    const path: Array<{ name: string; translate: boolean }> = [];
    let unit: OpenUnit | null = null;
    let file = '';
    const unitName = v2 ? 'unit' : 'trans-unit';
    const finish = (u: OpenUnit) => {
      u.segments.forEach((seg, k) => {
        if (!seg.source) return;
        const parts = contentOf(text, tokens, seg.source[0] + 1, seg.source[1], v2);
        const { source, tags } = sourceOf(parts);
        if (!source.replace(/<\/?\d+\/?>/g, '').trim() && !seg.target) return;
        const base = v2 && u.segments.length > 1 ? `${u.id}/${seg.id ?? k + 1}` : u.id;
        let id = base;
        for (let n = 2; ids.has(id); n++) id = `${base}#${n}`;
        ids.add(id);
        let target: string | undefined;
        if (seg.target) {
          const t = targetOf(contentOf(text, tokens, seg.target[0] + 1, seg.target[1], v2), source, tags);
          if (t !== '') target = t;
        }
        const open = seg.target ? (tokens[seg.target[0]] as Extract<XmlPart, { kind: 'open' }>) : null;
        const close = seg.target ? tokens[seg.target[1]]! : null;
        const before = tokens[seg.source[0] - 1];
        const indent = before?.kind === 'text' && !before.text.trim() ? text.slice(before.start, before.end) : '';
        const targetPiece: XPiece = {
          unit: id,
          target: open ? { open: text.slice(open.start, open.end), close: open.selfClosing ? '' : text.slice(close!.start, close!.end), raw: text.slice(open.start, (open.selfClosing ? open : close!).end) } : null,
          indent,
          v2,
        };
        if (open) edits.push({ start: open.start, end: (open.selfClosing ? open : close!).end, piece: targetPiece });
        else edits.push({ start: seg.after!, end: seg.after!, piece: targetPiece });
        if (v2 && seg.open !== undefined) {
          const s = tokens[seg.open]!;
          edits.push({ start: s.start, end: s.end, piece: { segment: text.slice(s.start, s.end), unit: id } });
        } else if (!v2) {
          const s = tokens[u.open]!;
          edits.push({ start: s.start, end: s.end, piece: { transUnit: text.slice(s.start, s.end), unit: id } });
        }
        const state = v2 ? stateOf2(target !== undefined, seg.state, seg.subState) : stateOf12(target !== undefined, u.approved, open?.attrs.state, open?.attrs['state-qualifier']);
        const context: TranslationUnit['context'] = { position: parsed.units.length + 1 };
        if (file) context.part = file;
        if (u.resname) context.style = u.resname;
        if (u.notes.length) context.note = u.notes.join('\n');
        parsed.units.push({ id, source, ...(target !== undefined ? { target } : {}), state, tags, context });
      });
    };
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      if (t.kind === 'open') {
        const name = local(t.name);
        const parent = path[path.length - 1];
        const inherited = parent?.translate ?? true;
        const translate = t.attrs.translate === 'no' ? false : t.attrs.translate === 'yes' ? true : inherited;
        if (name === 'file') {
          file = (v2 ? t.attrs.id : t.attrs.original) ?? '';
          if (!v2) {
            parsed.sourceLanguage ??= t.attrs['source-language'];
            if (t.attrs['target-language']) parsed.targetLanguage ??= t.attrs['target-language'];
            edits.push({ start: t.start, end: t.end, piece: { lang: text.slice(t.start, t.end), attr: 'target-language' } });
          }
        } else if (name === unitName) {
          unit = {
            id: t.attrs.id ?? String(parsed.units.length + 1),
            translate,
            open: k,
            ...(t.attrs.approved ? { approved: t.attrs.approved } : {}),
            // translate-toolkit's po2xliff keeps the PO header as a unit: it is the catalogue's, not text.
            header: t.attrs.restype === 'x-gettext-domain-header',
            notes: [],
            ...(t.attrs.resname ? { resname: t.attrs.resname } : {}),
            segments: v2 ? [] : [{}],
          };
        } else if (unit && v2 && name === 'segment' && parent?.name === 'unit') {
          unit.segments.push({ ...(t.attrs.id ? { id: t.attrs.id } : {}), ...(t.attrs.state ? { state: t.attrs.state } : {}), ...(t.attrs.subState ? { subState: t.attrs.subState } : {}), open: k });
        } else if (unit && (name === 'source' || name === 'target' || name === 'seg-source') && parent?.name === (v2 ? 'segment' : 'trans-unit')) {
          const seg = unit.segments[unit.segments.length - 1]!;
          let close = k;
          if (!t.selfClosing) {
            let depth = 0;
            for (; close < tokens.length; close++) {
              const c = tokens[close]!;
              if (c.kind === 'open' && !c.selfClosing) depth++;
              else if (c.kind === 'close' && --depth === 0) break;
            }
          }
          if (name === 'source' && !seg.source) {
            seg.source = [k, close];
            seg.after = tokens[close]!.end;
          } else if (name === 'seg-source') seg.after = Math.max(seg.after ?? 0, tokens[close]!.end);
          else if (name === 'target' && !seg.target) seg.target = [k, close];
          if (!t.selfClosing) {
            k = close;
            continue;
          }
        } else if (unit && name === 'note') {
          let close = k + 1;
          let note = '';
          for (; close < tokens.length && !(tokens[close]!.kind === 'close' && local((tokens[close] as { name: string }).name) === 'note'); close++) {
            const c = tokens[close]!;
            if (c.kind === 'text') note += c.text;
          }
          if (!t.selfClosing && note.trim()) unit.notes.push(note.trim());
        }
        if (!t.selfClosing) path.push({ name, translate });
      } else if (t.kind === 'close') {
        const name = local(t.name);
        path.pop();
        if (name === unitName && unit) {
          if (unit.translate && !unit.header) finish(unit);
          unit = null;
        }
      }
    }
    edits.sort((a, b) => a.start - b.start);
    const pieces: XPiece[] = [];
    let last = 0;
    for (const e of edits) {
      pieces.push(text.slice(last, e.start), e.piece);
      last = e.end;
    }
    pieces.push(text.slice(last));
    parsed.skeleton = { encoding, pieces } satisfies Skeleton;
    return parsed;
  },
  async write(file, units, options) {
    const skeleton = file.skeleton as Skeleton;
    const read = new Map(file.units.map((u) => [u.id, u]));
    const given = new Map(units.map((u) => [u.id, u]));
    const changed = (id: string) => {
      const unit = given.get(id);
      if (unit?.target === undefined) return false;
      const before = read.get(id)!;
      // A new state for the same text (a CAT segment confirmed as it stood) is a change too.
      return unit.target !== before.target || (unit.state !== undefined && writtenState(unit, before) === unit.state);
    };
    const stateOf = (id: string) => writtenState(given.get(id)!, read.get(id)!);
    const attr = (s: string) => escapeXml(s, true);
    let out = '';
    for (const piece of skeleton.pieces) {
      if (typeof piece === 'string') out += piece;
      else if ('lang' in piece) out += options?.targetLanguage ? setAttribute(piece.lang, piece.attr, options.targetLanguage, (s) => escapeXml(s, true)) : piece.lang;
      else if ('segment' in piece) {
        if (!changed(piece.unit)) {
          out += piece.segment;
          continue;
        }
        const mark = mark2(stateOf(piece.unit));
        const tag = setAttribute(piece.segment, 'state', mark.state, attr);
        out += mark.subState ? setAttribute(tag, 'subState', mark.subState, attr) : removeAttribute(tag, 'subState');
      } else if ('transUnit' in piece) {
        const had = /\sapproved\s*=/.test(piece.transUnit);
        // Only a reviewed or final target is approved; a unit that said so loses it when its target is replaced.
        if (!changed(piece.unit)) out += piece.transUnit;
        else if (mark12(stateOf(piece.unit)).approved) out += setAttribute(piece.transUnit, 'approved', 'yes', attr);
        else out += had ? setAttribute(piece.transUnit, 'approved', 'no', attr) : piece.transUnit;
      } else {
        const unit = given.get(piece.unit) ?? read.get(piece.unit)!;
        if (!changed(piece.unit)) {
          // Unchanged: the target element as it was (the edit covered it), or nothing where there was none.
          out += piece.target?.raw ?? '';
          continue;
        }
        const content = restoreTags(unit.target!, unit.tags, (s) => escapeXml(s));
        const mark = mark12(stateOf(piece.unit));
        // 1.2 marks the target itself; 2.x marks the segment (above).
        const marked = (open: string) => {
          if (piece.v2) return open;
          const withState = setAttribute(open, 'state', mark.state, attr);
          return mark.qualifier ? setAttribute(withState, 'state-qualifier', mark.qualifier, attr) : removeAttribute(withState, 'state-qualifier');
        };
        if (piece.target) {
          let open = marked(piece.target.open);
          if (open.endsWith('/>')) open = open.slice(0, -2).replace(/\s+$/, '') + '>';
          const name = /^<([^\s/>]+)/.exec(open)![1];
          out += `${open}${content}${piece.target.close || `</${name}>`}`;
        } else out += `${piece.indent}${marked('<target>')}${content}</target>`;
      }
    }
    return encodeText(out, skeleton.encoding);
  },
};

