import type { FileFormat, InlineTag, ParsedFile, TargetState, TranslationUnit } from '@linguaport/sdk/shared';
import { placeholderNumbers, restoreTags, writtenState } from '@linguaport/sdk/shared';
import { CODE_PLACEHOLDER, decodeText, encodeText, FormatError, linesOf, textOf, type Encoding, type Line } from './text.js';

/**
 * Gettext PO and POT catalogues. Each entry's msgid is a unit's source and a non-empty msgstr its
 * target; an entry with plural forms gives one unit per msgstr[n] (`7[0]`, `7[1]` …), the first with
 * msgid as source, the others with msgid_plural. The header entry (msgid "") is no unit: it is kept,
 * and its `Language:` field set when a target language is given. Comments, flags, references,
 * previous strings and obsolete `#~` entries are kept as they are. Strings are read with their C
 * escapes decoded; a unit written with a changed target gets a new msgstr (escaped and wrapped as
 * gettext does), every other line keeps its bytes. States: an empty msgstr is `new`, a `fuzzy` entry
 * `draft`, any other `translated`; an entry written afresh (a changed target, or the same target
 * given in a new state) is `#, fuzzy` when one of its forms is a draft (machine output, a fuzzy
 * memory match) and loses the flag otherwise. printf, ICU and
 * template placeholders are standalone placeholders, shared by source and target.
 */

type PoPiece =
  | string
  | { msgstr: string; keyword: string; raw: string; end: string; entry: number }
  /** The entry's `#,` line; `flags: ''` marks where one goes in an entry that has none. */
  | { flags: string; end: string; entry: number }
  | { header: string; end: string };

interface Skeleton {
  encoding: Encoding;
  pieces: PoPiece[];
  eol: string;
}

interface Field {
  keyword: string;
  value: string;
  first: number;
  last: number;
}

interface Entry {
  lines: number[];
  comments: Array<{ at: number; body: string }>;
  fields: Field[];
}

const KEYWORD = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]*(".*)$/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v', '?': '?', "'": "'" };

function unquote(text: string, line: number): string {
  const m = /^"((?:[^"\\]|\\.)*)"[ \t]*$/.exec(text.trim());
  if (!m) throw new FormatError('po', `line ${line}: ${JSON.stringify(text.slice(0, 40))} is not a closed string ("…")`);
  return m[1]!.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (whole, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ESCAPES[e] ?? e;
  });
}

