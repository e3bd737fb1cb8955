/**
 * Tag protection for the engine: the SDK's `toEngineHtml` / `fromEngineHtml` (placeholders as inline
 * html elements an engine keeps in place); the pipeline applies them to segments sent with the format
 * `placeholders`. Here: what this area needs besides.
 */
export { fromEngineHtml, needsHtml, toEngineHtml } from '@linguaport/sdk/shared';

const PLACEHOLDER = /<(\/?)(\d+)(\/?)>/g;

/** The text without its placeholders (what a reader sees; tables and counts use it). */
export function plainText(text: string): string {
  return text.replace(PLACEHOLDER, '');
}

/** True when the unit has something for an engine: a letter outside placeholders (numbers alone stay as they are). */
export function hasWords(text: string): boolean {
  return /\p{L}/u.test(plainText(text));
}

/** Characters a reader sees (code points without placeholders and line breaks), as usage counts them. */
export function visibleCharacters(text: string): number {
  let n = 0;
  for (const ch of plainText(text)) if (ch !== '\n' && ch !== '\r') n++;
  return n;
}
