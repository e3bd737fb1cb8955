import { sql, type Kysely, type RawBuilder } from 'kysely';
import { like, operationLine, operationModuleNames, operationTitleColumns, operationTitleJoin, type OperationLogFilter, type OperationLogReader } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `ctx.operationLog`: the kernel's operation log read for the areas that show it (the log's own
 * screen, the home page), each line and module name in the reader's language.
 */
export function createOperationLogReader(db: Kysely<KernelTables>): OperationLogReader {
  const whereOf = (f: OperationLogFilter): RawBuilder<unknown> => {
    const parts: RawBuilder<unknown>[] = [sql`true`];
    if (f.module) parts.push(sql`operation_log.module = ${f.module}`);
    if (f.operator) parts.push(sql`operation_log.operator_name ilike ${like(f.operator)}`);
    if (f.outcome) parts.push(sql`operation_log.outcome = ${f.outcome}`);
    if (f.from) parts.push(sql`operation_log.created_at >= ${f.from}`);
    if (f.to) parts.push(sql`operation_log.created_at <= ${f.to}`);
    return sql.join(parts, sql` and `);
  };
  return {
    async list(q, locale) {
      const [res, nameOf] = await Promise.all([
        sql<Record<string, unknown>>`
          select operation_log.id, module, message, operator_id, operator_name, method, url, outcome, code, ip, created_at, ${operationTitleColumns}
          from operation_log ${operationTitleJoin} where ${whereOf(q)}
          order by created_at desc, operation_log.id desc limit ${q.limit} offset ${q.offset ?? 0}`.execute(db),
        operationModuleNames(db, locale),
      ]);
      return res.rows.map((r) => ({
        id: Number(r.id),
        module: String(r.module),
        moduleName: nameOf(String(r.module)),
        message: operationLine(r, locale),
        operatorId: (r.operator_id as number | null) ?? null,
        operatorName: (r.operator_name as string | null) ?? null,
        method: String(r.method),
        url: String(r.url),
        outcome: r.outcome as 'success' | 'failure',
        code: Number(r.code),
        ip: (r.ip as string | null) ?? null,
        createdAt: new Date(r.created_at as string | Date),
      }));
    },
    async count(q) {
      const res = await sql<{ n: string }>`select count(*) as n from operation_log where ${whereOf(q)}`.execute(db);
      return Number(res.rows[0]?.n ?? 0);
    },
    async modules(locale) {
      const [rows, nameOf] = await Promise.all([db.selectFrom('operation_log').select('module').distinct().orderBy('module').execute(), operationModuleNames(db, locale)]);
      return rows.map((r) => ({ module: r.module, name: nameOf(r.module) }));
    },
  };
}
