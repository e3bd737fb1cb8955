import { defineServerPlugin, requestLocale, iso, pageOf, pageOffset, pageQuery, pageSchema, timestampSchema } from '@linguaport/sdk/server';
import { seededName, z } from '@linguaport/sdk/shared';

/** The 24-hour change limit (spec 02 section 6); the kernel enforces it on reset, this only reports it. */
const RESET_INTERVAL_MS = 24 * 3_600_000;

export interface ApiKeyRow {
  id: number;
  username: string;
  realName: string | null;
  hasKey: boolean;
  /** Masked with 16 asterisks (spec 02 section 9); the key itself is only ever shown to its owner. */
  maskedKey: string | null;
  updatedAt: string | null;
  /** Last change + 24 h: a reset is refused before it (the console compares it with its clock). */
  nextResetAt: string | null;
  lastUsedAt: string | null;
}

const apiKeyRow = z.object({
  id: z.number().int(),
  username: z.string(),
  realName: z.string().nullable(),
  hasKey: z.boolean(),
  maskedKey: z.string().nullable().describe('16 asterisks when the user has a key'),
  updatedAt: timestampSchema.nullable(),
  nextResetAt: timestampSchema.nullable().describe('A reset is refused before it'),
  lastUsedAt: timestampSchema.nullable(),
});

/**
 * API key status of every user. Resets go through the kernel's `GET /user/updateApiKey/{id}`
 * (permission apiKey:reset, 24 h limit enforced there).
 */
export default defineServerPlugin({
  migrations: [
    {
      name: '001_api_key_last_used',
      // Kept so databases that ran it agree with the code: the kernel's own migration adds the column
      // (users.api_key_last_used_at, written by its API-key sign-in), and this area reads it through ctx.users.
      async up() {},
    },
  ],
  setup(ctx) {
    ctx.route({
      method: 'GET',
      url: '/apiManager/list',
      access: { permission: 'apiManager:list' },
      summary: 'List API keys of all users',
      schema: { query: z.object({ ...pageQuery, username: z.string().trim().max(255).optional(), hasKey: z.enum(['0', '1']).optional() }) },
      response: { data: pageSchema(apiKeyRow) },
      async handler({ query, headers }) {
        const locale = requestLocale(headers);
        const { total, users } = await ctx.users.apiKeys({ text: query.username || undefined, hasKey: query.hasKey ? query.hasKey === '1' : undefined, offset: pageOffset(query), limit: query.pageSize });
        const records: ApiKeyRow[] = users.map((u) => {
          const next = u.updatedAt ? u.updatedAt.getTime() + RESET_INTERVAL_MS : null;
          return {
            id: u.id,
            username: u.username,
            realName: seededName(u.realName, locale),
            hasKey: u.hasKey,
            maskedKey: u.hasKey ? '*'.repeat(16) : null,
            updatedAt: iso(u.updatedAt),
            nextResetAt: next ? new Date(next).toISOString() : null,
            lastUsedAt: iso(u.lastUsedAt),
          };
        });
        return pageOf(query, records, total);
      },
    });
  },
});
