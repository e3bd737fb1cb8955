import { z } from '@linguaport/sdk/shared';

/**
 * How the memory is used in translation. `showThreshold`: the lowest score of a fuzzy match shown beside
 * a translation and answered by `/TM/match`. `autoUseThreshold`: from this score up a match is put into
 * the translation instead of asking the engine (100: exact matches only; lower: near matches too, each
 * marked with its score and a note to review it). `variantPenalty`: points off a match from another variant
 * of the language asked (en-US for en-GB); the exact variant and the language's generic tag lose none.
 */
export const tmSettingsSchema = z.object({
  showThreshold: z.number().int().min(30).max(100),
  autoUseThreshold: z.number().int().min(70).max(100),
  variantPenalty: z.number().int().min(0).max(20),
});

/** What a change sends: the penalty may be left out (kept as it is), for clients written before it. */
export const tmSettingsBodySchema = tmSettingsSchema.extend({ variantPenalty: tmSettingsSchema.shape.variantPenalty.optional() });

export type TmSettings = z.infer<typeof tmSettingsSchema>;

export const TM_DEFAULT_SETTINGS: TmSettings = { showThreshold: 50, autoUseThreshold: 100, variantPenalty: 2 };
