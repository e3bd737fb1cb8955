import { z } from 'zod';
import * as XLSX from '@e965/xlsx';
import { defineServerPlugin, pageOf, pageOffset, pageQuery, pageSchema, type ServerPluginContext } from '@linguaport/sdk/server';

/**
 * Usage records (/transRecords): the kernel's usage ledger (`ctx.usage`) summed per user over a
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
  const { total, users } = await ctx.usage.byUser({ from: f.from, to: f.to, text: f.username || undefined, order: 'recent', limit, offset });
  const list: UsageRow[] = users.map((u) => {
    const text = u.characters.text ?? 0;
    const api = u.characters.api ?? 0;
    const doc = u.characters.document ?? 0;
    return {
      userId: u.userId,
      username: u.username ?? '',
      realName: u.realName,
      totalCharacters: text + api + doc,
      textApiCharacters: text + api,
      textCharacters: text,
      apiCharacters: api,
      documentCharacters: doc,
      documents: Object.values(u.documents).reduce((a, n) => a + n, 0),
      lastUsedAt: u.lastUsedAt.toISOString(),
    };
  });
  return { list, total };
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
