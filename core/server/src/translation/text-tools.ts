import { createRequire } from 'node:module';

/**
 * Text tools the pipeline and the text-translation screens share: language detection,
 * sentence splitting, word segmentation. Heavy data (eld's n-grams, jieba's dictionary) loads
 * once, on first use, never at import.
 */

// ---------- language detection ----------

export interface DetectedLanguage {
  /**
   * The language of the text, whether or not an engine takes it: the enabled platform code when one
   * matches (`zh-CN` for eld's `zh`), else the detector's ISO 639-1 code (`de`); `unknown` when too
   * short or unsure.
   */
  language: string;
  /** 0..1; 0 when unknown. */
  confidence: number;
}

interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number> };
  info(): { Languages: Record<string, string> };
}

let eldLoading: Promise<Eld> | null = null;
function loadEld(): Promise<Eld> {
  // `eld/medium`: same answers as `large` on our short-string checks, ~60 MB heap, ~0.5 s to load
  // (`large`: 142 MB heap, 3.5 s, for one more right answer in the held-out set's 230 long sentences).
  eldLoading ??= import('eld/medium').then((m) => m.eld as unknown as Eld);
  return eldLoading;
}

/** Fewer letters than this and every detector guesses (FIELD-NOTES: `ok`, `the car`). */
const MIN_LETTERS = 10;
const MIN_CONFIDENCE = 0.5;
/**
 * Two languages this close in eld's scores are a toss-up (`El gato duerme en el sofá rojo de la casa.`:
 * Catalan 0.751, Spanish 0.735): spelling that only one of them uses decides, then whether an engine
 * takes it.
 */
const NEAR_TIE = 0.05;
const HAN = /\p{Script=Han}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HANGUL = /\p{Script=Hangul}/gu;
const LETTER = /\p{L}/gu;
/** Letters with their combining marks: Devanagari's vowel signs are marks, and `है` is a word of one letter without them. */
const LETTER_OR_MARK = /[\p{L}\p{M}]/gu;

/**
 * Letters and words one language of a close pair writes and the other does not: Spanish `á ñ ¿ y`
 * against Catalan `à è ò ç l·l i amb`, Portuguese `ã ç não` against Spanish `ñ el los`, Czech `ě ř ů`
 * against Slovak `ä ô ľ`, Russian `ы э ъ` against Ukrainian `і ї є ґ`. Counted only to settle a near tie
 * between the two of a pair.
 */
const SPELLING: Record<string, Record<string, RegExp>> = {
  'ca|es': {
    es: /[áñ¿¡]|\b(?:y|los|las|con|por|pero|muy)\b/giu,
    ca: /[àèòç·]|\b(?:i|els|amb|per|però|és|dels|molt|molta|aquest|aquesta)\b/giu,
  },
  'es|pt': {
    es: /[ñ¿¡]|\b(?:el|los|y|del|muy|pero|una)\b/giu,
    pt: /[ãõâêç]|\b(?:não|uma|com|os|do|da|em|no|na|o)\b/giu,
  },
  'cs|sk': { cs: /[ěřů]/giu, sk: /[äôľĺŕ]/giu },
  'ru|uk': { ru: /[ыэъё]/giu, uk: /[іїєґ]/giu },
};

/** Within a close pair whose spelling says nothing, the language an engine takes wins when eld's scores are closer than this. */
const ENGINE_TIE = 0.02;

/** `zh-CN` is enabled -> eld's `zh` answers for it. */
function baseOf(code: string): string {
  return code.split('-')[0].toLowerCase();
}

export interface LanguageDetector {
  /**
   * The language of `text` among every language the detector knows (eld's 60), whether or not an
   * engine takes it. `enabled` (the engines' source languages) names the answer in the platform's code
   * and breaks a near tie (Spanish or Catalan for a short sentence); it never hides a clear answer.
   */
  detect(text: string, enabled: readonly string[]): DetectedLanguage;
  /** The ISO 639-1 codes the detector knows. */
  languages(): string[];
}

