import { z } from '@linguaport/sdk/shared';
import { idSchema, ValidationKeys } from '@linguaport/sdk/shared';

/** Spec 02: feedback content is required; the type is a system operation issue or an internal issue. */
export const FEEDBACK_TYPES = ['system', 'internal'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

export const MAX_SCREENSHOT_BYTES = 2 * 1024 * 1024;

export const feedbackSchema = z.object({
  content: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(2000, 'feedback:invalid.tooLong'),
  type: z.enum(FEEDBACK_TYPES, { error: ValidationKeys.required }),
});

export const replySchema = z.object({
  id: idSchema,
  reply: z.string({ error: ValidationKeys.required }).trim().min(1, ValidationKeys.required).max(2000, 'feedback:invalid.tooLong'),
});
