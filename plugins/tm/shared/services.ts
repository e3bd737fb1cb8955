import { defineService } from '@linguaport/sdk/server';

/**
 * What the memory area offers other areas (CAT, documents): matches in the memories a user may use,
 * and a say in deleting a memory (a CAT project that uses one registers a check; the delete is then
 * refused with its reason).
 */
/** Where a match came from: the entry's language tags, how they answer the ones asked, and the points lost for another variant. */
export interface MatchVariant {
  sourceLang: string;
  targetLang: string;
  variant: 'exact' | 'generic' | 'variant';
  penalty: number;
  /** The entry's notes (its TMX unit's, then its sides'), shown beside the match. */
  notes: string[];
}

/** Languages are BCP 47 tags (`en-GB`); a match from another variant of the language scores less (see the README). */
export interface MemoryService {
  exact(input: { userId: number; memories?: number[]; sourceLang: string; targetLang: string; texts: string[] }): Promise<Map<string, { entryId: number; libraryId: number; target: string; score: number } & MatchVariant>>;
  fuzzy(input: { userId: number; memories?: number[]; sourceLang: string; targetLang: string; text: string; limit?: number }): Promise<Array<{ entryId: number; libraryId: number; score: number; source: string; target: string } & MatchVariant>>;
  registerUsage(check: (libraryId: number) => Promise<string | null>): () => void;
}

export const memoryService = defineService<MemoryService>('tm.memories');
