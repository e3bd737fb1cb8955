/**
 * Inline placeholders (`<1>bold</1>`, `<2/>`) as an engine can keep them. No engine understands the
 * placeholders: sent as text, Apertium takes `<1>` for words and moves or drops them. Text with
 * placeholders (or with `<`, `>`, `&`, which html would misread) therefore travels as html, each
 * paired placeholder an inline `<span data-t="n">` and each standalone one an `<img data-t="n">`
 * (engines keep inline elements in place and reorder them with their words), and comes back as
 * placeholders. The pipeline does this for segments sent with the format `placeholders`, so memories
 * and terms see the placeholders (as a memory holds them) and only the engine sees html.
 */

const PLACEHOLDER = /<(\/?)(\d+)(\/?)>/g;

export function needsHtml(text: string): boolean {
  return /[<>&]/.test(text);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Placeholder text as the html the engine gets. */
export function toEngineHtml(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    out += escapeHtml(text.slice(last, m.index));
    const n = m[2];
    out += m[3] ? `<img data-t="${n}">` : m[1] ? '</span>' : `<span data-t="${n}">`;
    last = m.index! + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function unescapeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/**
 * The engine's html back as placeholder text: our spans and images become their placeholders again
 * (a closing tag closes the innermost open span); any other markup an engine added is dropped, and
 * a placeholder the engine lost stays lost (the writer leaves its markup out rather than misplacing it).
 */
export function fromEngineHtml(html: string): string {
  const open: string[] = [];
  let out = '';
  let last = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)) {
    out += unescapeHtml(html.slice(last, m.index));
    last = m.index! + m[0].length;
    const closing = m[1] === '/';
    const name = m[2]!.toLowerCase();
    const n = /data-t\s*=\s*"?(\d+)"?/.exec(m[3] ?? '')?.[1];
    if (name === 'img' && n) out += `<${n}/>`;
    else if (name === 'span' && !closing) {
      open.push(n ?? '');
      if (n) out += `<${n}>`;
    } else if (name === 'span' && closing) {
      const top = open.pop();
      if (top) out += `</${top}>`;
    }
  }
  out += unescapeHtml(html.slice(last));
  // Spans the engine left open are closed where the text ends.
  while (open.length) {
    const top = open.pop();
    if (top) out += `</${top}>`;
  }
  return out;
}

/** The text without its placeholders: what a reader sees, and what usage counts. */
export function withoutPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, '');
}

/** Whether a text holds inline placeholders. */
export function hasPlaceholders(text: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  return PLACEHOLDER.test(text);
}
