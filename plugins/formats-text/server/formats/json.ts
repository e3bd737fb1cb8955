import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { decodeText, encodeText, FormatError, textOf, textWithPlaceholders, UnitText, writePieces, type Encoding, type Piece } from './text.js';

/**
 * JSON resource files. Every string value with text is a unit (keys never are); its id and
 * `context.part` are its JSON pointer (`/menu/items/0/label`). The file is tokenized here with the
 * offsets of each string, and a changed unit is written over its own span, so indentation, key order,
 * numbers and the escapes of every other string stay byte for byte. Written strings are JSON-escaped
 * (non-ASCII as `\uXXXX` when the file itself is written that way). printf, ICU and `{{var}}`
 * placeholders are standalone placeholders.
 */

interface Skeleton {
  encoding: Encoding;
  pieces: Piece[];
  asciiOnly: boolean;
}

const MAX_DEPTH = 512;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITE = /[ \t\n\r]*/y;

interface JsonString {
  start: number;
  end: number;
  value: string;
  pointer: string;
}

/** The string values of a JSON text with their spans; throws where the text stops being JSON. */
function stringValues(text: string): JsonString[] {
  const out: JsonString[] = [];
  let pos = 0;
  const where = (at: number) => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    return `line ${line} column ${at - before.lastIndexOf('\n')}`;
  };
  const fail = (expected: string): never => {
    const found = pos >= text.length ? 'the end of the file' : JSON.stringify(text.slice(pos, pos + 12));
    throw new FormatError('json', `invalid JSON at ${where(pos)}: expected ${expected}, found ${found}`);
  };
  const white = () => {
    WHITE.lastIndex = pos;
    WHITE.exec(text);
    pos = WHITE.lastIndex;
  };
  const string = (): { value: string; start: number } => {
    STRING.lastIndex = pos;
    const m = STRING.exec(text);
    if (!m) fail('a complete string');
    const start = pos;
    pos = STRING.lastIndex;
    return { value: JSON.parse(m![0]) as string, start };
  };
  const value = (pointer: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw new FormatError('json', `nesting deeper than ${MAX_DEPTH} levels at ${where(pos)}`);
    white();
    const c = text[pos];
    if (c === '"') {
      const { value: v, start } = string();
      out.push({ start, end: pos, value: v, pointer });
    } else if (c === '{') {
      pos++;
      white();
      if (text[pos] === '}') {
        pos++;
        return;
      }
      for (;;) {
        white();
        if (text[pos] !== '"') fail('a key in double quotes');
        const key = string().value;
        white();
        if (text[pos] !== ':') fail('":"');
        pos++;
        value(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
        white();
        if (text[pos] === ',') pos++;
        else if (text[pos] === '}') {
          pos++;
          return;
        } else fail('"," or "}"');
      }
    } else if (c === '[') {
      pos++;
      white();
      if (text[pos] === ']') {
        pos++;
        return;
      }
      for (let i = 0; ; i++) {
        value(`${pointer}/${i}`, depth + 1);
        white();
        if (text[pos] === ',') pos++;
        else if (text[pos] === ']') {
          pos++;
          return;
        } else fail('"," or "]"');
      }
    } else if (text.startsWith('true', pos)) pos += 4;
    else if (text.startsWith('false', pos)) pos += 5;
    else if (text.startsWith('null', pos)) pos += 4;
    else {
      NUMBER.lastIndex = pos;
      if (!NUMBER.exec(text)) fail('a value');
      pos = NUMBER.lastIndex;
    }
  };
  value('', 0);
  white();
  if (pos < text.length) fail('the end of the file');
  return out;
}

/** A JSON string literal, its non-ASCII characters escaped when the file keeps to ASCII. */
function jsonString(value: string, asciiOnly: boolean): string {
  const literal = JSON.stringify(value);
  return asciiOnly ? literal.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : literal;
}

export const jsonFormat: FileFormat = {
  id: 'json',
  name: 'JSON',
  extensions: ['json'],
  mimeTypes: ['application/json'],
  sniff(bytes) {
    const text = textOf(bytes);
    if (text === null) return false;
    try {
      stringValues(text.replace(/^\uFEFF/, ''));
      return true;
    } catch {
      return false;
    }
  },
  async parse(bytes): Promise<ParsedFile> {
    const { text, encoding } = decodeText(bytes, 'json');
    const strings = stringValues(text);
    const pieces: Piece[] = [];
    const units: TranslationUnit[] = [];
    const ids = new Set<string>();
    let last = 0;
    for (const s of strings) {
      if (!s.value.trim()) continue;
      let id = s.pointer;
      // A key given twice (allowed by the grammar) would give two units one id.
      for (let n = 2; ids.has(id); n++) id = `${s.pointer}#${n}`;
      ids.add(id);
      const unit = new UnitText();
      textWithPlaceholders(unit, s.value);
      const { source, tags } = unit.build();
      pieces.push(text.slice(last, s.start), { unit: id, raw: text.slice(s.start, s.end) });
      last = s.end;
      units.push({ id, source, tags, context: { part: s.pointer, position: units.length + 1 } });
    }
    pieces.push(text.slice(last));
    const asciiOnly = /\\u00[89a-fA-F][0-9a-fA-F]|\\u0[1-9a-fA-F][0-9a-fA-F]{2}|\\u[1-9a-fA-F][0-9a-fA-F]{3}/.test(text) && !/[^\u0000-\u007f]/.test(text);
    return { format: 'json', units, skeleton: { encoding, pieces, asciiOnly } satisfies Skeleton };
  },
  async write(file, units) {
    const skeleton = file.skeleton as Skeleton;
    const text = writePieces(skeleton.pieces, file.units, units, (t, u) => jsonString(restoreTags(t, u.tags), skeleton.asciiOnly));
    return encodeText(text, skeleton.encoding);
  },
};
