import { z } from 'zod';
import type { EntryKind } from '@linguaport/sdk/resources';

/**
 * What a term carries besides the kit's columns (`@linguaport/sdk/resources`: list, add, edit,
 * delete, review, history): a forbidden flag (a translation not to use), and an optional part of
 * speech, note and domain. An edit that leaves a field out keeps its value.
 */
export const TERM_MAX_LENGTH = 500;

const fields = {
  forbidden: z.boolean().optional(),
  partOfSpeech: z.string().trim().max(50).nullable().optional(),
  note: z.string().trim().max(2000).nullable().optional(),
  domain: z.string().trim().max(100).nullable().optional(),
};

const keep = <T>(value: T | undefined, before: unknown, fallback: T): T => (value !== undefined ? value : before !== undefined ? (before as T) : fallback);
const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v ? v : null);

export const termEntries: EntryKind<typeof fields> = {
  fields,
  maxLength: TERM_MAX_LENGTH,
  columns: (input, before) => ({
    forbidden: keep(input.forbidden, before?.forbidden, false),
    part_of_speech: keep(blankToNull(input.partOfSpeech), before?.part_of_speech, null),
    note: keep(blankToNull(input.note), before?.note, null),
    domain: keep(blankToNull(input.domain), before?.domain, null),
  }),
  view: (r) => ({ forbidden: r.forbidden, partOfSpeech: r.part_of_speech, note: r.note, domain: r.domain }),
  viewFields: { forbidden: z.boolean(), partOfSpeech: z.string().nullable(), note: z.string().nullable(), domain: z.string().nullable() },
  sortable: { forbidden: 'forbidden', domain: 'domain' },
  filters: {
    fields: {
      forbidden: z.enum(['true', 'false']).optional(),
      domain: z.string().trim().max(100).optional(),
    },
    apply(q, query) {
      if (query.forbidden) q = q.where('forbidden', '=', query.forbidden === 'true');
      if (query.domain) q = q.where('domain', '=', query.domain);
      return q;
    },
  },
};
