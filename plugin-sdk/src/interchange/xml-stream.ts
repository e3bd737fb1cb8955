/**
 * A small streaming XML tokenizer for the interchange formats (TMX, TBX): it takes text in chunks of
 * any size and gives start tags (with attributes), end tags and text, in constant memory. It reads
 * well-formed XML as these formats are written: no DTD processing beyond skipping the DOCTYPE, the five
 * predefined entities and numeric references expanded, CDATA as text, comments and processing
 * instructions skipped. Malformed input throws with the offset where it broke.
 *
 * `XmlTokenizer` is the synchronous core (a callback per token: a million-unit file is tens of millions
 * of tokens, too many for one await each); `xmlTokens` wraps it as an async generator.
 */

export type XmlToken =
  | { type: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean; raw: string }
  | { type: 'close'; name: string; raw: string }
  | { type: 'text'; text: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][\w.-]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError('a bare & (write &amp;)');
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    const known = ENTITIES[ref];
    if (known === undefined) throw new XmlError(`unknown entity &${ref};`);
    return known;
  });
}

// Characters XML 1.0 cannot carry at all: dropped rather than written into a broken file.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string, attribute = false): string {
  let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // A literal carriage return would be read back as a line feed (XML normalises line ends).
  if (out.includes('\r')) out = out.replace(/\r/g, '&#13;');
  if (attribute) out = out.replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
  return out.replace(NOT_XML, '');
}

const ATTR = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

function parseTag(raw: string, at: number): Extract<XmlToken, { type: 'open' | 'close' }> {
  if (raw.charCodeAt(1) === 47 /* / */) return { type: 'close', name: raw.slice(2, -1).trim(), raw };
  const selfClosing = raw.charCodeAt(raw.length - 2) === 47;
  const body = raw.slice(1, selfClosing ? -2 : -1);
  const m = /^([^\s/>]+)/.exec(body);
  if (!m) throw new XmlError(`malformed tag at offset ${at}`);
  const attrs: Record<string, string> = {};
  if (body.length > m[1]!.length) for (const a of body.slice(m[1]!.length).matchAll(ATTR)) attrs[a[1]!] = decodeEntities(a[3] ?? a[4] ?? '');
  return { type: 'open', name: m[1]!, attrs, selfClosing, raw };
}

/** The longest element, comment or text run the tokenizer holds while waiting for its end. */
const MAX_PENDING = 16 * 1024 * 1024;

/** Tokenizes XML text pushed in pieces; each complete token goes to `emit` at once. */
export class XmlTokenizer {
  private buf = '';
  private offset = 0;
  private depth = 0;
  private rootClosed = false;

  constructor(private readonly emit: (token: XmlToken) => void) {}

  /** More text; `final` when it is the last. */
  write(text: string, final = false): void {
    this.buf = this.buf.length ? this.buf + text : text;
    this.drain(final);
    if (this.buf.length > MAX_PENDING) throw new XmlError(`an element longer than 16 MB at offset ${this.offset}`);
    if (final) {
      if (this.buf.trim()) throw new XmlError(`the document ends inside a tag or comment at offset ${this.offset}`);
      if (this.depth > 0) throw new XmlError('the document ends before its root element is closed');
    }
  }

  private drain(final: boolean): void {
    const buf = this.buf;
    let i = 0;
    for (;;) {
      const lt = buf.indexOf('<', i);
      if (lt === -1) {
        // Text runs to the end of what arrived; it may go on in the next piece (kept unless this is the end).
        if (final && i < buf.length) {
          if (this.depth > 0) throw new XmlError('the document ends before its root element is closed');
          if (buf.slice(i).trim()) throw new XmlError(`text outside the root element at offset ${this.offset + i}`);
          i = buf.length;
        }
        break;
      }
      if (lt > i) this.text(buf.slice(i, lt), this.offset + i);
      i = lt;
      const next = buf.charCodeAt(i + 1);
      if (next === 33 /* ! */) {
        if (buf.startsWith('<!--', i)) {
          const end = buf.indexOf('-->', i + 4);
          if (end === -1) break;
          i = end + 3;
        } else if (buf.startsWith('<![CDATA[', i)) {
          const end = buf.indexOf(']]>', i + 9);
          if (end === -1) break;
          if (this.depth > 0) this.emit({ type: 'text', text: buf.slice(i + 9, end) });
          i = end + 3;
        } else {
          // DOCTYPE (with an internal subset in brackets) or another declaration.
          let depth = 0;
          let j = i + 2;
          for (; j < buf.length; j++) {
            const c = buf.charCodeAt(j);
            if (c === 91) depth++;
            else if (c === 93) depth--;
            else if (c === 62 && depth <= 0) break;
          }
          if (j >= buf.length) break;
          i = j + 1;
        }
      } else if (next === 63 /* ? */) {
        const end = buf.indexOf('?>', i + 2);
        if (end === -1) break;
        i = end + 2;
      } else {
        // A tag ends at the first '>' outside quotes.
        let j = buf.indexOf('>', i + 1);
        if (j === -1) break;
        for (let k = i + 1; k < j; k++) {
          const c = buf.charCodeAt(k);
          if (c === 34 || c === 39) {
            j = this.tagEnd(buf, i);
            break;
          }
        }
        if (j === -1) break;
        const token = parseTag(buf.slice(i, j + 1), this.offset + i);
        this.tag(token);
        i = j + 1;
      }
    }
    this.buf = i >= buf.length ? '' : buf.slice(i);
    this.offset += i;
  }

