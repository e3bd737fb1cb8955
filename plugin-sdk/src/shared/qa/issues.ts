import { resolveLocale } from '../locale.js';

/**
 * The words of the pipeline hooks' segment issues, from their stable code and params, in the reader's
 * language: one text wherever a result is shown (text translation, the document view, later the CAT
 * editor). An unknown code reads as the hook's own message.
 */
const TEXTS: Record<string, { 'zh-CN': string; 'en-US': string }> = {
  'term-missing': { 'zh-CN': '术语“{{term}}”在译文中应译为“{{target}}”', 'en-US': 'The term “{{term}}” should read “{{target}}” in the translation' },
  'term-forbidden': { 'zh-CN': '译文使用了术语库禁用的译法“{{target}}”（原文“{{term}}”）', 'en-US': 'The translation uses “{{target}}”, which the term base forbids for “{{term}}”' },
  'term-not-applied': {
    'zh-CN': '术语“{{term}}”未能应用：译文中找不到引擎对它的译法，应译为“{{target}}”',
    'en-US': 'The term “{{term}}” could not be applied: the translation does not hold the engine’s wording of it; it should read “{{target}}”',
  },
  'term-agreement-unchecked': {
    'zh-CN': '术语“{{target}}”已代入，但无法检查该语言中其前后词语的性数一致',
    'en-US': 'The term “{{target}}” was put in, but the agreement of the words around it could not be checked for this language',
  },
};

export interface SegmentIssueLike {
  code: string;
  message: string;
  params?: Readonly<Record<string, string>>;
}

/** Whether the SDK words this code (else the hook's message is shown). */
export const knownIssue = (code: string) => code in TEXTS;

export function issueText(issue: SegmentIssueLike, locale: string | undefined): string {
  const text = TEXTS[issue.code];
  if (!text) return issue.message;
  return text[resolveLocale(locale ?? '')].replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => issue.params?.[name] ?? whole);
}
