import { z } from 'zod';
import type { EntryKind } from '@linguaport/sdk/resources';
import { languageBase } from '@linguaport/sdk/shared';
import { exactKey } from './match/text.js';

/**
 * What a memory entry carries besides the kit's columns (`@linguaport/sdk/resources`: list, add, edit,
 * delete, review, history): an optional quality score, the exact tier's key of its source, the language
 * each tag is a variant of, and the
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
    // The languages are set when the entry is added (an edit keeps them): lookups group by their base.
    ...(input.sourceLang && input.targetLang ? { source_base: languageBase(input.sourceLang), target_base: languageBase(input.targetLang) } : {}),
    quality: input.quality ?? (before?.quality as number | null | undefined) ?? null,
  }),
  view: (r) => ({ quality: r.quality }),
  viewFields: { quality: z.number().int().nullable() },
  sortable: { quality: 'quality' },
};
