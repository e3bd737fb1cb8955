import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real-looking segment pairs without the network: English sentences drawn from a real word list
 * (Tesseract's English dictionary, unpacked from Debian's tesseract-ocr data with its own tools) with
 * English's own most frequent words at their frequencies and the rest on a Zipf curve, sentence lengths
 * as in running text (3 to 60 words, most 8 to 25), numbers and commas now and then; each with a
 * Chinese translation built from Tesseract's Chinese dictionary (one word per English word, stable).
 * A fallback syllable vocabulary stands in when the data files are missing.
 */

/** The 100 most frequent English words, most frequent first (about half of running text). */
const FREQUENT = (
  'the of and to a in is that for it as was with be by on not he this are or his from at which but have an they you were her she there ' +
  'one been all we their has would when if will more no so what can out who up its about into them than only said could other time ' +
  'new some these two may first then do any like my now over such our man me even most made after also did many before must through ' +
  'back years where much your way well down should because each just those people how too little state good very make world still own see'
).split(' ');

export type Random = () => number;

function tessWords(lang: 'eng' | 'chi_sim', dir: string): string[] {
  const data = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata'].map((d) => join(d, `${lang}.traineddata`)).find(existsSync);
  if (!data) return [];
  try {
    execFileSync('combine_tessdata', ['-u', data, join(dir, `${lang}.`)], { stdio: 'pipe' });
    const out = join(dir, `${lang}.txt`);
    execFileSync('dawg2wordlist', [join(dir, `${lang}.lstm-unicharset`), join(dir, `${lang}.lstm-word-dawg`), out], { stdio: 'pipe' });
    return readFileSync(out, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

export interface Vocabulary {
  english: string[];
  chinese: string[];
  source: 'tesseract' | 'syllables';
}

export function loadVocabulary(random: Random): Vocabulary {
  const dir = mkdtempSync(join(tmpdir(), 'tm-words-'));
  try {
    let english = tessWords('eng', dir).filter((w) => /^[a-z]{2,14}$/.test(w));
    let chinese = tessWords('chi_sim', dir).filter((w) => /^[\p{Script=Han}]{1,4}$/u.test(w));
    const source = english.length > 1000 && chinese.length > 1000 ? 'tesseract' : 'syllables';
    if (source === 'syllables') {
      const syl = ['ka', 'lo', 'mi', 'ser', 'tan', 'vo', 're', 'pi', 'nu', 'dal', 'gen', 'tor', 'bri', 'sa', 'qu', 'fel', 'mon', 'ra', 'ti', 'zen'];
      english = Array.from({ length: 50_000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syl[Math.floor(random() * syl.length)]).join(''));
      chinese = Array.from({ length: 20_000 }, () => String.fromCodePoint(0x4e00 + Math.floor(random() * 0x5000), 0x4e00 + Math.floor(random() * 0x5000)));
    }
    // A random order: ranks on the Zipf curve fall on words regardless of the list's alphabetic order.
    const frequent = new Set(FREQUENT);
    english = shuffle([...new Set(english)].filter((w) => !frequent.has(w)), random);
    return { english, chinese, source };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function shuffle<T>(xs: T[], random: Random): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

export class SentenceMaker {
  constructor(
    private readonly vocabulary: Vocabulary,
    private readonly random: Random,
  ) {}

  /** A content word: rank r drawn with probability ∝ 1/r (Zipf) over the whole list. */
  private contentWord(): string {
    const n = this.vocabulary.english.length;
    return this.vocabulary.english[Math.min(n - 1, Math.floor(Math.pow(n, this.random())) - 1)]!;
  }

  word(): string {
    const r = this.random();
    // Function words make about 45% of running text, the most frequent first (∝ 1/rank).
    if (r < 0.45) return FREQUENT[Math.min(FREQUENT.length - 1, Math.floor(Math.pow(FREQUENT.length, this.random())) - 1)]!;
    if (r < 0.47) return String(Math.floor(Math.pow(10, 1 + this.random() * 3)));
    return this.contentWord();
  }

  /** Words of a sentence: log-normal lengths around 15, 3 to 60. */
  words(length?: number): string[] {
    const gaussian = Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
    const n = length ?? Math.max(3, Math.min(60, Math.round(Math.exp(2.65 + 0.5 * gaussian))));
    return Array.from({ length: n }, () => this.word());
  }

  /** Words as written: a capital, a comma now and then, a full stop or a question mark. */
  text(words: string[]): string {
    let out = '';
    words.forEach((w, i) => {
      out += i === 0 ? w[0]!.toUpperCase() + w.slice(1) : ` ${w}`;
      if (i > 2 && i < words.length - 2 && this.random() < 0.06) out += ',';
    });
    return out + (this.random() < 0.1 ? '?' : '.');
  }

  /** A stable Chinese rendering: one dictionary word per English content word, function words mostly dropped. */
  chinese(words: string[]): string {
    const zh = this.vocabulary.chinese;
    let out = '';
    for (const w of words) {
      if (/^\d+$/.test(w)) out += w;
      else if (FREQUENT.includes(w)) {
        if (w === 'of') out += '的';
        else if (w === 'is' || w === 'was' || w === 'are') out += '是';
        else if (w === 'not') out += '不';
      } else out += zh[hash(w) % zh.length];
    }
    return `${out}。`;
  }

  /**
   * A query held out of the memory: most are a memory sentence edited (a word or several replaced,
   * inserted or deleted, a number changed), the others new sentences.
   */
  variant(words: string[]): string[] {
    const out = [...words];
    const edits = 1 + Math.floor(this.random() * Math.max(1, Math.round(out.length * 0.3)));
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(this.random() * out.length);
      const r = this.random();
      if (r < 0.5) out[at] = this.word();
      else if (r < 0.75 && out.length < 60) out.splice(at, 0, this.word());
      else if (out.length > 3) out.splice(at, 1);
    }
    return out;
  }
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
