import { defineService } from '@linguaport/sdk/server';

/** A term found in a text: its place (UTF-16 offsets, end exclusive) and the term. */
export interface RecognisedTerm {
  start: number;
  end: number;
  text: string;
  termId: number;
  termBaseId: number;
  source: string;
  target: string;
  forbidden: boolean;
}

/**
 * What the term area offers other areas (CAT, documents): the terms of the term bases a user may use
 * found in a text, and a say in deleting a term base (a CAT project that uses one registers a check;
 * the delete is then refused with its reason).
 */
export interface TermService {
  recognise(input: { userId: number; termBases?: number[]; sourceLang: string; targetLang: string; text: string }): Promise<RecognisedTerm[]>;
  registerUsage(check: (libraryId: number) => Promise<string | null>): () => void;
}

export const termService = defineService<TermService>('term.bases');
