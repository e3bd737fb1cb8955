import { z } from '@linguaport/sdk/shared';

/**
 * How the memory is used in translation. `showThreshold`: the lowest score of a fuzzy match shown beside
 * a translation and answered by `/TM/match`. `autoUseThreshold`: from this score up a match is put into
 * the translation instead of asking the engine (100: exact matches only; lower: near matches too, each
 * marked with its score and a note to review it).
 */
export const tmSettingsSchema = z.object({
  showThreshold: z.number().int().min(30).max(100),
  autoUseThreshold: z.number().int().min(70).max(100),
});

export type TmSettings = z.infer<typeof tmSettingsSchema>;

export const TM_DEFAULT_SETTINGS: TmSettings = { showThreshold: 50, autoUseThreshold: 100 };
