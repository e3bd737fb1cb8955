import type { FileFormat, InlineTag, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { placeholderNumbers, restoreTags } from '@linguaport/sdk/shared';
import { decodeTextBytes, encodeTextBytes, linesOf, TextEncodingError, type TextEncoding } from '@linguaport/sdk/interchange';

/**
 * Plain text. A unit is a paragraph: lines up to a blank line. Inside a paragraph each line break is a
 * standalone placeholder (so a hard-wrapped paragraph is one sentence for the engine and keeps its
 * breaks); each line's indentation and trailing spaces, blank lines and the line-ending style stay in
 * the skeleton. UTF-8 (with or without a byte-order mark) and UTF-16 with a mark are read and written
 * back in the same encoding; other encodings are refused rather than garbled.
 */

type Piece = string | { unit: string };
interface Skeleton {
  encoding: TextEncoding;
  pieces: Piece[];
}

/** Bytes that are no UTF-8 or UTF-16 with a byte-order mark (the SDK's TextEncodingError, under the name this module always had). */
export { TextEncodingError as UnsupportedEncodingError };

const decode = decodeTextBytes;
const encode = encodeTextBytes;

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
