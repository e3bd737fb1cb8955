import { z } from 'zod';
import type { EntryKind } from '@linguaport/sdk/resources';
import { languageBase } from '@linguaport/sdk/shared';
import { exactKey } from './match/text.js';
import { editedMeta, notesOf } from './metadata.js';

/**
 * What a memory entry carries besides the kit's columns (`@linguaport/sdk/resources`: list, add, edit,
 * delete, review, history): an optional quality score, the exact tier's key of its source, the language
 * each tag is a variant of, and the
 * inline placeholders' originals (empty for an entry typed in; imports fill them), and what its TMX unit
 * said besides the texts (`metadata.ts`; an edit sets its changedate).
 */
const side = { attrs: z.record(z.string(), z.string()).optional(), props: z.array(z.object({ type: z.string(), value: z.string(), lang: z.string().optional() })).optional(), notes: z.array(z.string()).optional() };
const metadataSchema = z.object({ tuid: z.string().optional(), ...side, source: z.object(side).optional(), target: z.object(side).optional() });

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
    ...(before && editedMeta(before.meta) ? { meta: JSON.stringify(editedMeta(before.meta)) } : {}),
  }),
  view: (r) => ({ quality: r.quality, notes: notesOf(r.meta), metadata: r.meta ?? {} }),
  viewFields: {
    quality: z.number().int().nullable(),
    notes: z.array(z.string()).describe("The entry's notes: its TMX unit's, then its source's and target's"),
    metadata: metadataSchema.describe("What the entry's TMX unit said besides its texts: tuid, attributes (creationdate, changedate, usagecount...), props (typed key/values) and notes, of the unit and of each side"),
  },
  sortable: { quality: 'quality' },
};
