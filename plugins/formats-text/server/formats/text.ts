import type { InlineTag, TranslationUnit } from '@linguaport/sdk/shared';
import { placeholderNumbers } from '@linguaport/sdk/shared';

/**
 * What the text formats of this plugin share: reading bytes as text in the encoding they came in,
 * lines with their own endings, a unit's text built from text and markup, and the skeleton pieces the
 * writers walk. A piece that stands for a unit keeps the unit's original markup (`raw`): a unit written
 * with its own source gives back those bytes exactly, so entities, escapes and wrapping the writer would
 * spell differently survive the identity round trip; only changed units are encoded afresh.
 */

export type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';

export class FormatError extends Error {
  constructor(format: string, message: string) {
    super(`${format}: ${message}`);
    this.name = 'FormatError';
  }
}

export function decodeText(bytes: Uint8Array, format: string): { text: string; encoding: Encoding } {
  try {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(2)), encoding: 'utf-16le' };
    if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      const swapped = Buffer.from(bytes.subarray(2));
      if (swapped.length % 2) throw new Error('odd length');
      swapped.swap16();
      return { text: new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(swapped), encoding: 'utf-16be' };
    }
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // A NUL in UTF-8 text is binary data under a text file's name.
    if (text.includes('\u0000')) throw new Error('NUL');
    return { text, encoding: 'utf-8' };
  } catch {
    throw new FormatError(format, 'the file is not text (not UTF-8, nor UTF-16 with a byte-order mark)');
  }
}

export function encodeText(text: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return new Uint8Array(Buffer.from(text, 'utf8'));
    case 'utf-8-bom':
      return new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    case 'utf-16le':
      return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    case 'utf-16be': {
      const body = Buffer.from(text, 'utf16le');
      body.swap16();
      return new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), body]));
    }
  }
}

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

export interface Line {
  body: string;
  end: string;
}

/** Lines with their own ending kept (`\r\n`, `\n`, `\r`, or none for the last). */
export function linesOf(text: string): Line[] {
  const out: Line[] = [];
  const re = /([^\r\n]*)(\r\n|\n|\r|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '' && re.lastIndex >= text.length) break;
    out.push({ body: m[1]!, end: m[2]! });
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

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
