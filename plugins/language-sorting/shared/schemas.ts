import { z } from '@linguaport/sdk/shared';

/** Validation of the language calls, used by the server to refuse and by the view to explain. */

export const languageCodeSchema = z.string().trim().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'code reads like en, zh-CN or ca-x-valencia');

export const languageEditSchema = z.object({
  code: languageCodeSchema,
  nameZh: z.string().trim().min(1).max(64),
  nameEn: z.string().trim().min(1).max(64),
  enabled: z.boolean(),
});

/** The whole order, first to last: every known code exactly once. */
export const languageOrderSchema = z.object({
  codes: z.array(languageCodeSchema).min(1),
});

export type LanguageEdit = z.infer<typeof languageEditSchema>;
