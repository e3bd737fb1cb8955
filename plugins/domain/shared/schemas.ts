import { z } from '@linguaport/sdk/shared';

/** Validation of the domain calls, shared by the server (refuses) and the view (explains). */
export const domainSchema = z.object({
  code: z.string().trim().regex(/^[a-z][a-z0-9-]{1,31}$/, 'code: 2-32 lower-case letters, digits or dashes, starting with a letter'),
  nameZh: z.string().trim().min(1).max(64),
  nameEn: z.string().trim().min(1).max(64),
  description: z.string().trim().max(500).default(''),
  enabled: z.boolean().default(true),
});

export type DomainInput = z.infer<typeof domainSchema>;
