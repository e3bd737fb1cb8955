import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { decodeText, encodeText, FormatError, linesOf, textOf, UnitText, writePieces, type Encoding, type Piece } from './text.js';

/**
 * Markdown (CommonMark with GitHub tables and strikethrough). A unit is a block's text: a
 * paragraph (its line breaks as standalone placeholders holding the next line's `>` or indentation),
 * a heading, a list item's paragraph, a table cell, a blockquote's paragraph. Front matter, fenced and
 * indented code, HTML blocks, link reference definitions and thematic breaks are kept as they are.
 * Inline: `**strong**`, `*em*`, `~~del~~` and links (`[` … `](url)`) are paired placeholders, code
 * spans, images, autolinks and inline HTML standalone. Backslash escapes stay in the text as written.
 */

interface Skeleton {
  encoding: Encoding;
  pieces: Piece[];
}

interface MdLine {
  prefix: string;
  body: string;
  end: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})/;
const ATX = /^( {0,3}#{1,6})(?:([ \t]+)(.*?))?((?:[ \t]+#+)?[ \t]*)$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+(?:\[[ xX]\][ \t]+)?|$)/;
const QUOTE = /^ {0,3}> ?/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const REFERENCE_DEF = /^ {0,3}\[[^\]]+\]:/;
const HTML_BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const HTML_BLOCK = new RegExp(String.raw`^ {0,3}(?:<(?:script|pre|style|textarea)(?:\s|>|$)|<!--|<\?|<![A-Za-z]|<!\[CDATA\[|</?(?:${HTML_BLOCK_TAGS})(?:\s|/?>|$))`, 'i');
const HTML_TAG_LINE = /^ {0,3}(?:<[A-Za-z][\w-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>|<\/[A-Za-z][\w-]*\s*>)[ \t]*$/;
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const PUNCTUATION = /[!-/:-@[-`{-~]/;

const blank = (l: MdLine) => l.body.trim() === '';
const indentOf = (s: string) => /^[ \t]*/.exec(s)![0].replace(/\t/g, '    ').length;

/** Whether a line begins a block that ends a paragraph before it. */
function interrupts(body: string): boolean {
  if (ATX.test(body) && /^ {0,3}#{1,6}(?:[ \t]|$)/.test(body)) return true;
  if (FENCE.test(body) || QUOTE.test(body) || HR.test(body)) return true;
  const item = BULLET.exec(body);
  if (item && body.slice(item[0].length).trim() && (!/\d/.test(item[2]!) || /^1[.)]$/.test(item[2]!))) return true;
  return HTML_BLOCK.test(body) && !HTML_TAG_LINE.test(body);
}

/** Inline content of a unit, each `\n` in it standing for the next line break of the block. */
class Inline {
  private breakAt = 0;
  constructor(
    readonly unit: UnitText,
    private readonly breaks: string[],
  ) {}

  private lines(s: string): string {
    return s.replace(/\n/g, () => this.breaks[this.breakAt++] ?? '\n');
  }

  text(s: string): void {
    const parts = s.split('\n');
    parts.forEach((p, i) => {
      if (i > 0) this.unit.standalone(this.breaks[this.breakAt++] ?? '\n');
      this.unit.text(p);
    });
  }

  standalone(s: string): void {
    this.unit.standalone(this.lines(s));
  }

  open(s: string): number {
    return this.unit.open(this.lines(s));
  }

  close(ref: number, s: string): void {
    this.unit.close(ref, this.lines(s));
  }
}

/**
 * Code spans and bracket pairs of a unit's text, found in one pass, so inline parsing looks them up
 * instead of searching (a line of a thousand unmatched `[` or `*` stays linear).
 */
class Scan {
  readonly code = new Map<number, number>();
  readonly pairs = new Map<number, number>();

  constructor(readonly s: string) {
    // Backtick runs: each closes at the next run of the same length.
    const runs: Array<[number, number]> = [];
    for (let i = 0; i < s.length; ) {
      if (s[i] !== '`') {
        i++;
        continue;
      }
      let n = 0;
      while (s[i + n] === '`') n++;
      runs.push([i, n]);
      i += n;
    }
    const nextOfLength = new Map<number, number>();
    for (let r = runs.length - 1; r >= 0; r--) {
      const [at, n] = runs[r]!;
      const close = nextOfLength.get(n);
      if (close !== undefined) this.code.set(at, close + n);
      nextOfLength.set(n, at);
    }
    const stacks: Record<string, number[]> = { '[': [], '(': [] };
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      if (c === '\\') i++;
      else if (c === '`') {
        const end = this.code.get(i);
        if (end !== undefined) i = end - 1;
        else while (s[i + 1] === '`') i++;
      } else if (c === '[' || c === '(') stacks[c]!.push(i);
      else if (c === ']' || c === ')') {
        const open = stacks[c === ']' ? '[' : '(']!.pop();
        if (open !== undefined) this.pairs.set(open, i);
      }
    }
  }

  codeEnd(i: number, to: number): number {
    const end = this.code.get(i);
    return end !== undefined && end <= to ? end : -1;
  }

  closing(i: number, to: number): number {
    const end = this.pairs.get(i);
    return end !== undefined && end < to ? end : -1;
  }
}

