/**
 * Text files as bytes, for every format that is text underneath (plain text, subtitles, PO, JSON,
 * Markdown, HTML, XLIFF): UTF-8 with or without a byte-order mark, and UTF-16 with a mark, read into a
 * string that remembers its encoding and written back in the same one. Anything else (another
 * encoding, or a NUL in UTF-8: binary data under a text file's name) is refused rather than garbled.
 */

export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';

export class TextEncodingError extends Error {
  constructor() {
    super('the file is not text (not UTF-8, nor UTF-16 with a byte-order mark)');
    this.name = 'TextEncodingError';
  }
}

export function decodeTextBytes(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
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
    if (text.includes('\u0000')) throw new Error('NUL');
    return { text, encoding: 'utf-8' };
  } catch {
    throw new TextEncodingError();
  }
}

export function encodeTextBytes(text: string, encoding: TextEncoding): Uint8Array {
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

export interface TextLine {
  body: string;
  /** `\r\n`, `\n`, `\r`, or empty for the last line. */
  end: string;
}

/** Lines with their own ending kept. */
export function linesOf(text: string): TextLine[] {
  const out: TextLine[] = [];
  const re = /([^\r\n]*)(\r\n|\n|\r|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '' && re.lastIndex >= text.length) break;
    out.push({ body: m[1]!, end: m[2]! });
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}
