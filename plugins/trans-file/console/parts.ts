/**
 * A unit's `part` is written by the format readers in English words ("body", "footnote", "page 1",
 * "slide 3"): the document view shows them as translated labels. Anything else (a sheet's own name,
 * a JSON pointer, a subtitle cue's id) is the document's own text and is shown as it is.
 */
export const PART_WORDS = ['body', 'header', 'footer', 'footnote', 'endnote', 'comment', 'chart', 'diagram', 'properties', 'cells', 'sheet name'] as const;
export const PART_NUMBERED = ['page', 'slide', 'slide notes', 'layout', 'master', 'sheet', 'cue'] as const;

/** The i18n key (under `part.`) and its parameters for a reader's part label, or null for the document's own text. */
export function partKey(part: string): { key: string; params: { n?: string } } | null {
  const word = part.trim();
  if ((PART_WORDS as readonly string[]).includes(word)) return { key: `part.${word.replace(' ', '_')}`, params: {} };
  const numbered = /^(page|slide notes|slide|layout|master|sheet|cue) (\d+)$/.exec(word);
  if (numbered) return { key: `part.${numbered[1]!.replace(' ', '_')}N`, params: { n: numbered[2]! } };
  return null;
}

/** The label shown for a part in the reader's language. */
export function partLabel(part: string, t: (key: string, params?: Record<string, unknown>) => string): string {
  const known = partKey(part);
  return known ? t(known.key, known.params) : part;
}
