import { z } from 'zod';
import type { EntryKind } from '@linguaport/sdk/resources';
import { exactKey } from './match/text.js';

/**
 * What a memory entry carries besides the kit's columns (`@linguaport/sdk/resources`: list, add, edit,
 * delete, review, history): an optional quality score, the exact tier's key of its source, and the
 * inline placeholders' originals (empty for an entry typed in; imports fill them).
 */
const fields = { quality: z.number().int().min(0).max(100).nullable().optional() };

export const memoryEntries: EntryKind<typeof fields> = {
  fields,
  maxLength: 10_000,
  // Memory texts carry the documents' placeholders: a broken pair would spread to every match.
  tagged: true,
  columns: (input, before) => ({
    source_hash: exactKey(input.source),
    ...(before ? {} : { tags: '{}' }),
    quality: input.quality ?? (before?.quality as number | null | undefined) ?? null,
  }),
  view: (r) => ({ quality: r.quality }),
  viewFields: { quality: z.number().int().nullable() },
  sortable: { quality: 'quality' },
};
