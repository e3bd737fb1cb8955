import { termSourceSchema, termTranslationSchema, ValidationKeys, z } from '@linguaport/sdk/shared';

/**
 * The term form's checks: the SDK's term rules (spec 02 section 5), the same ones the server's
 * library kit rejects with. The messages are the SDK's validation keys.
 */
export const termEntrySchema = z.looseObject({
  source: termSourceSchema,
  target: termTranslationSchema,
  sourceLang: z.string({ error: ValidationKeys.required }).min(2, ValidationKeys.required),
  targetLang: z.string({ error: ValidationKeys.required }).min(2, ValidationKeys.required),
});