// How far emphasis looks for its closing delimiter: far enough for any real span, and the bound that
// keeps a line of unmatched openers linear.
const EMPHASIS_REACH = 4000;

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Where a run of `delim` closes emphasis opened before `from`, or -1. */
function closingDelimiter(scan: Scan, from: number, to: number, delim: string): number {
  const s = scan.s;
  const c = delim[0]!;
  const reach = Math.min(to, from + EMPHASIS_REACH);
  for (let j = from; j < reach; j++) {
    const x = s[j];
    if (x === '\\') {
      j++;
      continue;
    }
    if (x === '`') {
      const end = scan.codeEnd(j, to);
      if (end !== -1) j = end - 1;
      else while (s[j + 1] === '`') j++;
      continue;
    }
    if (x === '[') {
      const end = scan.closing(j, to);
      if (end !== -1) j = end;
      continue;
    }
    if (x !== c) continue;
    let run = 0;
    while (s[j + run] === c) run++;
    if (j === from || isSpace(s[j - 1]) || run < delim.length) {
      j += run - 1;
      continue;
    }
    // The closing delimiter is the last of its run (`***` closes `**` with its last two).
    const at = j + run - delim.length;
    if (at + delim.length > to) return -1;
    if (c === '_' && isWord(s[at + delim.length])) {
      j += run - 1;
      continue;
    }
    if (delim.length === 1 && run === 2) {
      j += run - 1;
      continue;
    }
    return at;
  }
  return -1;
}

function parseInline(out: Inline, scan: Scan, from: number, to: number): void {
  const s = scan.s;
  let i = from;
  let textStart = from;
  const emit = (upTo: number) => {
    if (upTo > textStart) out.text(s.slice(textStart, upTo));
  };
  while (i < to) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < to && PUNCTUATION.test(s[i + 1]!)) {
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = scan.codeEnd(i, to);
      if (end === -1) {
        while (s[i] === '`') i++;
        continue;
      }
      emit(i);
      out.standalone(s.slice(i, end));
      i = textStart = end;
      continue;
    }
    if (c === '<') {
      const m = /^(?:<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?>|<\/?[A-Za-z][\w-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>|<!--[\s\S]*?-->)/.exec(s.slice(i, to));
      if (m) {
        emit(i);
        out.standalone(m[0]);
        i = textStart = i + m[0].length;
        continue;
      }
    }
    if (c === '[' || (c === '!' && s[i + 1] === '[')) {
      const open = c === '!' ? i + 1 : i;
      const close = scan.closing(open, to);
      let end = -1;
      if (close !== -1 && (s[close + 1] === '(' || s[close + 1] === '[')) end = scan.closing(close + 1, to);
      if (end !== -1 && end < to) {
        emit(i);
        if (c === '!') out.standalone(s.slice(i, end + 1));
        else {
          const ref = out.open('[');
          textStart = i + 1;
          parseInline(out, scan, i + 1, close);
          out.close(ref, s.slice(close, end + 1));
        }
        i = textStart = end + 1;
        continue;
      }
    }
    if (c === '*' || c === '_' || c === '~') {
      let run = 0;
      while (s[i + run] === c) run++;
      const size = c === '~' ? (run === 2 ? 2 : 0) : Math.min(run, 2);
      const after = s[i + run];
      const leftFlanking = !isSpace(after) && !(c === '_' && isWord(s[i - 1]));
      if (size && leftFlanking) {
        const delim = c.repeat(size);
        const start = i + run - size;
        const close = closingDelimiter(scan, i + run, to, delim);
        if (close !== -1) {
          emit(start);
          const ref = out.open(delim);
          parseInline(out, scan, start + size, close);
          out.close(ref, delim);
          i = textStart = close + size;
          continue;
        }
      }
      i += run;
      continue;
    }
    i++;
  }
  emit(to);
}

