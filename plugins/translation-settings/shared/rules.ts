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

/** The LibreTranslate-compatible API's settings (`/api/lt`), seeded by the kernel. */
export const LT_KEYS = ['LT_KEYLESS', 'LT_KEYLESS_CAP', 'LT_RATE_LIMIT', 'LT_CORS_ORIGINS'] as const;
export type LtKey = (typeof LT_KEYS)[number];

const ORIGIN = /^https?:\/\/[^\s/,]+$/;

/** Keyless use on or off, the two limits above zero, and the allowed origins as `*` or `http(s)://host[:port]`, comma-separated. */
export const ltSchema = z.object({
  LT_KEYLESS: z.enum(['0', '1']),
  LT_KEYLESS_CAP: positive,
  LT_RATE_LIMIT: positive,
  LT_CORS_ORIGINS: z
    .string()
    .transform((v) => v.split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean))
    .refine((list) => list.every((o) => o === '*' || ORIGIN.test(o)), 'translationSettings:invalid.origins')
    .transform((list) => list.join(',')),
});
