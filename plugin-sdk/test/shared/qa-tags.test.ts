import { describe, expect, it } from 'vitest';
import { checkTags, qaProblemsText, tagRuns, tagTokens } from '../../src/shared/index.js';
import { seededRandom } from '../../src/testing/index.js';

const WORDS = ['the', 'printer', 'is', 'ready', '打印机', '已就绪', 'x²', '3.5', 'café'];

/** A random source: words with nested pairs and standalone marks, numbered 1..n, each once. */
function randomSource(random: () => number): string {
  let n = 0;
  const part = (depth: number): string => {
    const out: string[] = [];
    const items = 1 + Math.floor(random() * 4);
    for (let i = 0; i < items; i++) {
      const r = random();
      if (r < 0.25 && depth < 3) {
        const id = ++n;
        out.push(`<${id}>${part(depth + 1)}</${id}>`);
      } else if (r < 0.35) out.push(`<${++n}/>`);
      else out.push(WORDS[Math.floor(random() * WORDS.length)]!);
    }
    return out.join(random() < 0.5 ? ' ' : '');
  };
  return part(0);
}

/** The source with its words shuffled and replaced, its tags (and their nesting) kept. */
function permuteText(source: string, random: () => number): string {
  return tagRuns(source)
    .map((r) => (r.tag ? r.text : r.text.split(' ').sort(() => random() - 0.5).map((w) => (random() < 0.3 ? WORDS[Math.floor(random() * WORDS.length)] : w)).join(' ')))
    .join('');
}

describe('checkTags', () => {
  it('passes translations that keep the tags and fails any that lose, duplicate or cross one (500 seeded sources)', () => {
    const random = seededRandom(2204);
    let tried = 0;
    let crossed = 0;
    for (let i = 0; i < 500; i++) {
      const source = randomSource(random);
      const tags = tagTokens(source);
      expect(tagRuns(source).map((r) => r.text).join('')).toBe(source);
      expect(checkTags(source, permuteText(source, random))).toEqual([]);
      if (tags.length === 0) continue;
      tried++;
      const victim = tags[Math.floor(random() * tags.length)]!;
      const cut = source.slice(0, victim.index) + source.slice(victim.index + victim.text.length);
      expect(checkTags(source, cut).map((p) => p.key)).toContain('qa.tags.missing');
      const twice = source.slice(0, victim.index) + victim.text + source.slice(victim.index);
      expect(checkTags(source, twice).map((p) => p.key)).toContain('qa.tags.duplicated');
      const glyph = source.replace(victim.text, victim.kind === 'close' ? `⟨/${victim.id}⟩` : victim.kind === 'standalone' ? `⟨${victim.id}/⟩` : `⟨${victim.id}⟩`);
      expect(checkTags(source, glyph).map((p) => p.key)).toEqual(expect.arrayContaining(['qa.tags.missing', 'qa.tags.lookalike']));
      for (const p of checkTags(source, glyph)) expect(p).toMatchObject({ check: 'tags', severity: 'error' });
      // Crossing: of a pair inside another, the two closings swap places.
      const closes = tags.filter((t) => t.kind === 'close');
      const outer = closes.find((a) => closes.some((b) => b.index < a.index && source.indexOf(`<${b.id}>`) > source.indexOf(`<${a.id}>`)));
      if (outer) {
        crossed++;
        const inner = closes.find((b) => b.index < outer.index && source.indexOf(`<${b.id}>`) > source.indexOf(`<${outer.id}>`))!;
        const swapped = source.slice(0, inner.index) + outer.text + source.slice(inner.index + inner.text.length, outer.index) + inner.text + source.slice(outer.index + outer.text.length);
        expect(checkTags(source, swapped).map((p) => p.key)).toEqual(['qa.tags.misnested']);
      }
    }
    expect(tried).toBeGreaterThan(200);
    expect(crossed).toBeGreaterThan(30);
  });

  it('names misnested, unclosed and reversed pairs, extra tags and look-alikes', () => {
    const source = '<1>bold <2>and italic</2></1> then <3/>';
    expect(checkTags(source, '<1>gras <2>et italique</1></2> puis <3/>')).toEqual([{ check: 'tags', severity: 'error', key: 'qa.tags.misnested', params: { tag: '<1>', other: '<2>' } }]);
    expect(checkTags(source, '</1>gras<1> <2>et</2> <3/>').map((p) => p.key)).toEqual(['qa.tags.unopened', 'qa.tags.unclosed']);
    expect(checkTags(source, '<1>gras <2>et</2></1> <3/><4/>').map((p) => [p.key, p.params.tag])).toEqual([['qa.tags.extra', '<4/>']]);
    expect(checkTags(source, '<1>gras <2>et</2></1> <3/> ＜3＞ &lt;1&gt;').map((p) => [p.key, p.params.tag])).toEqual([
      ['qa.tags.lookalike', '＜3＞'],
      ['qa.tags.lookalike', '&lt;1&gt;'],
    ]);
    // A look-alike the source itself has is text, kept as such.
    expect(checkTags('see ⟨1⟩ <1>here</1>', 'voir ⟨1⟩ <1>ici</1>')).toEqual([]);
    expect(checkTags('no tags', 'aucune')).toEqual([]);
  });

  it('says which tag in both languages', () => {
    const problems = checkTags('<1>a</1>', 'a');
    expect(qaProblemsText(problems, 'en-US')).toBe('The tags of the translation do not match the source: tag <1> is missing; tag </1> is missing');
    expect(qaProblemsText(problems, 'zh-CN')).toBe('译文的标记与原文不一致：缺少标记 <1>；缺少标记 </1>');
  });
});
