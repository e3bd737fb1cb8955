import { z } from 'zod';
import { sql } from 'kysely';
import * as XLSX from '@e965/xlsx';
import { defineServerPlugin, pageOf, pageOffset, pageQuery, pageSchema, type ServerPluginContext } from '@linguaport/sdk/server';

/**
 * Usage records (/transRecords): the kernel's daily per-channel rows summed per user over a
 * date range. `text/API characters` is text + api; `total` adds documents.
 */
const filters = z.object({
  username: z.string().trim().max(255).optional(),
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
});
const page = filters.extend(pageQuery);

/** One user's usage over the range (the list's record). */
const usageRow = z.object({
  userId: z.number().int(),
  username: z.string(),
  realName: z.string().nullable(),
  totalCharacters: z.number().int().describe('Text, API and document characters'),
  textApiCharacters: z.number().int().describe('Text and API characters'),
  textCharacters: z.number().int(),
  apiCharacters: z.number().int(),
  documentCharacters: z.number().int(),
  documents: z.number().int(),
  lastUsedAt: z.string().nullable(),
});

export interface UsageRow {
  userId: number;
  username: string;
  realName: string | null;
  totalCharacters: number;
  textApiCharacters: number;
  textCharacters: number;
  apiCharacters: number;
  documentCharacters: number;
  documents: number;
  lastUsedAt: string | null;
}

async function summary(ctx: ServerPluginContext, f: z.infer<typeof filters>, limit?: number, offset?: number) {
  const where = [sql`true`];
  if (f.username) where.push(sql`(u.username ilike ${`%${f.username}%`} or u.real_name ilike ${`%${f.username}%`})`);
  if (f.from) where.push(sql`r.day >= ${f.from}::date`);
  if (f.to) where.push(sql`r.day <= ${f.to}::date`);
  const cond = sql.join(where, sql` and `);
  const { rows } = await sql<Record<string, any>>`
    select u.id, u.username, u.real_name,
      coalesce(sum(r.characters) filter (where r.channel = 'text'), 0) as text_chars,
      coalesce(sum(r.characters) filter (where r.channel = 'api'), 0) as api_chars,
      coalesce(sum(r.characters) filter (where r.channel = 'document'), 0) as doc_chars,
      coalesce(sum(r.documents), 0) as documents,
      max(r.last_used_at) as last_used_at,
      count(*) over () as total_rows
    from usage_records r join users u on u.id = r.user_id
    where ${cond}
    group by u.id, u.username, u.real_name
    order by max(r.last_used_at) desc, u.id
    ${limit ? sql`limit ${limit} offset ${offset ?? 0}` : sql``}`.execute(ctx.db);
  const list: UsageRow[] = rows.map((r) => {
    const text = Number(r.text_chars);
    const api = Number(r.api_chars);
    const doc = Number(r.doc_chars);
    return {
      userId: r.id,
      username: r.username,
      realName: r.real_name,
      totalCharacters: text + api + doc,
      textApiCharacters: text + api,
      textCharacters: text,
      apiCharacters: api,
      documentCharacters: doc,
      documents: Number(r.documents),
      lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
    };
  });
  return { list, total: rows.length ? Number(rows[0].total_rows) : 0 };
}

export default defineServerPlugin({
  setup(ctx) {
    ctx.route({
      method: 'GET',
      url: '/transRecords/list',
      access: { permission: 'transRecords:view' },
      summary: 'List translation usage per user',
      schema: { query: page },
      response: { data: pageSchema(usageRow) },
      async handler({ query }) {
        const r = await summary(ctx, query, query.pageSize, pageOffset(query));
        return pageOf(query, r.list, r.total);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/transRecords/export',
      access: { permission: 'transRecords:export' },
      summary: 'Export translation usage per user',
      schema: { query: filters.extend({ lang: z.enum(['zh-CN', 'en-US']).default('en-US') }) },
      response: { envelope: false, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      async handler({ query }) {
        const { list } = await summary(ctx, query);
        const zh = query.lang === 'zh-CN';
        const head = zh
          ? ['用户名', '真实姓名', '总字符数', '文本/API 字符数', '文档字符数', '翻译文档数', '最后使用时间']
          : ['User name', 'Real name', 'Total characters', 'Text/API characters', 'Document characters', 'Documents translated', 'Last use'];
        const sheet = XLSX.utils.aoa_to_sheet([head, ...list.map((r) => [r.username, r.realName ?? '', r.totalCharacters, r.textApiCharacters, r.documentCharacters, r.documents, r.lastUsedAt ?? ''])]);
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, sheet, zh ? '使用记录' : 'Usage records');
        const body = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
        return {
          raw: true,
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          body,
          headers: { 'content-disposition': 'attachment; filename="usage-records.xlsx"' },
        };
      },
    });
  },
});
