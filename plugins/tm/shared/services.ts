import { defineService } from '@linguaport/sdk/server';

/**
 * What the memory area offers other areas (CAT, documents): matches in the memories a user may use,
 * and a say in deleting a memory (a CAT project that uses one registers a check; the delete is then
 * refused with its reason).
 */
export interface MemoryService {
  exact(input: { userId: number; memories?: number[]; sourceLang: string; targetLang: string; texts: string[] }): Promise<Map<string, { entryId: number; libraryId: number; target: string }>>;
  fuzzy(input: { userId: number; memories?: number[]; sourceLang: string; targetLang: string; text: string; limit?: number }): Promise<Array<{ entryId: number; libraryId: number; score: number; source: string; target: string }>>;
  registerUsage(check: (libraryId: number) => Promise<string | null>): () => void;
}

export const memoryService = defineService<MemoryService>('tm.memories');