  /** The end of a tag whose attributes may hold `>` inside quotes, or -1 when it has not all arrived. */
  private tagEnd(buf: string, from: number): number {
    let quote = 0;
    for (let j = from + 1; j < buf.length; j++) {
      const c = buf.charCodeAt(j);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (c === 62) return j;
    }
    return -1;
  }

  private text(raw: string, at: number): void {
    if (this.depth === 0) {
      if (raw.trim()) throw new XmlError(`text outside the root element at offset ${at}`);
      return;
    }
    // XML reads every line end (CR LF, a lone CR) as LF; a CR written as &#13; stays.
    this.emit({ type: 'text', text: decodeEntities(raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw) });
  }

  private tag(token: Extract<XmlToken, { type: 'open' | 'close' }>): void {
    if (token.type === 'open') {
      if (this.rootClosed) throw new XmlError(`a second root element <${token.name}>`);
      if (!token.selfClosing) this.depth++;
      else if (this.depth === 0) this.rootClosed = true;
    } else {
      this.depth--;
      if (this.depth < 0) throw new XmlError(`</${token.name}> closes nothing`);
      if (this.depth === 0) this.rootClosed = true;
    }
    this.emit(token);
  }
}

/**
 * A decoder for XML bytes: UTF-8 (with or without a byte-order mark) or UTF-16 with its mark; a
 * declared encoding other than those is refused rather than read as the wrong characters.
 */
export class XmlDecoder {
  private decoder: TextDecoder | null = null;
  private head = new Uint8Array(0);

  decode(chunk: Uint8Array | string, final = false): string {
    if (typeof chunk === 'string') return chunk;
    if (!this.decoder) {
      // Enough bytes to see the mark and the declaration.
      const joined = new Uint8Array(this.head.length + chunk.length);
      joined.set(this.head);
      joined.set(chunk, this.head.length);
      if (joined.length < 200 && !final) {
        this.head = joined;
        return '';
      }
      this.decoder = new TextDecoder(encodingOf(joined), { fatal: true, ignoreBOM: false });
      this.head = new Uint8Array(0);
      chunk = joined;
    }
    return this.decoder.decode(chunk, { stream: !final });
  }

  end(): string {
    if (!this.decoder) return this.decode(new Uint8Array(0), true);
    return this.decoder.decode();
  }
}

function encodingOf(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  // UTF-16 without a mark still starts with `<?` as two-byte characters.
  if (bytes[0] === 0x3c && bytes[1] === 0x00) return 'utf-16le';
  if (bytes[0] === 0x00 && bytes[1] === 0x3c) return 'utf-16be';
  const start = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(start)?.[1];
  if (declared && !/^(utf-?8|us-ascii|ascii|utf-16(le|be)?)$/i.test(declared)) {
    throw new XmlError(`the file declares the encoding ${declared}; only UTF-8 and UTF-16 are read`);
  }
  return 'utf-8';
}

/** Text of UTF-8/UTF-16 bytes (or strings) arriving in pieces, byte-order mark removed. */
export async function* xmlText(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new XmlDecoder();
  let first = true;
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = decoder.decode(chunk);
    } catch (err) {
      throw err instanceof XmlError ? err : new XmlError('the file is not valid UTF-8 or UTF-16 text');
    }
    if (first && text.length) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text) yield text;
  }
  let rest: string;
  try {
    rest = decoder.end();
  } catch (err) {
    throw err instanceof XmlError ? err : new XmlError('the file is not valid UTF-8 or UTF-16 text');
  }
  if (first && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
  if (rest) yield rest;
}

/** Tokens of the XML text arriving in `chunks` (strings or UTF-8/UTF-16 bytes). */
export async function* xmlTokens(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): AsyncGenerator<XmlToken> {
  let pending: XmlToken[] = [];
  const tokenizer = new XmlTokenizer((t) => pending.push(t));
  for await (const text of xmlText(chunks)) {
    tokenizer.write(text);
    const out = pending;
    pending = [];
    yield* out;
  }
  tokenizer.write('', true);
  yield* pending;
}
