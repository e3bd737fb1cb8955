import * as XLSX from '@e965/xlsx';
import { ApiError, Codes, defineServerPlugin, pageOf, pageOffset, pageQuery, pageSchema, requestLocale, say, timestampSchema, type OperationLogEntry, type OperationLogFilter } from '@linguaport/sdk/server';
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

/** The filter as the kernel's operation log takes it. */
const filterOf = (f: Filter): OperationLogFilter => ({
  module: f.module || undefined,
  operator: f.operator || undefined,
  outcome: f.outcome,
  from: f.startTime ? new Date(f.startTime) : undefined,
  to: f.endTime ? new Date(f.endTime) : undefined,
});

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

const toRow = (l: OperationLogEntry): OperationLogRow => ({ ...l, createdAt: l.createdAt.toISOString() });

/** Reads the kernel's operation log (`ctx.operationLog`; the kernel writes a line for every mutating call). */
export default defineServerPlugin({
  setup(ctx) {
    const log = ctx.operationLog;
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
        const filter = filterOf(query);
        const [count, lines] = await Promise.all([log.count(filter), log.list({ ...filter, limit: query.pageSize, offset: pageOffset(query) }, requestLocale(headers))]);
        return pageOf(query, lines.map(toRow), count);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/operationLog/modules',
      access: { permission: 'operationLog:list' },
      summary: 'List operation log modules',
      response: { data: z.array(z.string()) },
      async handler({ headers }) {
        return (await log.modules(requestLocale(headers))).map((m) => m.module);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/operationLog/moduleNames',
      access: { permission: 'operationLog:list' },
      summary: 'List operation log modules with their names in the reader\'s language',
      response: { data: z.array(z.object({ module: z.string(), name: z.string() })) },
      async handler({ headers }) {
        return log.modules(requestLocale(headers));
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
        const filter = filterOf(query);
        const total = await log.count(filter);
        if (total > EXPORT_MAX_ROWS) {
          throw new ApiError(Codes.BAD_REQUEST, say(headers, `匹配 ${total} 条，超过单次导出上限 ${EXPORT_MAX_ROWS} 条，请缩小时间范围`, `${total} rows match, more than the ${EXPORT_MAX_ROWS} one export allows; narrow the time range`));
        }
        const rows = (await log.list({ ...filter, limit: EXPORT_MAX_ROWS }, requestLocale(headers))).map(toRow);
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
