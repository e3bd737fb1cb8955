import { z } from '@linguaport/sdk/shared';
import { ValidationKeys } from '@linguaport/sdk/shared';

/** The translation limits (system configuration keys seeded by the kernel). */
export const LIMIT_KEYS = ['TEXT_TRANSLATION_CAP', 'API_TRANSLATION_CAP', 'FILE_COUNT_LIMIT', 'FILE_SIZE_LIMIT_MB', 'QUEUE_LIMIT'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** The switches of /translationAdmin. */
export const SWITCH_KEYS = ['GUEST_LOGIN', 'ALLOW_REGISTER', 'REGISTER_AUTO_APPROVE', 'LANDING_SLIDER', 'IS_HAVE_LOG_OUT', 'ENGINE_EXPIRY_NOTICE'] as const;

const positive = z
  .union([z.string(), z.number()], { error: ValidationKeys.required })
  .refine((v) => String(v).trim() !== '', { message: ValidationKeys.required, abort: true })
  .refine((v) => /^\d+$/.test(String(v).trim()) && Number(v) > 0, ValidationKeys.positiveInteger)
  .transform((v) => Number(v));

/**
 * Spec 02 section 5 (System settings): every value required and greater than zero; the text cap is
 * not above the API cap and the API cap not below the text cap. The kernel checks the same rule on
 * save; this copy explains it beside the fields before the call.
 */
export const limitsSchema = z
  .object(Object.fromEntries(LIMIT_KEYS.map((k) => [k, positive])) as Record<LimitKey, typeof positive>)
  .superRefine((v, ctx) => {
    if (v.TEXT_TRANSLATION_CAP > v.API_TRANSLATION_CAP) {
      ctx.addIssue({ code: 'custom', path: ['TEXT_TRANSLATION_CAP'], message: 'translationSettings:invalid.textAboveApi' });
      ctx.addIssue({ code: 'custom', path: ['API_TRANSLATION_CAP'], message: 'translationSettings:invalid.apiBelowText' });
    }
  });
