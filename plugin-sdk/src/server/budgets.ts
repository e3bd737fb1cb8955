import { z } from 'zod';

/**
 * What reading one uploaded document may cost: unpacked bytes and XML nodes, for the whole document
 * and for one part, and the heap and time of the worker that parses it. A 1 MB docx can hold 300 MB
 * of paragraphs; these budgets refuse it while it is unpacked and parsed, with its reason in both
 * languages, and the worker's heap limit catches what they do not. A plugin reads its own values from
 * its configuration (`DATA_DIR/config/<id>.json`), each falling back to the default.
 */
export interface DocumentBudgets {
  /** All parts of a package together, unpacked. */
  maxDocumentMb: number;
  /** One part, unpacked. */
  maxPartMb: number;
  /** XML nodes (tags, texts, other markup) of all parts read. */
  maxDocumentNodes: number;
  maxPartNodes: number;
  /** Entries of a package. */
  maxParts: number;
  /** The parsing worker's heap: past it the worker alone dies and the file is refused. */
  maxHeapMb: number;
  timeoutMs: number;
}

export const DOCUMENT_BUDGETS: DocumentBudgets = {
  maxDocumentMb: 128,
  maxPartMb: 64,
  maxDocumentNodes: 2_000_000,
  maxPartNodes: 1_000_000,
  maxParts: 20_000,
  maxHeapMb: 1024,
  timeoutMs: 120_000,
};

const budgetsSchema = z.object({
  maxDocumentMb: z.number().positive().max(4096),
  maxPartMb: z.number().positive().max(4096),
  maxDocumentNodes: z.number().int().positive(),
  maxPartNodes: z.number().int().positive(),
  maxParts: z.number().int().positive().max(65_535),
  maxHeapMb: z.number().int().min(64).max(16_384),
  timeoutMs: z.number().int().min(1000),
});

/** The budgets a configuration sets (its `documentBudgets` object), each value checked; others default. */
export function documentBudgets(config: Readonly<Record<string, unknown>> = {}): DocumentBudgets {
  const given = config.documentBudgets;
  const out: Record<string, number> = { ...DOCUMENT_BUDGETS };
  if (given && typeof given === 'object') {
    for (const [key, schema] of Object.entries(budgetsSchema.shape)) {
      const value = schema.safeParse((given as Record<string, unknown>)[key]);
      if (value.success) out[key] = value.data;
    }
  }
  return out as unknown as DocumentBudgets;
}

/** The zip reader's budget for one document. */
export function zipBudget(b: DocumentBudgets): { maxEntries: number; maxBytes: number; maxEntryBytes: number } {
  return { maxEntries: b.maxParts, maxBytes: Math.floor(b.maxDocumentMb * 1024 * 1024), maxEntryBytes: Math.floor(b.maxPartMb * 1024 * 1024) };
}
