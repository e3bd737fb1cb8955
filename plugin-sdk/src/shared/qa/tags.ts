import type { Locale } from '../manifest.js';

/**
 * The start of the QA module (ARCHITECTURE "Where the human work lives"): each check answers a list of
 * problems of one shape, so later checks (numbers, whitespace, terms…) join the same list and every
 * editor and route shows and refuses them the same way. This file holds the tag check: a translation
 * must carry exactly the inline placeholders of its source (`<1>`…`</1>`, `<2/>`, see file-format.ts),
 * each pair well formed, and no typed look-alike (`⟨1⟩`) standing where a tag should be.
 */
export interface QaProblem {
  /** Which check found it: `tags`. */
  check: string;
  /** `error` blocks a save or a memory write; `warning` is shown only. */
  severity: 'error' | 'warning';
  /** The message key (`qa.tags.missing`…), turned into text by `qaProblemText`. */
  key: TagProblemKey;
  params: { tag: string; other?: string };
}

export type TagProblemKey = 'qa.tags.missing' | 'qa.tags.extra' | 'qa.tags.duplicated' | 'qa.tags.unclosed' | 'qa.tags.unopened' | 'qa.tags.misnested' | 'qa.tags.lookalike';

/** One placeholder of a unit's text. */
export interface TagToken {
  /** `open` `<1>`, `close` `</1>`, `standalone` `<2/>`. */
  kind: 'open' | 'close' | 'standalone';
  id: string;
  /** The placeholder as written. */
  text: string;
  index: number;
}

/** A run of a unit's text: plain text, or one placeholder. Editors render the tokens as chips. */
export type TagRun = { text: string; tag?: undefined } | { text: string; tag: TagToken };

const PLACEHOLDER = /<(\/?)(\d+)(\/?)>/g;

export function tagTokens(text: string): TagToken[] {
  return [...text.matchAll(PLACEHOLDER)]
    .filter((m) => !(m[1] && m[3]))
    .map((m) => ({ kind: m[3] ? 'standalone' : m[1] ? 'close' : 'open', id: m[2]!, text: m[0], index: m.index! }) as TagToken);
}

/** The text cut into plain runs and placeholder runs, in order; joining every `text` gives the input back. */
export function tagRuns(text: string): TagRun[] {
  const runs: TagRun[] = [];
  let last = 0;
  for (const tag of tagTokens(text)) {
    if (tag.index > last) runs.push({ text: text.slice(last, tag.index) });
    runs.push({ text: tag.text, tag });
    last = tag.index + tag.text.length;
  }
  if (last < text.length) runs.push({ text: text.slice(last) });
  return runs;
}

/** How the console draws a placeholder on a chip: `1`, `/1`, `1/`. */
export function tagLabel(tag: Pick<TagToken, 'kind' | 'id'>): string {
  return tag.kind === 'close' ? `/${tag.id}` : tag.kind === 'standalone' ? `${tag.id}/` : tag.id;
}

/**
 * Text that looks like a placeholder but is not one: the angle glyphs the paragraph view used to draw
 * (`⟨1⟩`, `⟨/1⟩`, `⟨2/⟩`), their cousins (`〈1〉`, `‹1›`, `＜1＞`, `«1»`) and escaped `&lt;1&gt;`. Typed or pasted,
 * such text would be saved as words and the formatting it stands for lost.
 */
const LOOKALIKE = /(?:[⟨〈‹＜«<]|&lt;)\s*\/?\s*\d+\s*\/?\s*(?:[⟩〉›＞»>]|&gt;)/g;

export function lookalikesOf(text: string): string[] {
  return [...text.matchAll(LOOKALIKE)].map((m) => m[0]).filter((s) => !/^<\/?\d+\/?>$/.test(s));
}

function counts(list: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of list) out.set(s, (out.get(s) ?? 0) + 1);
  return out;
}

/** Structural problems of a text's pairs: a close without its open, an open never closed, pairs that cross. */
function structure(text: string): QaProblem[] {
  const out: QaProblem[] = [];
  const open: TagToken[] = [];
  for (const t of tagTokens(text)) {
    if (t.kind === 'open') open.push(t);
    else if (t.kind === 'close') {
      const at = open.map((o) => o.id).lastIndexOf(t.id);
      if (at < 0) out.push(problem('qa.tags.unopened', t.text));
      else {
        // Anything opened after our open and still open crosses this pair.
        for (const inner of open.slice(at + 1)) out.push(problem('qa.tags.misnested', `<${t.id}>`, inner.text));
        open.splice(at, 1);
      }
    }
  }
  for (const o of open) out.push(problem('qa.tags.unclosed', o.text));
  return out;
}