/** A unit from lines of one block: text joined with line breaks, prefixes and indentation in the breaks. */
function blockUnit(lines: MdLine[], spans: Array<[number, number]>): { head: string; unit: UnitText; raw: string; tail: string } {
  const parts = lines.map((l, i) => {
    const [start, end] = spans[i]!;
    return { lead: l.body.slice(0, start), content: l.body.slice(start, end), trail: l.body.slice(end) };
  });
  const breaks: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) breaks.push(parts[i]!.trail + lines[i]!.end + lines[i + 1]!.prefix + parts[i + 1]!.lead);
  const unit = new UnitText();
  const flat = parts.map((p) => p.content).join('\n');
  parseInline(new Inline(unit, breaks), new Scan(flat), 0, flat.length);
  let raw = parts[0]!.content;
  for (let i = 1; i < parts.length; i++) raw += breaks[i - 1] + parts[i]!.content;
  return { head: lines[0]!.prefix + parts[0]!.lead, unit, raw, tail: parts[parts.length - 1]!.trail + lines[lines.length - 1]!.end };
}

/** Cells of a table row: their spans in the line (pipes escaped or in code spans do not split). */
function cells(body: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const scan = new Scan(body);
  let start = 0;
  for (let j = 0; j <= body.length; j++) {
    const c = body[j];
    if (c === '\\') j++;
    else if (c === '`') {
      const end = scan.codeEnd(j, body.length);
      if (end !== -1) j = end - 1;
    } else if (c === '|' || j === body.length) {
      out.push([start, j]);
      start = j + 1;
    }
  }
  return out;
}

class Reader {
  readonly pieces: Piece[] = [];
  readonly units: TranslationUnit[] = [];

  private add(head: string, built: { unit: UnitText; raw: string }, tail: string, style: string): void {
    if (!built.unit.hasText()) {
      this.pieces.push(head + built.raw + tail);
      return;
    }
    const id = String(this.units.length + 1);
    const { source, tags } = built.unit.build();
    this.pieces.push(head, { unit: id, raw: built.raw }, tail);
    this.units.push({ id, source, tags, context: { style, position: this.units.length + 1 } });
  }

  private keep(lines: MdLine[]): void {
    for (const l of lines) this.pieces.push(l.prefix + l.body + l.end);
  }

  private paragraph(lines: MdLine[], style: string): void {
    const built = blockUnit(
      lines,
      lines.map((l) => {
        const lead = /^\s*/.exec(l.body)![0].length;
        return [lead, lead + l.body.slice(lead).trimEnd().length];
      }),
    );
    this.add(built.head, built, built.tail, style);
  }

