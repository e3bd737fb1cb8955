import { defineService } from './services.js';

/**
 * A language's morphology on this machine (`morphologyService`): words of a text with their readings
 * (lemma and grammatical tags), and word forms generated from a lemma and tags. Provided by the
 * built-in engine's plugin from the installed Apertium pairs' own analysers and generators, so tags are
 * Apertium's (`n`, `det`, `adj`, `m`, `f`, `mf`, `sg`, `pl`, `sp`...). Used where a term put into a
 * translation must agree with the words around it.
 */

/** One lexical unit: `impresora` + `n`, `f`, `sg`. */
export interface MorphUnit {
  lemma: string;
  tags: string[];
}

/** One reading of a word: one unit, or several for a contraction (`del` = `de<pr>` + `el<det>…`). */
export type MorphReading = MorphUnit[];

export interface MorphWord {
  /** The word as written, and its UTF-16 offsets in the analysed text (end exclusive). */
  surface: string;
  start: number;
  end: number;
  /** Every reading the analyser gives; none for a word it does not know. */
  readings: MorphReading[];
}

export interface Morphology {
  /** Whether this machine analyses and generates `language` (a platform code such as `es`). */
  has(language: string): Promise<boolean>;
  /** The words of each text, in order. Rejects when `has(language)` is false. */
  analyse(language: string, texts: string[]): Promise<MorphWord[][]>;
  /**
   * Each phrase (units in order) as written, with the language's contractions and elisions applied
   * (`de` + `el` gives `del`); null for a phrase the generator cannot form.
   */
  generate(language: string, phrases: MorphUnit[][]): Promise<(string | null)[]>;
}

export const morphologyService = defineService<Morphology>('language.morphology');
