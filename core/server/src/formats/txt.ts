import type { FileFormat, InlineTag, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { placeholderNumbers, restoreTags } from '@linguaport/sdk/shared';

/**
 * Plain text. A unit is a paragraph: lines up to a blank line. Inside a paragraph each line break is a
 * standalone placeholder (so a hard-wrapped paragraph is one sentence for the engine and keeps its
 * breaks); each line's indentation and trailing spaces, blank lines and the line-ending style stay in
 * the skeleton. UTF-8 (with or without a byte-order mark) and UTF-16 with a mark are read and written
 * back in the same encoding; other encodings are refused rather than garbled.
 */

type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';
type Piece = string | { unit: string };
interface Skeleton {
  encoding: Encoding;
  pieces: Piece[];
}

export class UnsupportedEncodingError extends Error {
  constructor() {
    super('the text is not UTF-8 or UTF-16 with a byte-order mark');
    this.name = 'UnsupportedEncodingError';
  }
}

function decode(bytes: Uint8Array): { text: string; encoding: Encoding } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return { text: new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(swapped), encoding: 'utf-16be' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    throw new UnsupportedEncodingError();
  }
}

function encode(text: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf-16be': {
      const body = Buffer.from(text, 'utf16le');
      body.swap16();
      return Buffer.concat([Buffer.from([0xfe, 0xff]), body]);
    }
  }
}

/** Lines with their own ending kept (`\r\n`, `\n`, `\r`, or none for the last). */
function linesOf(text: string): Array<{ body: string; end: string }> {
  const out: Array<{ body: string; end: string }> = [];
  const re = /([^\r\n]*)(\r\n|\n|\r|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '' && re.lastIndex >= text.length) break;
    out.push({ body: m[1]!, end: m[2]! });
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

export const txtFormat: FileFormat = {
  id: 'txt',
  name: 'Plain text',
  extensions: ['txt'],
  mimeTypes: ['text/plain'],
  sniff(bytes) {
    try {
      decode(bytes);
    } catch {
      return false;
    }
    // A NUL outside UTF-16 means binary data under a .txt name.
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    return utf16 || !bytes.includes(0);
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decode(bytes);
    const pieces: Piece[] = [];
    const units: TranslationUnit[] = [];
    let paragraph: { source: string; tags: Record<string, InlineTag>; lead: string; trail: string; next: () => number } | null = null;
    const close = () => {
      if (!paragraph) return;
      const id = String(units.length + 1);
      pieces.push(paragraph.lead, { unit: id }, paragraph.trail);
      units.push({ id, source: paragraph.source, tags: paragraph.tags, context: { position: units.length + 1 } });
      paragraph = null;
    };
    for (const line of linesOf(text)) {
      const m = /^(\s*)(.*?)(\s*)$/.exec(line.body)!;
      if (!m[2]) {
        close();
        pieces.push(line.body + line.end);
        continue;
      }
      if (!paragraph) {
        paragraph = { source: m[2], tags: {}, lead: m[1]!, trail: '', next: placeholderNumbers(text) };
      } else {
        // The previous line's ending and this line's indentation become one standalone placeholder.
        const n = String(paragraph.next());
        paragraph.tags[n] = { kind: 'standalone', original: paragraph.trail + m[1] };
        paragraph.source += `<${n}/>${m[2]}`;
      }
      paragraph.trail = m[3] + line.end;
    }
    close();
    return { format: 'txt', units, skeleton: { encoding, pieces } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    const byId = new Map(units.map((u) => [u.id, u]));
    let text = '';
    for (const piece of skeleton.pieces) {
      if (typeof piece === 'string') {
        text += piece;
        continue;
      }
      const unit = byId.get(piece.unit) ?? file.units.find((u) => u.id === piece.unit)!;
      text += restoreTags(unit.target ?? unit.source, unit.tags);
    }
    return encode(text, skeleton.encoding);
  },
};
