import { isUtf8 } from 'node:buffer';
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
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    if (utf16) {
      try {
        decode(bytes);
        return true;
      } catch {
        return false;
      }
    }
    // UTF-8 checked natively, without making the text: twenty uploads of 5 MB at once decoded each file
    // whole on the main thread only to look at it. A NUL means binary data under a .txt name.
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    return isUtf8(body) && Buffer.from(body.buffer, body.byteOffset, body.byteLength).indexOf(0) < 0;
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decode(bytes);
    const pieces: Piece[] = [];
    const units: TranslationUnit[] = [];
    // A paragraph's lines are kept until it closes: its placeholder numbers skip only what its own text
    // holds (the whole file's text was scanned again for every paragraph: seconds for a few MB).
    let paragraph: { lead: string; lines: Array<{ indent: string; body: string }>; ends: string[] } | null = null;
    const close = () => {
      if (!paragraph) return;
      const id = String(units.length + 1);
      const { lines, ends } = paragraph;
      const tags: Record<string, InlineTag> = {};
      let source = lines[0]!.body;
      if (lines.length > 1) {
        let counter = 0;
        const next = lines.some((l) => l.body.includes('<')) ? placeholderNumbers(lines.map((l) => l.body).join('\n')) : () => ++counter;
        for (let i = 1; i < lines.length; i++) {
          // The previous line's ending and this line's indentation become one standalone placeholder.
          const n = String(next());
          tags[n] = { kind: 'standalone', original: ends[i - 1]! + lines[i]!.indent };
          source += `<${n}/>${lines[i]!.body}`;
        }
      }
      pieces.push(paragraph.lead, { unit: id }, ends[ends.length - 1]!);
      units.push({ id, source, tags, context: { position: units.length + 1 } });
      paragraph = null;
    };
    const lines = linesOf(text);
    for (let i = 0; i < lines.length; i++) {
      // A file of megabytes is parsed in slices: the server answers other requests in between.
      if (i % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
      const line = lines[i]!;
      const body = line.body.trim();
      if (!body) {
        close();
        pieces.push(line.body + line.end);
        continue;
      }
      const indent = line.body.length - line.body.trimStart().length;
      const lead = line.body.slice(0, indent);
      if (!paragraph) paragraph = { lead, lines: [{ indent: '', body }], ends: [] };
      else paragraph.lines.push({ indent: lead, body });
      paragraph.ends.push(line.body.slice(indent + body.length) + line.end);
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
