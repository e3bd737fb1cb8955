// Database: none
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languageDetector } from '../../src/translation/text-tools.js';

/**
 * The held-out set (fixtures/detection/sentences.json): sentences written for this test, not taken
 * from the detector's training data, per language a set of 40 characters or more and one of 10 to 20.
 * `npm run bench -- text-tools` prints both figures.
 */
type Set = Record<string, { long: string[]; short: string[] }>;
const sentences = JSON.parse(readFileSync(new URL('../fixtures/detection/sentences.json', import.meta.url), 'utf8')) as Set;
const length = (s: string) => [...s].length;

describe('language detection on held-out sentences', () => {
  it('holds at least 20 languages with 10 long (40+ characters) and 10 short (10-20) sentences each', () => {
    expect(Object.keys(sentences).length).toBeGreaterThanOrEqual(20);
    for (const [lang, { long, short }] of Object.entries(sentences)) {
      expect(long.length, lang).toBeGreaterThanOrEqual(10);
      expect(short.length, lang).toBeGreaterThanOrEqual(10);
      for (const s of long) expect(length(s), s).toBeGreaterThanOrEqual(40);
      for (const s of short) expect([length(s) >= 10, length(s) <= 20], s).toEqual([true, true]);
    }
  });

  it('gets at least 97% of the long sentences right, with or without engines to prefer', async () => {
    const detector = await languageDetector();
    for (const engines of [[], ['en', 'es', 'ca', 'fr', 'zh-CN']]) {
      const misses: string[] = [];
      let n = 0;
      for (const [lang, { long }] of Object.entries(sentences)) {
        for (const s of long) {
          n++;
          const got = detector.detect(s, engines).language.split('-')[0];
          if (got !== lang) misses.push(`${lang} -> ${got}: ${s}`);
        }
      }
      expect((n - misses.length) / n, misses.join('\n')).toBeGreaterThanOrEqual(0.97);
    }
  });
});
