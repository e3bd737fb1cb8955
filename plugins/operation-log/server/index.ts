import { sql, type Kysely, type RawBuilder } from 'kysely';
import * as XLSX from '@e965/xlsx';
import { ApiError, Codes, defineServerPlugin, iso, like, operationLine, operationModuleNames, operationTitleColumns, operationTitleJoin, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say, timestampSchema } from '@linguaport/sdk/server';
import type { Locale } from '@linguaport/sdk/shared';
import { z } from '@linguaport/sdk/shared';

/** Rows per export file: an XLSX of this size stays a few MB; narrower filters give the rest. */
export const EXPORT_MAX_ROWS = 50_000;

const filterShape = {
  module: z.string().trim().max(128).optional(),
  /** Operator user name or part of it. */
  operator: z.string().trim().max(255).optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  startTime: z.iso.datetime({ offset: true, local: true }).optional(),
  endTime: z.iso.datetime({ offset: true, local: true }).optional(),
};
const filterSchema = z.object(filterShape);
type Filter = z.infer<typeof filterSchema>;

function whereOf(f: Filter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (f.module) parts.push(sql`module = ${f.module}`);
  if (f.operator) parts.push(sql`operator_name ilike ${like(f.operator)}`);
  if (f.outcome) parts.push(sql`outcome = ${f.outcome}`);
  if (f.startTime) parts.push(sql`created_at >= ${new Date(f.startTime)}`);
  if (f.endTime) parts.push(sql`created_at <= ${new Date(f.endTime)}`);
  return sql.join(parts, sql` and `);
}

/** One line of the log as the list answers it. */
const operationLogRowSchema = z.object({
  id: z.number().int(),
  /** As stored: a plugin id, `auth`, or a kernel area (the filter takes it). */
  module: z.string(),
  /** The module's name in the reader's language. */
  moduleName: z.string(),
  /** The operation in the reader's language, with method and address (older lines: as written, in English). */
  message: z.string(),
  operatorId: z.number().int().nullable(),
  operatorName: z.string().nullable(),
  method: z.string(),
  url: z.string(),
  outcome: z.enum(['success', 'failure']),
  code: z.number().int(),
  ip: z.string().nullable(),
  createdAt: timestampSchema,
});
export type OperationLogRow = z.infer<typeof operationLogRowSchema>;

type ModuleNames = (module: string) => string;

const toRow = (r: Record<string, unknown>, nameOf: ModuleNames, locale: Locale): OperationLogRow => ({
  id: Number(r.id),
  module: String(r.module),
  moduleName: nameOf(String(r.module)),
  message: operationLine(r, locale),
  operatorId: (r.operator_id as number | null) ?? null,
  operatorName: (r.operator_name as string | null) ?? null,
  method: String(r.method),
  url: String(r.url),
  outcome: r.outcome as OperationLogRow['outcome'],
  code: Number(r.code),
  ip: (r.ip as string | null) ?? null,
  createdAt: iso(r.created_at)!,
});

async function select(db: Kysely<any>, where: RawBuilder<unknown>, limit: number, offset: number, nameOf: ModuleNames, locale: Locale) {
  const res = await sql<Record<string, unknown>>`
    select id, module, message, operator_id, operator_name, method, url, outcome, code, ip, created_at, ${operationTitleColumns}
    from operation_log ${operationTitleJoin} where ${where} order by created_at desc, id desc limit ${limit} offset ${offset}`.execute(db);
  return res.rows.map((r) => toRow(r, nameOf, locale));
}

/** Reads the kernel's operation log (table `operation_log`, written by the kernel for every mutating call). */
export default defineServerPlugin({
  setup(ctx) {
    const { db } = ctx;
    const checkRange = (f: Filter, headers: Record<string, string | string[] | undefined>) => {
      if (f.startTime && f.endTime && new Date(f.startTime) > new Date(f.endTime)) {
        throw new ApiError(Codes.BAD_REQUEST, `endTime: ${say(headers, '结束时间不能早于开始时间', 'The end time cannot be before the start time')}`);
      }
    };

    ctx.route({
      method: 'GET',
      url: '/operationLog/list',
      access: { permission: 'operationLog:list' },
      summary: 'List operation log entries by page',
      schema: { query: z.object({ ...pageQuery, ...filterShape }) },
      response: { data: pageSchema(operationLogRowSchema) },
      async handler({ query, headers }) {
        checkRange(query, headers);
        const where = whereOf(query);
        const [count, records] = await Promise.all([
          sql<{ n: string }>`select count(*) as n from operation_log where ${where}`.execute(db),
          select(db, where, query.pageSize, pageOffset(query), await operationModuleNames(db, requestLocale(headers)), requestLocale(headers)),
        ]);
        return pageOf(query, records, count.rows[0]?.n);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/operationLog/modules',
      access: { permission: 'operationLog:list' },
      summary: 'List operation log modules',
      response: { data: z.array(z.string()) },
      async handler() {
        const rows = await db.selectFrom('operation_log').select('module').distinct().orderBy('module').execute();
        return rows.map((r) => r.module as string);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/operationLog/moduleNames',
      access: { permission: 'operationLog:list' },
      summary: 'List operation log modules with their names in the reader\'s language',
      response: { data: z.array(z.object({ module: z.string(), name: z.string() })) },
      async handler({ headers }) {
        const rows = await db.selectFrom('operation_log').select('module').distinct().orderBy('module').execute();
        const nameOf = await operationModuleNames(db, requestLocale(headers));
        return rows.map((r) => ({ module: r.module as string, name: nameOf(r.module as string) }));
      },
    });

    ctx.route({
      method: 'GET',
      url: '/operationLog/export',
      access: { permission: 'operationLog:export' },
      summary: 'Export operation log entries',
      schema: { query: filterSchema },
      response: { envelope: false, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      async handler({ query, headers }) {
        checkRange(query, headers);
        const where = whereOf(query);
        const total = Number((await sql<{ n: string }>`select count(*) as n from operation_log where ${where}`.execute(db)).rows[0]?.n ?? 0);
        if (total > EXPORT_MAX_ROWS) {
          throw new ApiError(Codes.BAD_REQUEST, say(headers, `匹配 ${total} 条，超过单次导出上限 ${EXPORT_MAX_ROWS} 条，请缩小时间范围`, `${total} rows match, more than the ${EXPORT_MAX_ROWS} one export allows; narrow the time range`));
        }
        const rows = await select(db, where, EXPORT_MAX_ROWS, 0, await operationModuleNames(db, requestLocale(headers)), requestLocale(headers));
        const zh = say(headers, 'zh', 'en') === 'zh';
        const header = zh ? ['时间', '模块', '操作', '操作人', '结果', '代码', '方法', '地址', 'IP'] : ['Time', 'Module', 'Operation', 'Operator', 'Outcome', 'Code', 'Method', 'URL', 'IP'];
        const sheet = XLSX.utils.aoa_to_sheet([header, ...rows.map((r) => [r.createdAt, r.moduleName, r.message, r.operatorName ?? '', zh ? (r.outcome === 'success' ? '成功' : '失败') : r.outcome, r.code, r.method, r.url, r.ip ?? ''])]);
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, sheet, 'operation-log');
        return {
          raw: true,
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          body: XLSX.write(book, { bookType: 'xlsx', type: 'buffer' }) as Buffer,
          headers: { 'content-disposition': 'attachment; filename="operation-log.xlsx"' },
        };
      },
    });
  },
});
