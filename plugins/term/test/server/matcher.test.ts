// Database: none
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@linguaport/sdk/testing';
import { findAll, TermMatcher, type MatcherTerm } from '../../server/matcher.js';

// Term recognition without the database: longest match, case, whole words in spaced languages,
// substrings in Chinese and Japanese, several term bases, and a term base of 10,000 terms.

let id = 0;
const term = (source: string, target: string, extra: Partial<MatcherTerm> = {}): MatcherTerm => ({ id: ++id, libraryId: 1, source, target, forbidden: false, ...extra });
const found = (m: TermMatcher, text: string) => m.find(text).map((h) => [h.text, h.target, h.start, h.end]);

describe('term recognition', () => {
  it('prefers the longest term at a place and never overlaps hits', () => {
    const m = new TermMatcher([term('machine', 'máquina'), term('machine translation', 'traducción automática'), term('translation memory', 'memoria de traducción')]);
    expect(found(m, 'Machine translation memory')).toEqual([['Machine translation', 'traducción automática', 0, 19]]);
    expect(found(m, 'a machine and a translation memory.')).toEqual([
      ['machine', 'máquina', 2, 9],
      ['translation memory', 'memoria de traducción', 16, 34],
    ]);
  });

  it('ignores case and finds whole words only in languages written with spaces', () => {
    const m = new TermMatcher([term('car', 'coche'), term('e-mail', 'correo'), term('C++', 'C++')]);
    expect(found(m, 'The CAR, the Car and the car.').map((h) => h[0])).toEqual(['CAR', 'Car', 'car']);
    expect(m.find('Oscar has cars and a carpet; scar.')).toEqual([]);
    expect(found(m, 'Send an E-Mail, not e-mails.')).toEqual([['E-Mail', 'correo', 8, 14]]);
    expect(found(m, 'I write C++11 code')).toEqual([['C++', 'C++', 8, 11]]);
  });

  it('finds substrings in Chinese and Japanese, longest first', () => {
    const m = new TermMatcher([term('机器', 'machine'), term('机器翻译', 'machine translation'), term('翻訳', 'translation'), term('記憶', 'memory')]);
    expect(found(m, '我们使用机器翻译和机器。')).toEqual([
      ['机器翻译', 'machine translation', 4, 8],
      ['机器', 'machine', 9, 11],
    ]);
    expect(found(m, '機械翻訳と翻訳記憶')).toEqual([
      ['翻訳', 'translation', 2, 4],
      ['翻訳', 'translation', 5, 7],
      ['記憶', 'memory', 7, 9],
    ]);
    // Offsets count UTF-16 units: a character outside the basic plane before the hit counts two.
    expect(found(m, '𠀀机器')).toEqual([['机器', 'machine', 2, 4]]);
  });

  it('keeps the first of two terms with the same source, and the longest of several term bases', () => {
    const a = new TermMatcher([term('server', 'servidor', { libraryId: 1 }), term('Server', 'otro', { libraryId: 1 })]);
    const b = new TermMatcher([term('server farm', 'granja de servidores', { libraryId: 2 }), term('server', 'servidor B', { libraryId: 2, forbidden: true })]);
    expect(a.size).toBe(1);
    expect(findAll('a server farm and a server', [a, b]).map((h) => [h.text, h.termBaseId, h.forbidden])).toEqual([
      ['server farm', 2, false],
      ['server', 1, false],
    ]);
  });

  it('builds and searches a term base of 10,000 terms quickly', () => {
    const random = seededRandom(7);
    const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'qu', 'bor', 'len'];
    const word = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
    const terms: MatcherTerm[] = [];
    for (let i = 0; i < 10_000; i++) terms.push(term(Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(' '), `t${i}`));
    let t0 = performance.now();
    const m = new TermMatcher(terms);
    const built = performance.now() - t0;
    const text = Array.from({ length: 20_000 }, word).join(' ');
    t0 = performance.now();
    const hits = m.find(text);
    const searched = performance.now() - t0;
    console.log(`10,000 terms: built in ${built.toFixed(1)} ms; ${hits.length} hits in a text of 20,000 words in ${searched.toFixed(1)} ms`);
    expect(hits.length).toBeGreaterThan(100);
    // Each hit is what the text says at its place.
    for (const h of hits.slice(0, 200)) expect(text.slice(h.start, h.end).toLowerCase()).toBe(h.source.toLowerCase());
    expect(built + searched).toBeLessThan(5_000);
  });
});
