/**
 * A small streaming XML tokenizer for the interchange formats (TMX, TBX): it takes text in chunks of
 * any size and yields start tags (with attributes), end tags and text, in constant memory. It reads
 * well-formed XML as these formats are written: no DTD processing beyond skipping the DOCTYPE, the five
 * predefined entities and numeric references expanded, CDATA as text, comments and processing
 * instructions skipped. Malformed input throws with the offset where it broke.
 */

export type XmlToken =
  | { type: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean; raw: string }
  | { type: 'close'; name: string; raw: string }
  | { type: 'text'; text: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export class XmlError extends Error {}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    const known = ENTITIES[ref];
    if (known === undefined) throw new XmlError(`unknown entity &${ref};`);
    return known;
  });
}

export function escapeXml(text: string, attribute = false): string {
  let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (attribute) out = out.replace(/"/g, '&quot;');
  // Characters XML 1.0 cannot carry at all are dropped rather than written into a broken file.
  return out.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}

const ATTR = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

function parseTag(raw: string, at: number): XmlToken {
  if (raw[1] === '/') return { type: 'close', name: raw.slice(2, -1).trim(), raw };
  const selfClosing = raw.endsWith('/>');
  const body = raw.slice(1, selfClosing ? -2 : -1);
  const m = /^([^\s/>]+)/.exec(body);
  if (!m) throw new XmlError(`malformed tag at offset ${at}`);
  const attrs: Record<string, string> = {};
  for (const a of body.slice(m[1].length).matchAll(ATTR)) attrs[a[1]] = decodeEntities(a[3] ?? a[4] ?? '');
  return { type: 'open', name: m[1], attrs, selfClosing, raw };
}

/** Tokens of the XML text arriving in `chunks` (strings or UTF-8 buffers). */
export async function* xmlTokens(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): AsyncGenerator<XmlToken> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let buf = '';
  let offset = 0;
  let first = true;
  const drain = function* (final: boolean): Generator<XmlToken> {
    let i = 0;
    for (;;) {
      const lt = buf.indexOf('<', i);
      if (lt === -1) {
        // Text runs to the end of what arrived; it may go on in the next chunk (kept unless this is the end).
        if (final && i < buf.length) {
          const text = buf.slice(i);
          if (text.trim()) throw new XmlError(`text after the root element at offset ${offset + i}`);
        }
        break;
      }
      if (lt > i) yield { type: 'text', text: decodeEntities(buf.slice(i, lt)) };
      i = lt;
      if (buf.startsWith('<!--', i)) {
        const end = buf.indexOf('-->', i + 4);
        if (end === -1) break;
        i = end + 3;
      } else if (buf.startsWith('<![CDATA[', i)) {
        const end = buf.indexOf(']]>', i + 9);
        if (end === -1) break;
        yield { type: 'text', text: buf.slice(i + 9, end) };
        i = end + 3;
      } else if (buf.startsWith('<?', i)) {
        const end = buf.indexOf('?>', i + 2);
        if (end === -1) break;
        i = end + 2;
      } else if (buf.startsWith('<!', i)) {
        // DOCTYPE (with an internal subset in brackets) or another declaration.
        let depth = 0;
        let j = i + 2;
        for (; j < buf.length; j++) {
          if (buf[j] === '[') depth++;
          else if (buf[j] === ']') depth--;
          else if (buf[j] === '>' && depth <= 0) break;
        }
        if (j >= buf.length) break;
        i = j + 1;
      } else {
        // A tag ends at the first '>' outside quotes.
        let quote = '';
        let j = i + 1;
        for (; j < buf.length; j++) {
          const c = buf[j];
          if (quote) {
            if (c === quote) quote = '';
          } else if (c === '"' || c === "'") quote = c;
          else if (c === '>') break;
        }
        if (j >= buf.length) break;
        yield parseTag(buf.slice(i, j + 1), offset + i);
        i = j + 1;
      }
    }
    buf = buf.slice(i);
    offset += i;
  };
  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    buf += text;
    yield* drain(false);
    if (buf.length > 16 * 1024 * 1024) throw new XmlError(`an element longer than 16 MB at offset ${offset}`);
  }
  buf += decoder.decode();
  yield* drain(true);
  if (buf.trim()) throw new XmlError(`the document ends inside a tag or comment at offset ${offset}`);
}
