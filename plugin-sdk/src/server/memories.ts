import { z } from 'zod';
import { idNumberSchema, termSourceSchema, termTranslationSchema } from '../shared/checks.js';
import { languageTagSchema, type VariantMatch } from '../shared/language-tags.js';
import { defineService } from './services.js';

/**
 * What the memory area (`tm`) offers other areas (`tm.memories`): CAT, documents. The token and the
 * contract live here, so a consumer never imports the memory plugin; the memory plugin provides the
 * implementation over its own tables, with its own matcher. Every call acts for `caller`: named
 * memories are each checked (404 for one that does not exist, 403 for one the user may not use, or
 * edit for `write`, both languages); none named, the user's default memories. Input outside the
 * schemas below is refused with ApiError 400 in both languages. Languages are BCP 47 tags: an entry of
 * another variant of the language answers too, scored less (the memory area's README).
 */

const callerSchema = z.object({ userId: idNumberSchema, departmentId: idNumberSchema.nullable().optional() });
const memoriesSchema = z.array(idNumberSchema).max(50).optional();

/** Segments one `lookup` takes; a CAT analysis of a bigger file asks in batches of this. */
export const MEMORY_LOOKUP_MAX_SEGMENTS = 5000;

export const memoryLookupInputSchema = z.object({
  caller: callerSchema,
  memories: memoriesSchema,
  sourceLang: languageTagSchema,
  targetLang: languageTagSchema,
  /** Source segments as the file has them; each gets its own list of matches, in this order. */
  segments: z.array(z.string().max(10_000)).max(MEMORY_LOOKUP_MAX_SEGMENTS),
  /** Lowest score offered (0-100); the memory area's show threshold when left out. */
  minScore: z.number().int().min(0).max(100).optional(),
  /** Matches per segment, best first. */
  maxMatches: z.number().int().min(1).max(20).default(5),
});

export const memoryConcordanceInputSchema = z.object({
  caller: callerSchema,
  memories: memoriesSchema,
  /** The word or phrase, found anywhere in the text (case ignored). */
  query: z.string().trim().min(1, 'validation.required').max(200),
  /** Where to look. */
  side: z.enum(['source', 'target', 'both']).default('both'),
  /** Only entries of these languages (any variant of each), when given. */
  sourceLang: languageTagSchema.optional(),
  targetLang: languageTagSchema.optional(),
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(200).default(50),
});

/** The neighbouring source segments a pair was confirmed between (for in-context matches), as TMX props `x-context-before`/`x-context-after`. */
export const memoryContextSchema = z.object({ before: z.string().max(10_000).optional(), after: z.string().max(10_000).optional() });

/** The two languages must differ too (the provider refuses the same tag twice, 400, both languages). */
export const memoryWriteInputSchema = z.object({
  /** The author: the pair is written as theirs and the write needs their edit right on the memory. */
  caller: callerSchema,
  memoryId: idNumberSchema,
  sourceLang: languageTagSchema,
  targetLang: languageTagSchema,
  source: termSourceSchema.pipe(z.string().max(10_000)),
  target: termTranslationSchema.pipe(z.string().max(10_000)),
  /** The entry's review state: a translator's confirmed pair `unchecked`, a reviewer's `checked`. */
  state: z.enum(['unchecked', 'checked']).default('unchecked'),
  context: memoryContextSchema.optional(),
});

export type MemoryLookupInput = z.input<typeof memoryLookupInputSchema>;
export type MemoryConcordanceInput = z.input<typeof memoryConcordanceInputSchema>;
export type MemoryWriteInput = z.input<typeof memoryWriteInputSchema>;
export type MemoryContext = z.output<typeof memoryContextSchema>;

/** One match of a segment in a memory. */
export interface MemoryServiceMatch {
  entryId: number;
  memoryId: number;
  /** 0-100, after the points lost for another variant of the language. */
  score: number;
  /** `exact`: the same source as the exact tier normalises it (case, width, white space, punctuation variants); `fuzzy`: scored by edit distance. */
  kind: 'exact' | 'fuzzy';
  source: string;
  target: string;
  /** The entry's own tags, and how they answer the ones asked. */
  sourceLang: string;
  targetLang: string;
  variant: VariantMatch;
  penalty: number;
  /** What turns the entry's source into the segment (fuzzy matches). */
  diff?: Array<{ op: 'equal' | 'insert' | 'delete'; text: string }>;
  /** Who wrote the entry on this platform (its creator), and when it was made and last changed (ISO). */
  createdBy: number;
  createdAt: string;
  updatedAt: string;
  reviewState: 'unchecked' | 'checked';
  /** The entry's notes (its TMX unit's, then its sides'). */
  notes: string[];
  /** The segments around it when it was confirmed, when the entry keeps them. */
  context: MemoryContext | null;
  /** The TMX unit's attributes kept from an import or set by `write` (`creationid`, `changeid`, `changedate`, `usagecount`...). */
  attrs: Record<string, string>;
}

export interface MemoryLookupResult {
  /** The memories read (those named, else the user's defaults). */
  memories: number[];
  /** Per segment, in the order asked: its matches, best first (exact before fuzzy at the same score). */
  segments: MemoryServiceMatch[][];
}

export interface MemoryConcordanceEntry {
  entryId: number;
  memoryId: number;
  source: string;
  target: string;
  sourceLang: string;
  targetLang: string;
  reviewState: 'unchecked' | 'checked';
  /** Where the phrase occurs: [start, end) UTF-16 offsets. */
  sourceHighlights: Array<[number, number]>;
  targetHighlights: Array<[number, number]>;
}

export interface MemoryConcordancePage {
  memories: number[];
  records: MemoryConcordanceEntry[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface MemoryWriteResult {
  entryId: number;
  memoryId: number;
  /** False when an entry with the same source was updated instead. */
  created: boolean;
}

export interface MemoryService {
  /**
   * Exact and fuzzy matches of many segments in one call: the database is read once per batch (the
   * exact tier by the segments' keys, the fuzzy tier's candidates by id), not once per segment.
   */
  lookup(input: MemoryLookupInput): Promise<MemoryLookupResult>;
  /** Entries holding a word or phrase in their source, target or either, newest first, paged. */
  concordance(input: MemoryConcordanceInput): Promise<MemoryConcordancePage>;
  /**
   * Writes a confirmed pair into a memory the caller may edit. One rule against duplicates: an entry
   * of that memory with the same language tags and the same source as the exact tier normalises it
   * (the newest, when an import kept several) is updated: its source and target become the written
   * ones, its review state `state`, it is enabled again, its context replaced when one is given, and
   * its TMX `changedate`/`changeid` (the author's user id) set; else a new entry is made with the
   * caller as its creator. Either way the memory's history records the author, and the fuzzy index is
   * rebuilt on its next lookup.
   */
  write(input: MemoryWriteInput): Promise<MemoryWriteResult>;
  /** A CAT project that uses a memory registers a check; deleting the memory is then refused with its reason. */
  registerUsage(check: (libraryId: number) => Promise<string | null>): () => void;
}

export const memoryService = defineService<MemoryService>('tm.memories');