const problem = (key: TagProblemKey, tag: string, other?: string): QaProblem => ({ check: 'tags', severity: 'error', key, params: other === undefined ? { tag } : { tag, other } });

/**
 * The tag check: what is wrong with `target`'s placeholders against `source`'s. Order may change (a
 * translation moves words), but every placeholder of the source must appear as often in the target,
 * none may be added, each pair must open before it closes and not cross another, and no look-alike
 * glyph may stand in the target that the source does not have. Empty when the tags match.
 */
export function checkTags(source: string, target: string): QaProblem[] {
  const out: QaProblem[] = [];
  const want = counts(tagTokens(source).map((t) => t.text));
  const have = counts(tagTokens(target).map((t) => t.text));
  for (const [tag, n] of want) if ((have.get(tag) ?? 0) < n) out.push(problem('qa.tags.missing', tag));
  for (const [tag, n] of have) {
    const w = want.get(tag) ?? 0;
    if (n > w) out.push(problem(w > 0 ? 'qa.tags.duplicated' : 'qa.tags.extra', tag));
  }
  // Pairs are judged only when the source's own are sound (a file's broken markup is not the translator's).
  if (structure(source).length === 0) {
    const listed = new Set(out.map((p) => p.params.tag));
    for (const p of structure(target)) if (p.key === 'qa.tags.misnested' || !listed.has(p.params.tag)) out.push(p);
  }
  const glyphs = counts(lookalikesOf(source));
  for (const [text, n] of counts(lookalikesOf(target))) if (n > (glyphs.get(text) ?? 0)) out.push(problem('qa.tags.lookalike', text));
  return out;
}

const TEXTS: Record<TagProblemKey, Record<Locale, (p: QaProblem['params']) => string>> = {
  'qa.tags.missing': { 'zh-CN': (p) => `缺少标记 ${p.tag}`, 'en-US': (p) => `tag ${p.tag} is missing` },
  'qa.tags.extra': { 'zh-CN': (p) => `原文中没有标记 ${p.tag}`, 'en-US': (p) => `tag ${p.tag} is not in the source` },
  'qa.tags.duplicated': { 'zh-CN': (p) => `标记 ${p.tag} 重复`, 'en-US': (p) => `tag ${p.tag} appears more often than in the source` },
  'qa.tags.unclosed': { 'zh-CN': (p) => `标记 ${p.tag} 未闭合`, 'en-US': (p) => `tag ${p.tag} is never closed` },
  'qa.tags.unopened': { 'zh-CN': (p) => `标记 ${p.tag} 在开始标记之前出现`, 'en-US': (p) => `tag ${p.tag} closes before it opens` },
  'qa.tags.misnested': { 'zh-CN': (p) => `标记 ${p.tag} 与 ${p.other} 交叉嵌套`, 'en-US': (p) => `tags ${p.tag} and ${p.other} cross each other` },
  'qa.tags.lookalike': { 'zh-CN': (p) => `“${p.tag}”看似标记，实为文字（请用键盘插入标记）`, 'en-US': (p) => `"${p.tag}" looks like a tag but is text (insert tags with the keyboard)` },
};

/** One problem as a sentence in `locale`. */
export function qaProblemText(p: QaProblem, locale: Locale): string {
  return TEXTS[p.key]?.[locale]?.(p.params) ?? p.key;
}

/** Every problem in one line, for a refusal: `The tags of the translation do not match the source: tag <1> is missing; …`. */
export function qaProblemsText(problems: QaProblem[], locale: Locale): string {
  const list = problems.map((p) => qaProblemText(p, locale));
  return locale === 'zh-CN' ? `译文的标记与原文不一致：${list.join('；')}` : `The tags of the translation do not match the source: ${list.join('; ')}`;
}

/** The refusal of a save or a memory write, in both interface languages (the kernel answers the caller's). */
export function qaRefusal(problems: QaProblem[]): Record<Locale, string> {
  return { 'zh-CN': qaProblemsText(problems, 'zh-CN'), 'en-US': qaProblemsText(problems, 'en-US') };
}

/** The problems that block a save or a memory write. */
export const blocking = (problems: QaProblem[]) => problems.filter((p) => p.severity === 'error');
