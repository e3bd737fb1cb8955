import { z } from '@linguaport/sdk/shared';
import { idSchema, MAX_INTEGER, ValidationKeys } from '@linguaport/sdk/shared';

/**
 * Spec 02 section 5 (Data dictionary): code and name required and unique; sort a positive integer,
 * smaller first. Messages are i18n keys: the console's forms show them in the user's language.
 */
const required = (max: number) => z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(max, 'dictionary:invalid.tooLong');
const code = z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(64, 'dictionary:invalid.tooLong').regex(/^[A-Za-z0-9_.:-]+$/, 'dictionary:invalid.code');

export const dictTypeSchema = z.object({
  name: required(64),
  code,
  description: z.string().trim().max(500, 'dictionary:invalid.tooLong').default(''),
  enabled: z.boolean().default(true),
});

export const dictEntrySchema = z.object({
  typeId: idSchema,
  name: required(64),
  code,
  value: required(500),
  sort: z.coerce.number({ error: ValidationKeys.required }).int(ValidationKeys.positiveInteger).positive(ValidationKeys.positiveInteger).max(MAX_INTEGER, ValidationKeys.positiveInteger),
  description: z.string().trim().max(500, 'dictionary:invalid.tooLong').default(''),
});

export type DictTypeInput = z.infer<typeof dictTypeSchema>;
export type DictEntryInput = z.infer<typeof dictEntrySchema>;
