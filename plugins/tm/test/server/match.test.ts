// Database: none
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@linguaport/sdk/testing';
import { BitPattern } from '../../server/match/bit-pattern.js';
import { contains, highlights } from '../../server/match/concordance.js';
import { MemoryIndex } from '../../server/match/memory-index.js';
import { editDistance, PENALTY, scoreHashes, scoreText } from '../../server/match/score.js';
import { exactKey, fingerprint, normalise, tokenize } from '../../server/match/text.js';
import { loadVocabulary, SentenceMaker } from '../../bench/support/sentences.js';

// The memory's matching on its own: the exact tier's normalising, the fuzzy score (OmegaT's token edit
// distance with penalties), the differences shown, the candidate search against a brute-force scan, and
// the concordance's highlighting.

describe('exact tier', () => {
  it('folds case, white space, punctuation variants and full- and half-width forms', () => {
    const same = [
      ['Press “Save” – now…', 'press "save" - now...'],
      ['  The   red\tcar\u00a0is here. ', 'The red car is here.'],
      ['ＡＢＣ　１２３！', 'abc 123!'],
      ['你好，世界。', '你好,世界.'],
      ['It’s ‘fine’', "it's 'fine'"],
    ];
    for (const [a, b] of same) {
      expect(normalise(a!), a).toBe(normalise(b!));
      expect(exactKey(a!), a).toBe(exactKey(b!));
    }
    expect(exactKey('Save the file.')).not.toBe(exactKey('Save the files.'));
    expect(exactKey('Press <1>Save</1>')).not.toBe(exactKey('Press Save'));
  });
});

describe('fuzzy score', () => {
  it('scores the same text 100, one word of four changed 75, and ranks closer texts higher', () => {
    expect(scoreText('The red car is fast.', 'the red car is fast.').score).toBe(100);
    expect(scoreText('The blue car runs', 'The red car runs').score).toBe(75);
    const query = 'Click the button to save the document now';
    const near = scoreText(query, 'Click the button to save the file now').score;
    const far = scoreText(query, 'Click here to open a document').score;
    expect(near).toBe(88);
    expect(far).toBeLessThan(near);
    expect(scoreText('completely different words', 'nothing alike at all here').score).toBe(0);
  });

  it('takes points off for numbers and tags that differ, and a little for punctuation', () => {
    const plain = scoreText('Open page one of the manual now', 'Open page two of the manual now').score;
    const number = scoreText('Open page 1 of the manual now', 'Open page 2 of the manual now').score;
    expect(number).toBe(plain - PENALTY.number);
    const tag = scoreText('Open <1>page</1> one of the manual', 'Open page one of the manual').score;
    expect(tag).toBe(Math.round((100 * 6) / 8) - 2 * PENALTY.tag);
    expect(scoreText('Save the file.', 'Save the file').score).toBe(99);
    expect(scoreText('Save the file!?', 'Save the file').score).toBe(98);
    // Only whitespace around a mark differs: same tokens, not the same text.
    expect(scoreText('Save , then close', 'Save, then close').score).toBe(99);
  });

  it('compares Chinese character by character', () => {
    expect(scoreText('我们的合同今天结束', '我们的合同明天结束').score).toBe(89);
    expect(scoreText('我们的合同今天结束。', '我们的合同今天结束。').score).toBe(100);
    expect(tokenize('合同2024年').map((t) => t.key)).toEqual(['合', '同', '2024', '年']);
  });

  it('shows what turns the memory source into the query, on the original texts', () => {
    const query = 'Press the red button twice.';
    const source = 'Press the green button.';
    const { diff } = scoreText(query, source);
    expect(diff.filter((d) => d.op !== 'insert').map((d) => d.text).join('')).toBe(source);
    // Kept text is the source's own; with the insertions it reads as the query (spacing aside).
    expect(diff.filter((d) => d.op !== 'delete').map((d) => d.text).join('').replace(/\s+/g, '')).toBe(query.replace(/\s+/g, ''));
    expect(diff.filter((d) => d.op === 'delete').map((d) => d.text.trim())).toEqual(['green']);
    expect(diff.filter((d) => d.op === 'insert').map((d) => d.text.trim())).toEqual(['red', 'twice']);
  });

  it('computes the same token edit distance bit-parallel as with the full table (seeded, lengths past 64)', () => {
    const random = seededRandom(99);
    for (let i = 0; i < 600; i++) {
      const n = Math.floor(random() * 90);
      const m = Math.floor(random() * 90);
      const alphabet = 1 + Math.floor(random() * 12);
      const a = Int32Array.from({ length: n }, () => Math.floor(random() * alphabet));
      const b = Int32Array.from({ length: m }, () => Math.floor(random() * alphabet));
      const full = editDistance(a, n, b, m);
      expect(new BitPattern(a).distance(b, 0, m, m, 1000), `case ${i}`).toBe(full);
      // With a limit it answers the distance when within it, else something above it.
      const limit = Math.floor(random() * 20);
      const bounded = new BitPattern(a).distance(b, 0, m, m, limit);
      if (full <= limit) expect(bounded).toBe(full);
      else expect(bounded).toBeGreaterThan(limit);
    }
  });
});

