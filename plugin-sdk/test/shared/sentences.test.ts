import { afterEach, describe, expect, it } from 'vitest';
import { checkTags, sentencePairs, sentencePieces, splitSentences } from '../../src/shared/index.js';
import { seededRandom } from '../../src/testing/formats.js';

const sentences = (text: string, lang = 'en') => [...splitSentences(text, lang)].map((s) => s.text.trim());
const cut = (text: string, lang = 'en') => sentencePieces(text, lang).flatMap((p) => ('sentence' in p ? [p.sentence] : []));

describe('sentence exceptions (SRX style, per language)', () => {
  it('does not cut after abbreviations, initials and inside numbers', () => {
    expect(sentences('It costs 3.5 dollars, or 1,234.56 in all. Next one.')).toEqual(['It costs 3.5 dollars, or 1,234.56 in all.', 'Next one.']);
    expect(sentences('He works for the U.S. Army now. Dr. Smith agrees, e.g. on Monday. Yes.')).toEqual(['He works for the U.S. Army now.', 'Dr. Smith agrees, e.g. on Monday.', 'Yes.']);
    expect(sentences('J. R. R. Tolkien wrote it. Done.')).toEqual(['J. R. R. Tolkien wrote it.', 'Done.']);
    // ...but a stop after them still ends a sentence when a new one starts.
    expect(sentences('He moved to the U.S. Then he worked.')).toEqual(['He moved to the U.S.', 'Then he worked.']);
    expect(sentences('Version 2. Then it broke.')).toEqual(['Version 2.', 'Then it broke.']);
  });

  it('knows each language its own abbreviations and ordinals', () => {
    expect(sentences('Er kam am 3. Mai z.B. mit Dr. Müller usw. nach Hause. Gut.', 'de')).toEqual(['Er kam am 3. Mai z.B. mit Dr. Müller usw. nach Hause.', 'Gut.']);
    expect(sentences('Das war 2020. Dann kam er.', 'de')).toEqual(['Das war 2020.', 'Dann kam er.']);
    expect(sentences('Il est venu avec M. Dupont. Bien.', 'fr')).toEqual(['Il est venu avec M. Dupont.', 'Bien.']);
    expect(sentences('La Sra. García llegó. Bien.', 'es')).toEqual(['La Sra. García llegó.', 'Bien.']);
  });
});

describe('sentencePieces: a unit with inline placeholders', () => {
  it('cuts a paragraph into sentences and gives it back joined', () => {
    const text = 'The red car is fast. Another new sentence.';
    expect(sentencePieces(text, 'en')).toEqual([{ sentence: 'The red car is fast.' }, { raw: ' ' }, { sentence: 'Another new sentence.' }]);
  });

  it('keeps tags inside their sentence and never leaves a pair open across a cut', () => {
    expect(cut('Click <1>Save</1> now. <2>Bold</2> starts here. Then <3/>stop.')).toEqual(['Click <1>Save</1> now.', '<2>Bold</2> starts here.', 'Then <3/>stop.']);
    // A pair spanning a sentence end is not cut: the two sentences travel (and are looked up) together.
    expect(cut('One <1>two. Three</1> four. Five.')).toEqual(['One <1>two. Three</1> four.', 'Five.']);
    // A line break (standalone tag) separates sentences; tags at a sentence's edges and a pair wrapping it stay outside it.
    expect(sentencePieces('End here.<1/>Next one <2/>goes.<3/>')).toEqual([{ sentence: 'End here.' }, { raw: '<1/>' }, { sentence: 'Next one <2/>goes.' }, { raw: '<3/>' }]);
    expect(sentencePieces('<1>Bold sentence.</1> <2><3>Two.</3></2> Three <4>four</4>.')).toEqual([
      { raw: '<1>' },
      { sentence: 'Bold sentence.' },
      { raw: '</1> <2><3>' },
      { sentence: 'Two.' },
      { raw: '</3></2> ' },
      { sentence: 'Three <4>four</4>.' },
    ]);
    // Starting with a pair and ending with one is not being wrapped by one.
    expect(cut('<1>A</1> b <1>c.</1> Next.')).toEqual(['<1>A</1> b <1>c.</1>', 'Next.']);
    // Tags with no word between them are no sentence.
    expect(sentencePieces('<1/>  <2/>')).toEqual([{ raw: '<1/>  <2/>' }]);
  });

  it('rejoins to the source and keeps every sentence tag-valid (seeded)', () => {
    const random = seededRandom(22);
    const words = ['Dr.', 'Smith', 'paid', '3.5', 'dollars.', 'It', 'works', 'e.g.', 'here!', 'Why?', 'The', 'U.S.', 'Army', 'ends.'];
    for (let round = 0; round < 300; round++) {
      let text = '';
      let n = 0;
      const open: number[] = [];
      for (let i = 0; i < 4 + Math.floor(random() * 14); i++) {
        const r = random();
        if (r < 0.12) {
          open.push(++n);
          text += `<${n}>`;
        } else if (r < 0.2 && open.length) text += `</${open.pop()}>`;
        else if (r < 0.25) text += `<${++n}/>`;
        text += `${words[Math.floor(random() * words.length)]} `;
      }
      while (open.length) text += `</${open.pop()}>`;
      const pieces = sentencePieces(text, 'en');
      expect(pieces.map((p) => ('raw' in p ? p.raw : p.sentence)).join('')).toBe(text);
      for (const p of pieces) if ('sentence' in p) expect(checkTags(p.sentence, p.sentence), p.sentence).toEqual([]);
    }
  });
});

describe('sentencePairs: an edited paragraph written to a memory', () => {
  it('pairs sentences in order when both sides cut alike, and gives up otherwise', () => {
    expect(sentencePairs('The red car is fast. Click <1>Save</1>.', 'El coche rojo es rápido. Pulse <1>Guardar</1>.', 'en', 'es')).toEqual([
      { source: 'The red car is fast.', target: 'El coche rojo es rápido.' },
      { source: 'Click <1>Save</1>.', target: 'Pulse <1>Guardar</1>.' },
    ]);
    expect(sentencePairs('One. Two.', 'Uno y dos.', 'en', 'es')).toBeNull();
    expect(sentencePairs('A <1>b</1>. C.', 'A. C <1>b</1>.', 'en', 'es')).toBeNull();
    expect(sentencePairs('今天天气很好。我们去公园吧！', 'The weather is fine today. Let us go to the park!', 'zh-CN', 'en')).toHaveLength(2);
  });
});

describe('segmenters', () => {
  const Real = Intl.Segmenter;
  // Intl's members are read-only to TypeScript; the test swaps the constructor to count what is made.
  const intl = Intl as { Segmenter: typeof Intl.Segmenter };
  afterEach(() => {
    intl.Segmenter = Real;
  });

  it('makes one segmenter per language, not one per call (a text is split line by line)', () => {
    let made = 0;
    intl.Segmenter = class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made++;
      }
    };
    for (let i = 0; i < 50; i++) expect(sentences(`Line ${i} is here. It ends.`, 'en-x-cache')).toEqual([`Line ${i} is here.`, 'It ends.']);
    expect(made).toBe(1);
    // An unknown tag falls back to English's segmenter, made once too.
    for (let i = 0; i < 5; i++) expect(sentences('One. Two.', 'not a language!')).toEqual(['One.', 'Two.']);
    expect(made).toBe(2);
  });
});