/** Loads the detector once; use `detect` directly in hot loops. */
export async function languageDetector(): Promise<LanguageDetector> {
  const eld = await loadEld();
  const known = Object.values(eld.info().Languages);
  return {
    languages: () => [...known],
    detect(text, enabled) {
      const unknown = { language: 'unknown', confidence: 0 };
      const letters = text.match(LETTER)?.length ?? 0;
      if (letters === 0) return unknown;
      const name = (base: string) => enabled.find((c) => baseOf(c) === base) ?? base;
      // CJK by script: eld's n-grams add nothing when the script already decides.
      const kana = text.match(KANA)?.length ?? 0;
      const han = text.match(HAN)?.length ?? 0;
      const hangul = text.match(HANGUL)?.length ?? 0;
      const cjk = kana + han + hangul;
      if (cjk >= 2 && cjk / letters > 0.5) {
        const base = hangul > han + kana ? 'ko' : kana > 0 ? 'ja' : 'zh';
        return { language: name(base), confidence: Math.min(1, cjk / letters) };
      }
      if ((text.match(LETTER_OR_MARK)?.length ?? 0) < MIN_LETTERS) return unknown;
      const ranked = Object.entries(eld.detect(text).getScores()).sort((a, b) => b[1] - a[1]);
      if (ranked.length === 0) return unknown;
      let [best, score] = ranked[0];
      const runnerUp = ranked[1];
      if (runnerUp && score - runnerUp[1] < NEAR_TIE) best = settleTie(text, best, runnerUp[0], score - runnerUp[1], enabled);
      if (best !== ranked[0][0]) score = runnerUp[1];
      return score >= MIN_CONFIDENCE ? { language: name(best), confidence: score } : unknown;
    },
  };
}

function settleTie(text: string, first: string, second: string, margin: number, enabled: readonly string[]): string {
  const spelling = SPELLING[[first, second].sort().join('|')];
  if (spelling) {
    const count = (lang: string) => (text.match(spelling[lang]) ?? []).length;
    const a = count(first);
    const b = count(second);
    if (a !== b) return b > a ? second : first;
  }
  // Only within a close pair: Italian against Catalan is eld's call, whatever the engines take.
  const takes = (lang: string) => enabled.some((c) => baseOf(c) === lang);
  return spelling && margin < ENGINE_TIE && !takes(first) && takes(second) ? second : first;
}

/**
 * A best guess where `detect` would say unknown (too short, unsure): eld's top enabled language at
 * a low confidence (at most 0.3), or the first enabled language at 0 when eld has nothing to go on.
 * For clients that expect an answer, such as LibreTranslate's `/detect`.
 */
export async function guessLanguage(text: string, enabled: readonly string[]): Promise<DetectedLanguage> {
  const sure = (await languageDetector()).detect(text, enabled);
  if (sure.language !== 'unknown' || enabled.length === 0) return sure;
  const eld = await loadEld();
  const pick = (base: string) => enabled.find((c) => baseOf(c) === base);
  let best: DetectedLanguage = { language: enabled[0]!, confidence: 0 };
  if ((text.match(LETTER)?.length ?? 0) > 0) {
    for (const [lang, score] of Object.entries(eld.detect(text).getScores())) {
      const code = pick(lang);
      if (code && score > best.confidence) best = { language: code, confidence: score };
    }
  }
  return { language: best.language, confidence: Math.min(0.3, best.confidence / 2) };
}

/** The language of `text` among all the detector knows, named as `enabled` names it; `unknown` when too short or unsure. */
export async function detectLanguage(text: string, enabled: readonly string[]): Promise<DetectedLanguage> {
  return (await languageDetector()).detect(text, enabled);
}

// ---------- sentence splitting ----------

// One implementation, in the SDK: documents and the console cut sentences with the same rules.
export { splitSentences, type SentenceSpan } from '@linguaport/sdk/shared';

// ---------- word segmentation ----------

interface JiebaLike {
  cut(text: string, hmm?: boolean): string[];
}
let jieba: JiebaLike | null = null;
function loadJieba(): JiebaLike {
  if (!jieba) {
    const require = createRequire(import.meta.url);
    const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(d: Uint8Array): JiebaLike } };
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}

const WORDLIKE = /[\p{L}\p{N}]/u;

/** Words of `text` (no spaces or punctuation): Chinese through jieba, others through Intl.Segmenter. */
export function segmentWords(text: string, lang = 'en'): string[] {
  if (baseOf(lang) === 'zh') return loadJieba().cut(text, true).filter((w) => WORDLIKE.test(w));
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(lang, { granularity: 'word' });
  } catch {
    segmenter = new Intl.Segmenter('en', { granularity: 'word' });
  }
  const words: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) words.push(s.segment);
  return words;
}