describe('candidate search', () => {
  const random = seededRandom(2024);
  const vocabulary = loadVocabulary(random);
  const maker = new SentenceMaker(vocabulary, random);
  const memory: string[] = [];
  const words: string[][] = [];
  for (let i = 0; i < 6000; i++) {
    const w = maker.words();
    words.push(w);
    memory.push(maker.text(w));
  }
  const prints = memory.map(fingerprint);

  /** Every entry scored: the best scores at or above `min`, and which ids reach each. */
  function bruteForce(query: string, min: number): Array<{ id: number; score: number }> {
    const q = fingerprint(query);
    const all: Array<{ id: number; score: number }> = [];
    prints.forEach((p, i) => {
      const s = scoreHashes(q, p, min);
      if (s >= min) all.push({ id: i + 1, score: s });
    });
    return all.sort((a, b) => b.score - a.score || b.id - a.id);
  }

  it('finds every match of 75 or more that a full scan finds, with the same scores, in both its packed and fresh parts', () => {
    const index = new MemoryIndex();
    prints.forEach((p, i) => index.add(i + 1, p));
    index.pack();
    // A few thousand more after packing live in the unpacked lists.
    const later = prints.length;
    for (let i = 0; i < 1500; i++) {
      const w = maker.words();
      words.push(w);
      memory.push(maker.text(w));
      prints.push(fingerprint(memory[memory.length - 1]!));
      index.add(later + i + 1, prints[prints.length - 1]!);
    }
    let withMatch = 0;
    for (let i = 0; i < 300; i++) {
      const query = random() < 0.75 ? maker.text(maker.variant(words[Math.floor(random() * words.length)]!)) : maker.text(maker.words());
      const got = index.search(fingerprint(query), { limit: 5, minScore: 50 });
      const want = bruteForce(query, 75).slice(0, 5);
      if (want.length) withMatch++;
      // Scores of 75 or more: exactly the full scan's top scores (ids may differ only among equal scores).
      const gotHigh = got.filter((h) => h.score >= 75).map((h) => h.score);
      expect(gotHigh, query).toEqual(want.map((h) => h.score));
      for (const h of got) expect(scoreHashes(fingerprint(query), prints[h.id - 1]!), query).toBe(h.score);
    }
    expect(withMatch).toBeGreaterThan(150);
  });

  it('ranks by score and on equal scores the newer entry first', () => {
    const index = new MemoryIndex();
    index.add(1, fingerprint('The invoice is overdue since March.'));
    index.add(2, fingerprint('The invoice is overdue.'));
    index.add(3, fingerprint('The invoice is overdue since May.'));
    index.add(4, fingerprint('A completely unrelated sentence here.'));
    const hits = index.search(fingerprint('The invoice is overdue since April.'), { minScore: 50 });
    expect(hits.map((h) => h.id)).toEqual([3, 1, 2]);
    expect(hits[0]!.score).toBe(hits[1]!.score);
  });

  it('forgets removed entries and finds changed ones by their new text, before and after packing', () => {
    const index = new MemoryIndex();
    index.add(10, fingerprint('Turn the valve to the left.'));
    index.add(11, fingerprint('Turn the valve to the right.'));
    index.add(12, fingerprint('Check the pressure gauge daily.'));
    expect(index.search(fingerprint('Turn the valve to the left.'))[0]).toEqual({ id: 10, score: 100 });
    index.remove(10);
    expect(index.search(fingerprint('Turn the valve to the left.')).map((h) => h.id)).toEqual([11]);
    index.add(11, fingerprint('Check the pressure gauge weekly.'));
    for (const pack of [false, true]) {
      if (pack) index.pack();
      expect(index.size).toBe(2);
      expect(index.search(fingerprint('Turn the valve to the right.'))).toEqual([]);
      expect(index.search(fingerprint('Check the pressure gauge weekly.')).map((h) => [h.id, h.score])).toEqual([[11, 100], [12, 80]]);
    }
    const compact = index.compacted();
    expect([...compact.entryIds()].sort()).toEqual([11, 12]);
  });
});

describe('concordance', () => {
  it('highlights a word or phrase in the original text, ignoring case, width and spacing', () => {
    const text = 'The Red  Car and the red car, and ＲＥＤ car.';
    expect(highlights(text, 'red car').map(([a, b]) => text.slice(a, b))).toEqual(['Red  Car', 'red car', 'ＲＥＤ car']);
    expect(highlights('合同已经结束，合同很长', '合同')).toEqual([[0, 2], [7, 9]]);
    expect(highlights('Emoji 😀 then word', 'then')).toEqual([[9, 13]]);
    expect(contains('Say “hello” twice', '"hello"')).toBe(true);
    expect(highlights('anything', '   ')).toEqual([]);
  });
});
