import { z } from 'zod';
import { idNumberSchema } from '../shared/checks.js';
import { defineService } from './services.js';

/**
 * What the term area (`term`) offers other areas (`term.bases`): CAT, documents. The token and the
 * contract live here, so a consumer never imports the term plugin; the term plugin provides the
 * implementation with its own matcher. Every call acts for `caller`: named term bases are each checked
 * (404 for one that does not exist, 403 for one the user may not use, both languages); none named, the
 * user's default term bases. Input outside the schemas below is refused with ApiError 400 in both
 * languages. Recognition as the term area's README says: case ignored, whole words in languages
 * written with spaces, the longest term at each place, hits never overlapping; failed and disabled
 * terms never found.
 */

const callerSchema = z.object({ userId: idNumberSchema, departmentId: idNumberSchema.nullable().optional() });
const language = z.string().trim().min(2, 'validation.required').max(20);

/** Segments one `recogniseMany` takes. */
export const TERM_RECOGNISE_MAX_SEGMENTS = 5000;

const base = {
  caller: callerSchema,
  termBases: z.array(idNumberSchema).max(50).optional(),
  sourceLang: language,
  targetLang: language,
};

export const termRecogniseInputSchema = z.object({ ...base, text: z.string().max(100_000) });
export const termRecogniseManyInputSchema = z.object({ ...base, segments: z.array(z.string().max(100_000)).max(TERM_RECOGNISE_MAX_SEGMENTS) });

export type TermRecogniseInput = z.input<typeof termRecogniseInputSchema>;
export type TermRecogniseManyInput = z.input<typeof termRecogniseManyInputSchema>;

/** A term found in a segment: its place (UTF-16 offsets, end exclusive), the text there, and the term. */
export interface RecognisedTerm {
  start: number;
  end: number;
  text: string;
  termId: number;
  termBaseId: number;
  /** The term as the base holds it, and the translation it requires (or forbids). */
  source: string;
  target: string;
  /** A translation not to use. */
  forbidden: boolean;
}

export interface TermRecogniseResult {
  /** The term bases read (those named, else the user's defaults). */
  termBases: number[];
  hits: RecognisedTerm[];
}

export interface TermRecogniseManyResult {
  termBases: number[];
  /** Per segment, in the order asked: its hits in text order. */
  segments: RecognisedTerm[][];
}

export interface TermBaseService {
  /** The terms in one segment. */
  recognise(input: TermRecogniseInput): Promise<TermRecogniseResult>;
  /** The terms in many segments: the rights and the term bases' indexes are read once for all. */
  recogniseMany(input: TermRecogniseManyInput): Promise<TermRecogniseManyResult>;
  /** A CAT project that uses a term base registers a check; deleting the term base is then refused with its reason. */
  registerUsage(check: (libraryId: number) => Promise<string | null>): () => void;
}

export const termBaseService = defineService<TermBaseService>('term.bases');
