import { decodeEntities } from '@linguaport/sdk/interchange';
import { FormatError } from './text.js';

/**
 * An XML scanner that keeps where each token is in the text, so a writer can replace one element's
 * content and leave every other byte alone. It checks what the formats need to trust their reading:
 * tags balanced, one root, entities known; the DOCTYPE is skipped, not processed.
 */

export type XmlPart =
  | { kind: 'open'; name: string; attrs: Record<string, string>; selfClosing: boolean; start: number; end: number }
  | { kind: 'close'; name: string; start: number; end: number }
  | { kind: 'text'; text: string; start: number; end: number }
  | { kind: 'other'; start: number; end: number };

const ATTR = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

export function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** `line 3, column 14` (1-based) of an offset, as a reader finds it in an editor. */
export function positionAt(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return `line ${lineAt(text, at)}, column ${at - lineStart + 1}`;
}

export function scanXml(text: string, format: string): XmlPart[] {
  const out: XmlPart[] = [];
  const stack: Array<{ name: string; at: number }> = [];
  let rootSeen = false;
  const fail = (at: number, message: string): never => {
    throw new FormatError(format, `${message} (${positionAt(text, at)})`);
  };
  const decode = (raw: string, at: number) => {
    try {
      return decodeEntities(raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw);
    } catch (err) {
      return fail(at, `not well-formed XML: ${(err as Error).message}`);
    }
  };
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const stop = lt === -1 ? text.length : lt;
    if (stop > i) {
      const raw = text.slice(i, stop);
      if (!stack.length && raw.trim()) fail(i, 'not well-formed XML: text outside the root element');
      out.push({ kind: 'text', text: decode(raw, i), start: i, end: stop });
      i = stop;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) fail(i, 'the file ends inside a comment');
      out.push({ kind: 'other', start: i, end: end + 3 });
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end === -1) fail(i, 'the file ends inside a CDATA section');
      if (!stack.length) fail(i, 'not well-formed XML: CDATA outside the root element');
      out.push({ kind: 'text', text: text.slice(i + 9, end).replace(/\r\n?/g, '\n'), start: i, end: end + 3 });
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end === -1) fail(i, 'the file ends inside a processing instruction');
      out.push({ kind: 'other', start: i, end: end + 2 });
      i = end + 2;
    } else if (text.startsWith('<!', i)) {
      let depth = 0;
      let j = i + 2;
      for (; j < text.length; j++) {
        const c = text[j];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (j >= text.length) fail(i, 'the file ends inside a declaration');
      out.push({ kind: 'other', start: i, end: j + 1 });
      i = j + 1;
    } else {
      let quote = '';
      let j = i + 1;
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
        else if (c === '<') fail(j, 'not well-formed XML: "<" inside a tag');
      }
      if (j >= text.length) fail(i, 'the file ends inside a tag');
      const raw = text.slice(i, j + 1);
      if (raw[1] === '/') {
        const name = raw.slice(2, -1).trim();
        const open = stack.pop();
        if (open?.name !== name) fail(i, open ? `not well-formed XML: </${name}> closes <${open.name}> opened at ${positionAt(text, open.at)}` : `not well-formed XML: </${name}> closes nothing`);
        out.push({ kind: 'close', name, start: i, end: j + 1 });
      } else {
        const selfClosing = raw[raw.length - 2] === '/';
        const body = raw.slice(1, selfClosing ? -2 : -1);
        const name = /^[^\s/>]+/.exec(body)?.[0];
        if (!name || !/^[A-Za-z_:][\w.:-]*$/.test(name)) fail(i, `not well-formed XML: a malformed tag ${JSON.stringify(raw.slice(0, 30))}`);
        if (!stack.length && rootSeen) fail(i, `not well-formed XML: a second root element <${name}>`);
        rootSeen = true;
        const attrs: Record<string, string> = {};
        const rest = body.slice(name!.length);
        // Well-formedness: each attribute once, nothing but name="value" pairs in a tag.
        if (rest.replace(ATTR, ' ').trim()) fail(i, `not well-formed XML: a malformed attribute in <${name}>: ${JSON.stringify(rest.replace(ATTR, ' ').trim().slice(0, 30))}`);
        for (const a of rest.matchAll(ATTR)) {
          if (Object.prototype.hasOwnProperty.call(attrs, a[1]!)) fail(i + 1 + name!.length + a.index!, `not well-formed XML: the attribute ${a[1]} is given twice on <${name}>`);
          attrs[a[1]!] = decode(a[3] ?? a[4] ?? '', i);
        }
        out.push({ kind: 'open', name: name!, attrs, selfClosing, start: i, end: j + 1 });
        if (!selfClosing) stack.push({ name: name!, at: i });
      }
      i = j + 1;
    }
  }
  if (stack.length) {
    const open = stack[stack.length - 1]!;
    throw new FormatError(format, `not well-formed XML: the file ends before </${open.name}> (is it truncated?), the element opened at ${positionAt(text, open.at)}`);
  }
  if (!rootSeen) throw new FormatError(format, 'no root element: the file is not XML');
  return out;
}

/** A start tag with one attribute set (replaced where it is, else added before the tag's end). */
export function setAttribute(tag: string, name: string, value: string, escape: (s: string) => string): string {
  const re = new RegExp(`(\\s${name.replace(/[.:-]/g, '\\$&')}\\s*=\\s*)("[^"]*"|'[^']*')`);
  if (re.test(tag)) return tag.replace(re, (_m, head: string) => `${head}"${escape(value)}"`);
  const end = tag.endsWith('/>') ? tag.length - 2 : tag.length - 1;
  const before = tag.slice(0, end).replace(/\s+$/, '');
  return `${before} ${name}="${escape(value)}"${tag.slice(end)}`;
}

/** A start tag without one attribute (unchanged when it has none). */
export function removeAttribute(tag: string, name: string): string {
  return tag.replace(new RegExp(`\\s${name.replace(/[.:-]/g, '\\$&')}\\s*=\\s*("[^"]*"|'[^']*')`), '');
}