function escapeC(text: string): string {
  return text.replace(/[\\"\n\t\r\x00-\x1f\x7f]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\';
      case '"':
        return '\\"';
      case '\n':
        return '\\n';
      case '\t':
        return '\\t';
      case '\r':
        return '\\r';
      default:
        return `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
    }
  });
}

/** A keyword with its string as gettext writes it: one line when short, else `""` and lines broken after each `\n` and at spaces. */
export function poString(keyword: string, value: string, eol: string, end: string, width = 79): string {
  const single = `${keyword} "${escapeC(value)}"`;
  const chunks = value.split(/(?<=\n)/).filter((c) => c !== '');
  if (chunks.length <= 1 && single.length <= width) return single + end;
  const lines = [`${keyword} ""`];
  for (const chunk of chunks) {
    let line = '';
    // Escaped words with their spaces: a break after a space never splits an escape.
    for (const word of escapeC(chunk).split(/(?<= )/)) {
      if (line && line.length + word.length + 2 > width) {
        lines.push(`"${line}"`);
        line = '';
      }
      line += word;
    }
    lines.push(`"${line}"`);
  }
  return lines.join(eol) + end;
}

/** A unit's source (and target) with code placeholders as standalone placeholders that both share. */
function placeholderUnit(sourceText: string, targetText: string | undefined): { source: string; target?: string; tags: Record<string, InlineTag> } {
  // Numbers from the source alone, so a unit reads the same whatever target the file holds.
  const next = placeholderNumbers(sourceText);
  const tags: Record<string, InlineTag> = {};
  const byOriginal = new Map<string, number[]>();
  const source = sourceText.replace(CODE_PLACEHOLDER, (m) => {
    const n = next();
    tags[n] = { kind: 'standalone', original: m };
    byOriginal.set(m, [...(byOriginal.get(m) ?? []), n]);
    return `<${n}/>`;
  });
  if (targetText === undefined) return { source, tags };
  const target = targetText.replace(CODE_PLACEHOLDER, (m) => {
    let n = byOriginal.get(m)?.shift();
    if (n === undefined) {
      n = next();
      tags[n] = { kind: 'standalone', original: m };
    }
    return `<${n}/>`;
  });
  return { source, target, tags };
}

/** The fields and comments of the entries, in order, with the lines between them. */
function entriesOf(lines: Line[]): Array<Entry | number> {
  const out: Array<Entry | number> = [];
  let entry: Entry | null = null;
  const flush = () => {
    if (!entry) return;
    if (entry.fields.length) {
      const keywords = entry.fields.map((f) => f.keyword);
      const at = entry.fields[0]!.first + 1;
      if (!keywords.includes('msgid')) throw new FormatError('po', `the entry at line ${at} has no msgid`);
      if (!keywords.some((k) => k.startsWith('msgstr'))) throw new FormatError('po', `the entry at line ${at} has a msgid but no msgstr (is the file truncated?)`);
      if (keywords.includes('msgid_plural') !== keywords.some((k) => k.startsWith('msgstr['))) throw new FormatError('po', `the entry at line ${at} mixes plural and singular forms`);
    }
    out.push(entry);
    entry = null;
  };
  lines.forEach((line, i) => {
    const body = line.body.trim();
    if (!body) {
      flush();
      out.push(i);
      return;
    }
    if (body.startsWith('#')) {
      if (entry?.fields.length) flush();
      entry ??= { lines: [], comments: [], fields: [] };
      entry.lines.push(i);
      entry.comments.push({ at: i, body });
      return;
    }
    const keyword = KEYWORD.exec(body);
    if (keyword) {
      const name = keyword[1]!;
      const hasMsgstr = entry?.fields.some((f) => f.keyword.startsWith('msgstr'));
      if (hasMsgstr && (name === 'msgctxt' || name === 'msgid')) flush();
      entry ??= { lines: [], comments: [], fields: [] };
      if (entry.fields.some((f) => f.keyword === name)) throw new FormatError('po', `line ${i + 1}: a second ${name} in one entry`);
      entry.lines.push(i);
      entry.fields.push({ keyword: name, value: unquote(keyword[2]!, i + 1), first: i, last: i });
      return;
    }
    if (body.startsWith('"') && entry?.fields.length) {
      const field = entry.fields[entry.fields.length - 1]!;
      if (field.last !== i - 1) throw new FormatError('po', `line ${i + 1}: a string continues a field it does not follow`);
      field.value += unquote(body, i + 1);
      field.last = i;
      entry.lines.push(i);
      return;
    }
    throw new FormatError('po', `line ${i + 1}: ${JSON.stringify(body.slice(0, 40))} is not a keyword, a string or a comment of a PO file`);
  });
  flush();
  return out;
}

function headerField(header: string, name: string): string | undefined {
  return new RegExp(`^${name}:[ \\t]*(.*?)[ \\t]*$`, 'mi').exec(header)?.[1] || undefined;
}

/** The header's msgstr lines with `Language:` set (in place where it is a line of its own). */
function withLanguage(raw: string, language: string, eol: string, end: string): string {
  const value = unquote(raw.replace(/^msgstr[ \t]*/, '').replace(/"[ \t]*(?:\r\n|\r|\n)[ \t]*"/g, ''), 1);
  if (headerField(value, 'Language') === language) return raw;
  const line = /^([ \t]*)"Language:[^"\\]*\\n"[ \t]*(?=\r?$)/m;
  if (line.test(raw)) return raw.replace(line, `$1"Language: ${escapeC(language)}\\n"`);
  const lines = value.split(/(?<=\n)/).filter((l) => !/^Language:/i.test(l));
  const after = lines.findIndex((l) => /^Language-Team:/i.test(l));
  lines.splice(after === -1 ? lines.length : after + 1, 0, `Language: ${language}\n`);
  return poString('msgstr', lines.join(''), eol, end, Infinity).replace(/^msgstr "(.+)"/, 'msgstr ""' + eol + '"$1"');
}

export const poFormat: FileFormat = {
  id: 'po',
  name: 'Gettext PO',
  extensions: ['po', 'pot'],
  mimeTypes: ['text/x-gettext-translation', 'text/x-po', 'application/x-gettext'],
  sniff(bytes) {
    const text = textOf(bytes);
    if (text === null) return false;
    return /^\uFEFF?(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*[ \t]*(?:msgctxt|msgid)[ \t]+"/.test(text);
  },
  async validate(bytes) {
    await poFormat.parse(bytes);
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'po');
    const lines = linesOf(text);
    const eol = lines.find((l) => l.end)?.end ?? '\n';
    const rawOf = (from: number, to: number) => lines.slice(from, to + 1).map((l) => l.body + l.end).join('');
    const pieces: PoPiece[] = [];
    const units: TranslationUnit[] = [];
    let header: string | undefined;
    let entries = 0;
    for (const item of entriesOf(lines)) {
      if (typeof item === 'number') {
        pieces.push(rawOf(item, item));
        continue;
      }
      const field = (name: string) => item.fields.find((f) => f.keyword === name);
      const msgid = field('msgid');
      if (!msgid) {
        for (const at of item.lines) pieces.push(rawOf(at, at));
        continue;
      }
      const isHeader = msgid.value === '' && !field('msgctxt') && header === undefined && units.length === 0;
      const entry = ++entries;
      let flagged = false;
      for (let k = 0; k < item.lines.length; k++) {
        const at = item.lines[k]!;
        const f = item.fields.find((x) => x.first === at);
        if (f?.keyword.startsWith('msgstr')) {
          const raw = rawOf(f.first, f.last);
          const end = lines[f.last]!.end;
          if (isHeader) pieces.push({ header: raw, end });
          else pieces.push({ msgstr: f.keyword === 'msgstr' ? String(entry) : `${entry}${f.keyword.slice(6)}`, keyword: f.keyword, raw, end, entry });
          k += f.last - f.first;
        } else if (!flagged && lines[at]!.body.startsWith('#,')) {
          flagged = true;
          pieces.push({ flags: lines[at]!.body, end: lines[at]!.end, entry });
        } else {
          // Where gettext puts a flags line: after the other comments, before `#|` and the fields.
          if (!flagged && !isHeader && (f || lines[at]!.body.startsWith('#|'))) {
            flagged = true;
            pieces.push({ flags: '', end: eol, entry });
          }
          pieces.push(f ? rawOf(f.first, f.last) : rawOf(at, at));
          if (f) k += f.last - f.first;
        }
      }
      if (isHeader) {
        header = field('msgstr')?.value ?? '';
        entries--;
        continue;
      }
      const comments = (prefix: RegExp) => item.comments.filter((c) => prefix.test(c.body)).map((c) => c.body.replace(prefix, '').replace(/^ /, ''));
      const note = [...comments(/^#\.|^#(?=[ \t]|$)/)].join('\n');
      const references = comments(/^#:/).join(' ');
      const flags = comments(/^#,/).join(', ').trim();
      const fuzzy = flags.split(',').some((f) => f.trim() === 'fuzzy');
      const meta: Record<string, string> = {};
      const msgctxt = field('msgctxt');
      if (msgctxt) meta.msgctxt = msgctxt.value;
      if (flags) meta.flags = flags;
      const context = { ...(references ? { part: references } : {}), ...(note ? { note } : {}) };
      const forms = item.fields.filter((f) => f.keyword.startsWith('msgstr'));
      for (const form of forms) {
        const plural = form.keyword !== 'msgstr';
        const index = plural ? Number(form.keyword.slice(7, -1)) : 0;
        const sourceText = index > 0 ? field('msgid_plural')!.value : msgid.value;
        const { source, target, tags } = placeholderUnit(sourceText, form.value === '' ? undefined : form.value);
        const id = plural ? `${entry}[${index}]` : String(entry);
        const state: TargetState = target === undefined ? { stage: 'new' } : fuzzy ? { stage: 'draft', native: 'fuzzy' } : { stage: 'translated', native: 'translated' };
        units.push({
          id,
          source,
          ...(target !== undefined ? { target } : {}),
          state,
          tags,
          context: { ...context, position: units.length + 1, meta: plural ? { ...meta, plural: String(index) } : { ...meta } },
        });
      }
    }
    const parsed: ParsedFile = { format: 'po', units, skeleton: { encoding, pieces, eol } satisfies Skeleton };
    const language = header === undefined ? undefined : headerField(header, 'Language');
    const sourceLanguage = header === undefined ? undefined : headerField(header, 'X-Source-Language');
    if (language) parsed.targetLanguage = language;
    if (sourceLanguage) parsed.sourceLanguage = sourceLanguage;
    return parsed;
  },
  async write(file, units, options) {
    const skeleton = file.skeleton as Skeleton;
    const read = new Map(file.units.map((u) => [u.id, u]));
    const given = new Map(units.map((u) => [u.id, u]));
    // A unit gets a new msgstr when it comes with a target other than the one the file holds.
    const changed = (id: string) => {
      const unit = given.get(id);
      return unit?.target !== undefined && unit.target !== read.get(id)!.target;
    };
    // Its entry's flags are written afresh then, and also when it comes with the same target in a new
    // state (a CAT segment confirmed as it stood must lose `fuzzy`), as the XLIFF writer does.
    const restated = (id: string) => {
      const unit = given.get(id);
      if (unit?.target === undefined) return false;
      return changed(id) || (unit.state !== undefined && writtenState(unit, read.get(id)!) === unit.state);
    };
    const changedEntries = new Set<number>();
    // An entry written afresh is fuzzy when any of its forms is a draft: machine output is marked for review.
    const draftEntries = new Set<number>();
    for (const piece of skeleton.pieces) {
      if (typeof piece !== 'object' || !('msgstr' in piece)) continue;
      const now = restated(piece.msgstr) ? writtenState(given.get(piece.msgstr)!, read.get(piece.msgstr)!) : read.get(piece.msgstr)!.state;
      if (restated(piece.msgstr)) changedEntries.add(piece.entry);
      if (now?.stage === 'draft') draftEntries.add(piece.entry);
    }
    let out = '';
    for (const piece of skeleton.pieces) {
      if (typeof piece === 'string') out += piece;
      else if ('header' in piece) out += options?.targetLanguage ? withLanguage(piece.header, options.targetLanguage, skeleton.eol, piece.end) : piece.header;
      else if ('flags' in piece) {
        if (!changedEntries.has(piece.entry)) {
          if (piece.flags) out += piece.flags + piece.end;
          continue;
        }
        const flags = piece.flags.replace(/^#,/, '').split(',').map((f) => f.trim()).filter((f) => f);
        const kept = flags.filter((f) => f !== 'fuzzy');
        if (draftEntries.has(piece.entry)) kept.unshift('fuzzy');
        // The same flags keep the line's own bytes.
        if (kept.join(',') === flags.join(',')) out += piece.flags ? piece.flags + piece.end : '';
        else if (kept.length) out += `#, ${kept.join(', ')}${piece.end}`;
      } else if (!changed(piece.msgstr)) out += piece.raw;
      else {
        const unit = given.get(piece.msgstr)!;
        out += poString(piece.keyword, restoreTags(unit.target!, unit.tags), skeleton.eol, piece.end);
      }
    }
    return encodeText(out, skeleton.encoding);
  },
};
