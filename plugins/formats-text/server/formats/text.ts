import type { InlineTag, TranslationUnit } from '@linguaport/sdk/shared';
import { placeholderNumbers } from '@linguaport/sdk/shared';
import { decodeTextBytes, encodeTextBytes, linesOf, type TextEncoding, type TextLine } from '@linguaport/sdk/interchange';

/**
 * What the text formats of this plugin share: reading bytes as text in the encoding they came in,
 * lines with their own endings, a unit's text built from text and markup, and the skeleton pieces the
 * writers walk. A piece that stands for a unit keeps the unit's original markup (`raw`): a unit written
 * with its own source gives back those bytes exactly, so entities, escapes and wrapping the writer would
 * spell differently survive the identity round trip; only changed units are encoded afresh.
 */

export type Encoding = TextEncoding;

export class FormatError extends Error {
  constructor(format: string, message: string) {
    super(`${format}: ${message}`);
    this.name = 'FormatError';
  }
}

export function decodeText(bytes: Uint8Array, format: string): { text: string; encoding: Encoding } {
  try {
    return decodeTextBytes(bytes);
  } catch (err) {
    throw new FormatError(format, (err as Error).message);
  }
}

export const encodeText = encodeTextBytes;

/** The text of bytes for `sniff`: null when they are not text at all. */
export function textOf(bytes: Uint8Array): string | null {
  try {
    return decodeText(bytes.subarray(0, Math.min(bytes.length, 64 * 1024)), 'sniff').text;
  } catch {
    // The cut at 64 KB may fall inside a character: try the whole.
    try {
      return decodeText(bytes, 'sniff').text;
    } catch {
      return null;
    }
  }
}

export type Line = TextLine;
export { linesOf };

type Part = { text: string } | { standalone: string; key?: unknown } | { open: string; closing: string; ref: number; closed: boolean; key?: unknown } | { close: number };

/**
 * A unit's text as it is read: plain text, standalone marks and paired marks. Numbers are given when the
 * text is complete, so none of them is one the text itself contains as characters. A paired mark
 * never closed becomes a standalone one; a close without its opening is the caller's to decide.
 */
export class UnitText {
  private parts: Part[] = [];
  private refs = 0;

  text(text: string): void {
    if (!text) return;
    const last = this.parts[this.parts.length - 1];
    if (last && 'text' in last) last.text += text;
    else this.parts.push({ text });
  }

  /** A standalone mark; `key` finds its number in `build().numbers`. */
  standalone(original: string, key?: unknown): void {
    this.parts.push({ standalone: original, key });
  }

  open(original: string, closing = '', key?: unknown): number {
    const ref = ++this.refs;
    this.parts.push({ open: original, closing, ref, closed: false, key });
    return ref;
  }

  /** Closes a paired mark; `closing` replaces the closing markup given at opening (the file's own spelling). */
  close(ref: number, closing?: string): void {
    const open = this.parts.find((p): p is Extract<Part, { open: string }> => 'open' in p && p.ref === ref);
    if (!open) return;
    open.closed = true;
    if (closing !== undefined) open.closing = closing;
    this.parts.push({ close: ref });
  }

  /** Whether there is anything but marks and white space. */
  hasText(): boolean {
    return this.parts.some((p) => 'text' in p && p.text.trim() !== '');
  }

  isEmpty(): boolean {
    return this.parts.length === 0;
  }

  build(): { source: string; tags: Record<string, InlineTag>; numbers: Map<unknown, number> } {
    const plain = this.parts.map((p) => ('text' in p ? p.text : '')).join('');
    const next = placeholderNumbers(plain);
    const numbers = new Map<number, number>();
    const keyed = new Map<unknown, number>();
    const tags: Record<string, InlineTag> = {};
    let source = '';
    for (const p of this.parts) {
      if ('text' in p) source += p.text;
      else if ('standalone' in p) {
        const n = next();
        if (p.key !== undefined) keyed.set(p.key, n);
        tags[n] = { kind: 'standalone', original: p.standalone };
        source += `<${n}/>`;
      } else if ('open' in p) {
        const n = next();
        if (p.key !== undefined) keyed.set(p.key, n);
        if (p.closed) {
          numbers.set(p.ref, n);
          tags[n] = { kind: 'paired', original: p.open, closing: p.closing };
          source += `<${n}>`;
        } else {
          tags[n] = { kind: 'standalone', original: p.open };
          source += `<${n}/>`;
        }
      } else source += `</${numbers.get(p.close)}>`;
    }
    return { source, tags, numbers: keyed };
  }
}

/**
 * Placeholders of software strings that engines must keep as they are: printf (`%s`, `%1$d`, `%.2f`,
 * `%(name)s`), ICU and .NET arguments (`{0}`, `{name}`, `{count, number}`) and templates (`{{var}}`).
 */
export const CODE_PLACEHOLDER = /\{\{[^{}\r\n]*\}\}|%\([A-Za-z_][\w.]*\)[-+0#]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]|%(?:\d+\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t|q)?[diouxXeEfFgGaAcspn@%]|\{[A-Za-z0-9_]+(?:\s*,\s*[A-Za-z]+(?:\s*,\s*[^{}\r\n]*)?)?\}/g;

/** Adds text to a unit with its code placeholders as standalone marks. */
export function textWithPlaceholders(unit: UnitText, text: string): void {
  let last = 0;
  for (const m of text.matchAll(CODE_PLACEHOLDER)) {
    unit.text(text.slice(last, m.index));
    unit.standalone(m[0]);
    last = m.index! + m[0].length;
  }
  unit.text(text.slice(last));
}

/** A piece of a skeleton: text kept as it was, or a unit's place with its original markup. */
export type Piece = string | { unit: string; raw: string };

/**
 * The text of the pieces with each unit written by `render`, or by its original markup when the unit
 * is written with the text it was read with.
 */
export function writePieces(pieces: Piece[], original: TranslationUnit[], units: TranslationUnit[], render: (text: string, unit: TranslationUnit) => string): string {
  const read = new Map(original.map((u) => [u.id, u]));
  const given = new Map(units.map((u) => [u.id, u]));
  let out = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      out += piece;
      continue;
    }
    const before = read.get(piece.unit)!;
    const unit = given.get(piece.unit) ?? before;
    const text = unit.target ?? unit.source;
    out += text === before.source ? piece.raw : render(text, unit);
  }
  return out;
}