  blocks(lines: MdLine[], inQuote = false): void {
    // The next line with text at or after each line (lines.length when none): looked up, not searched.
    const nextText: number[] = new Array(lines.length + 1).fill(lines.length);
    for (let k = lines.length - 1; k >= 0; k--) nextText[k] = blank(lines[k]!) ? nextText[k + 1]! : k;
    const textAfter = (k: number) => lines[nextText[k]!];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      const body = line.body;
      if (blank(line)) {
        this.keep([line]);
        i++;
        continue;
      }
      const fence = FENCE.exec(body);
      if (fence && !(fence[2]![0] === '`' && body.slice(fence[0].length).includes('`'))) {
        let j = i + 1;
        const closing = new RegExp(`^ {0,3}${fence[2]![0] === '`' ? '`' : '~'}{${fence[2]!.length},}[ \\t]*$`);
        while (j < lines.length && !closing.test(lines[j]!.body)) j++;
        this.keep(lines.slice(i, Math.min(j + 1, lines.length)));
        i = j + 1;
        continue;
      }
      if (indentOf(body) >= 4) {
        let j = i + 1;
        while (j < lines.length && indentOf((textAfter(j) ?? { body: '' }).body) >= 4) j++;
        this.keep(lines.slice(i, j));
        i = j;
        continue;
      }
      if (HR.test(body) || REFERENCE_DEF.test(body)) {
        this.keep([line]);
        i++;
        continue;
      }
      if (HTML_BLOCK.test(body) || HTML_TAG_LINE.test(body)) {
        let j = i;
        if (/^ {0,3}<!--/.test(body)) {
          while (j < lines.length && !lines[j]!.body.includes('-->')) j++;
          j++;
        } else if (/^ {0,3}<(script|pre|style|textarea)(?:\s|>|$)/i.test(body)) {
          while (j < lines.length && !/<\/(script|pre|style|textarea)>/i.test(lines[j]!.body)) j++;
          j++;
        } else while (j < lines.length && !blank(lines[j]!)) j++;
        this.keep(lines.slice(i, Math.min(j, lines.length)));
        i = j;
        continue;
      }
      const atx = ATX.exec(body);
      if (atx && /^ {0,3}#{1,6}(?:[ \t]|$)/.test(body)) {
        // `## ##` is an empty heading: the second run closes it.
        const content = /^#+$/.test(atx[3] ?? '') ? '' : (atx[3] ?? '');
        if (!content) this.keep([line]);
        else {
          const start = atx[1]!.length + atx[2]!.length;
          const built = blockUnit([line], [[start, start + content.length]]);
          this.add(built.head, built, built.tail, `h${atx[1]!.trim().length}`);
        }
        i++;
        continue;
      }
      const quote = QUOTE.exec(body);
      if (quote) {
        let j = i;
        const inner: MdLine[] = [];
        while (j < lines.length && QUOTE.test(lines[j]!.body)) {
          const m = QUOTE.exec(lines[j]!.body)![0];
          inner.push({ prefix: lines[j]!.prefix + m, body: lines[j]!.body.slice(m.length), end: lines[j]!.end });
          j++;
        }
        this.blocks(inner, true);
        i = j;
        continue;
      }
      const item = BULLET.exec(body);
      if (item) {
        const width = item[0].length && item[3] === '' ? item[0].length + 1 : item[0].length;
        const inner: MdLine[] = [{ prefix: line.prefix + item[0], body: body.slice(item[0].length), end: line.end }];
        let j = i + 1;
        while (j < lines.length) {
          const l = lines[j]!;
          if (blank(l)) {
            const next = textAfter(j);
            if (!next || indentOf(next.body) < width) break;
            inner.push({ prefix: l.prefix, body: l.body, end: l.end });
            j++;
            continue;
          }
          if (indentOf(l.body) >= width) {
            const cut = cutIndent(l.body, width);
            inner.push({ prefix: l.prefix + l.body.slice(0, cut), body: l.body.slice(cut), end: l.end });
            j++;
            continue;
          }
          // A lazy continuation line of the item's paragraph.
          if (!blank(lines[j - 1]!) && !interrupts(l.body) && !SETEXT.test(l.body) && !BULLET.test(l.body)) {
            const lead = /^[ \t]*/.exec(l.body)![0];
            inner.push({ prefix: l.prefix + lead, body: l.body.slice(lead.length), end: l.end });
            j++;
            continue;
          }
          break;
        }
        this.blocks(inner, inQuote);
        i = j;
        continue;
      }
      if (body.includes('|') && i + 1 < lines.length && DELIMITER_ROW.test(lines[i + 1]!.body) && lines[i + 1]!.body.includes('-')) {
        let j = i;
        while (j < lines.length && !blank(lines[j]!) && lines[j]!.body.includes('|')) {
          if (j === i + 1) this.keep([lines[j]!]);
          else this.row(lines[j]!);
          j++;
        }
        i = j;
        continue;
      }
      // A paragraph: to a blank line, a block that interrupts it, or a setext underline.
      let j = i + 1;
      while (j < lines.length && !blank(lines[j]!) && !interrupts(lines[j]!.body) && !SETEXT.test(lines[j]!.body)) j++;
      const setext = j < lines.length && SETEXT.test(lines[j]!.body) && !blank(lines[j]!);
      this.paragraph(lines.slice(i, j), setext ? (lines[j]!.body.trim()[0] === '=' ? 'h1' : 'h2') : inQuote ? 'blockquote' : 'p');
      if (setext) {
        this.keep([lines[j]!]);
        j++;
      }
      i = j;
    }
  }

  private row(line: MdLine): void {
    let last = 0;
    let out = line.prefix;
    for (const [start, end] of cells(line.body)) {
      const cell = line.body.slice(start, end);
      const content = cell.trim();
      if (!content) continue;
      const at = start + cell.indexOf(content);
      out += line.body.slice(last, at);
      const built = blockUnit([{ prefix: '', body: content, end: '' }], [[0, content.length]]);
      this.add(out, built, '', 'td');
      out = '';
      last = at + content.length;
    }
    this.pieces.push(out + line.body.slice(last) + line.end);
  }
}

