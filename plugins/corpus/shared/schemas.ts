import { z } from 'zod';

/** A corpus's fields as the server checks them (the languages' difference it says in the request's language). */
export const corpusFields = z.object({
  name: z.string().trim().min(1, 'validation.required').max(100),
  sourceLang: z.string().trim().min(2, 'validation.required').max(20),
  targetLang: z.string().trim().min(2, 'validation.required').max(20),
  domain: z.string().trim().max(100).nullish().transform((d) => d || null),
});

/** The same as the form checks it, the languages' difference explained under the target field. */
export const corpusSchema = corpusFields.refine((c) => c.sourceLang !== c.targetLang, { message: 'corpus:languagesMustDiffer', path: ['targetLang'] });

/** One pair as edited in the table. */
export const pairSchema = z.object({
  source: z.string().trim().max(10_000),
  target: z.string().trim().max(10_000),
});

/** Cleaning rules, in the order the report lists them. */
export const CLEANING_RULES = ['duplicate', 'empty', 'lengthRatio', 'sameText', 'wrongLanguage'] as const;
export type CleaningRule = (typeof CLEANING_RULES)[number];

/** Alignment beads: source sentences - target sentences. */
export const BEADS = ['1-1', '1-0', '0-1', '2-1', '1-2', '2-2'] as const;
export type Bead = (typeof BEADS)[number];
