import { sql } from 'kysely';
import { defineServerPlugin, requestLocale, iso, like, pageOf, pageOffset, pageQuery, pageSchema, timestampSchema } from '@linguaport/sdk/server';
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
      // Last use of the key; the kernel's API-key sign-in writes it (column added here, not in core).
      async up(db) {
        await sql`alter table users add column if not exists api_key_last_used_at timestamptz`.execute(db);
      },
    },
  ],
  setup(ctx) {
    const { db } = ctx;
    ctx.route({
      method: 'GET',
      url: '/apiManager/list',
      access: { permission: 'apiManager:list' },
      summary: 'List API keys of all users',
      schema: { query: z.object({ ...pageQuery, username: z.string().trim().max(255).optional(), hasKey: z.enum(['0', '1']).optional() }) },
      response: { data: pageSchema(apiKeyRow) },
      async handler({ query, headers }) {
        const locale = requestLocale(headers);
        const parts = [sql`true`];
        if (query.username) parts.push(sql`(u.username ilike ${like(query.username)} or u.real_name ilike ${like(query.username)})`);
        if (query.hasKey) parts.push(query.hasKey === '1' ? sql`u.api_key_hash is not null` : sql`u.api_key_hash is null`);
        const where = sql.join(parts, sql` and `);
        const [count, page] = await Promise.all([
          sql<{ n: string }>`select count(*) as n from users u where ${where}`.execute(db),
          sql<Record<string, unknown>>`
            select u.id, u.username, u.real_name, u.api_key_hash is not null as has_key, u.api_key_updated_at, u.api_key_last_used_at
            from users u where ${where} order by u.id
            limit ${query.pageSize} offset ${pageOffset(query)}`.execute(db),
        ]);
        const records: ApiKeyRow[] = page.rows.map((r) => {
          const updated = r.api_key_updated_at ? new Date(r.api_key_updated_at as string) : null;
          const next = updated ? updated.getTime() + RESET_INTERVAL_MS : null;
          return {
            id: Number(r.id),
            username: String(r.username),
            realName: seededName((r.real_name as string | null) ?? null, locale),
            hasKey: Boolean(r.has_key),
            maskedKey: r.has_key ? '*'.repeat(16) : null,
            updatedAt: iso(updated),
            nextResetAt: next ? new Date(next).toISOString() : null,
            lastUsedAt: iso(r.api_key_last_used_at),
          };
        });
        return pageOf(query, records, count.rows[0]?.n);
      },
    });
  },
});