function cutIndent(body: string, width: number): number {
  let col = 0;
  let k = 0;
  while (k < body.length && col < width && (body[k] === ' ' || body[k] === '\t')) {
    col += body[k] === '\t' ? 4 - (col % 4) : 1;
    k++;
  }
  return k;
}

export const markdownFormat: FileFormat = {
  id: 'md',
  name: 'Markdown',
  extensions: ['md', 'markdown'],
  mimeTypes: ['text/markdown'],
  sniff(bytes) {
    // Markdown has no signature: any text is Markdown; binary data is not.
    const text = textOf(bytes);
    return text !== null && !/[\u0000-\u0008\u000e-\u001f]/.test(text.slice(0, 4096));
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'md');
    if (/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(text)) throw new FormatError('md', 'the file holds control characters: it is binary data, not Markdown');
    const lines: MdLine[] = linesOf(text).map((l) => ({ prefix: '', body: l.body, end: l.end }));
    const reader = new Reader();
    let start = 0;
    // Front matter: YAML between `---` lines or TOML between `+++` lines at the very start.
    const open = /^(---|\+\+\+)[ \t]*$/.exec(lines[0]?.body ?? '');
    if (open) {
      const close = lines.findIndex((l, k) => k > 0 && (l.body.trim() === open[1] || (open[1] === '---' && l.body.trim() === '...')));
      if (close !== -1) {
        for (const l of lines.slice(0, close + 1)) reader.pieces.push(l.body + l.end);
        start = close + 1;
      }
    }
    reader.blocks(lines.slice(start));
    return { format: 'md', units: reader.units, skeleton: { encoding, pieces: reader.pieces } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    // A translation's own line breaks would end its block: they become spaces; a pipe in a cell is escaped.
    const text = writePieces(skeleton.pieces, file.units, units, (t, u) =>
      restoreTags(t, u.tags, (plain) => {
        const flat = plain.replace(/\s*[\r\n]\s*/g, ' ');
        return u.context.style === 'td' ? flat.replace(/(?<!\\)\|/g, '\\|') : flat;
      }),
    );
    return encodeText(text, skeleton.encoding);
  },
};
