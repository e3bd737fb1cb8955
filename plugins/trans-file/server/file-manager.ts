import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, deletedSchema, like, pageOf, pageQuery, pageSchema, type Caller, type ServerPluginContext } from '@linguaport/sdk/server';
import { idNumberSchema } from '@linguaport/sdk/shared';
import { messages } from './messages.js';
import { pdfNameOf } from './result.js';
import type { Quotas } from './quota.js';
import { fileReply } from './routes.js';
import type { FileService } from './service.js';
import type { Store } from './store.js';
import type { Db } from './tables.js';

/**
 * /fileManager: everything this area stores for a user, one row per stored file (an upload, its
 * translation, its PDF, an archive and its translated archive, a conversion and its result), with
 * the job it belongs to; download and delete; and the storage quota per user that administrators set.
 * Deleting an upload deletes its whole job (nothing can be made from it any more); deleting a result
 * keeps the job, whose download then answers "file not found" until it is made again (retry).
 */

const USE = { permission: 'fileManager:use' } as const;
const QUOTA = { permission: 'fileManager:quota' } as const;

export const STORED_KINDS = ['source', 'result', 'pdf', 'archive', 'archiveResult', 'conversionSource', 'conversionResult'] as const;
export type StoredKind = (typeof STORED_KINDS)[number];

/** `file:12:result`: the job's table, its id and which of its files. */
const itemSchema = z
  .string()
  .regex(/^(file|job|conversion):\d{1,10}:[a-zA-Z]+$/, 'validation.id')
  .transform((s) => {
    const [type, id, kind] = s.split(':') as ['file' | 'job' | 'conversion', string, StoredKind];
    return { type, id: Number(id), kind };
  })
  .refine((i) => idNumberSchema.safeParse(i.id).success && (STORED_KINDS as readonly string[]).includes(i.kind), 'validation.id');

/** One stored file (the list's row). */
const storedRowSchema = z.object({
  item: z.string().describe('What download and delete name it by: `file:12:result`'),
  kind: z.enum(STORED_KINDS),
  name: z.string(),
  size: z.number().int(),
  createdAt: z.string(),
  jobType: z.enum(['document', 'archive', 'conversion']),
  jobId: z.number().int(),
  jobName: z.string(),
  status: z.string().describe('The state of the job it belongs to'),
});

/** A user's storage use and quota. */
const usageSchema = z.object({
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
  quotaMb: z.number().int(),
  ownQuota: z.boolean().describe('Set for this user (else the default)'),
});

export interface StoredRow {
  item: string;
  kind: StoredKind;
  name: string;
  size: number;
  createdAt: string;
  jobType: 'document' | 'archive' | 'conversion';
  jobId: number;
  jobName: string;
  status: string;
}

export function fileManagerPart(ctx: ServerPluginContext, db: Db, deps: { quotas: Quotas; files: FileService; store: Store }): void {
  const { quotas } = deps;

  /** Every stored file of a user, as rows of one query (a union over the area's tables). */
  const stored = (userId: number) => sql`
    select 'file:' || id || ':source' as item, 'source' as kind, name, size, created_at, 'document' as job_type, id as job_id, name as job_name, status from trans_file_files where owner_id = ${userId} and source_key <> ''
    union all select 'file:' || id || ':result', 'result', result_name, result_size, coalesce(finished_at, created_at), 'document', id, name, status from trans_file_files where owner_id = ${userId} and result_key is not null
    union all select 'file:' || id || ':pdf', 'pdf', regexp_replace(coalesce(result_name, name), '(\\.pdf)?\\.[^.]+$', '', 'i') || '.pdf', pdf_size, coalesce(finished_at, created_at), 'document', id, name, status from trans_file_files where owner_id = ${userId} and pdf_key is not null
    union all select 'job:' || id || ':archive', 'archive', name, size, created_at, 'archive', id, name, status from trans_file_jobs where owner_id = ${userId}
    union all select 'job:' || id || ':archiveResult', 'archiveResult', regexp_replace(name, '\\.[^.]+$', '') || '_translated.zip', result_size, coalesce(finished_at, created_at), 'archive', id, name, status from trans_file_jobs where owner_id = ${userId} and result_key is not null
    union all select 'conversion:' || id || ':conversionSource', 'conversionSource', name, size, created_at, 'conversion', id, name, status from trans_file_conversions where owner_id = ${userId}
    union all select 'conversion:' || id || ':conversionResult', 'conversionResult', result_name, result_size, coalesce(finished_at, created_at), 'conversion', id, name, status from trans_file_conversions where owner_id = ${userId} and result_key is not null`;

  ctx.route({
    method: 'GET',
    url: '/fileManager/list',
    access: USE,
    summary: 'List own stored files',
    schema: {
      query: z.object({
        ...pageQuery,
        name: z.string().trim().max(200).optional(),
        kind: z.enum(STORED_KINDS).optional(),
        sortBy: z.enum(['name', 'size', 'createdAt']).default('createdAt'),
        sortOrder: z.enum(['asc', 'desc']).default('desc'),
      }),
    },
    response: { data: pageSchema(storedRowSchema) },
    async handler({ query, caller }) {
      const where = sql`where true ${query.name ? sql`and (s.name ilike ${like(query.name)} or s.job_name ilike ${like(query.name)})` : sql``} ${query.kind ? sql`and s.kind = ${query.kind}` : sql``}`;
      const order = { name: sql`s.name`, size: sql`s.size`, createdAt: sql`s.created_at` }[query.sortBy];
      const dir = query.sortOrder === 'asc' ? sql`asc` : sql`desc`;
      const total = await sql<{ n: string }>`select count(*) as n from (${stored(caller!.userId)}) s ${where}`.execute(db);
      const rows = await sql<{ item: string; kind: StoredKind; name: string; size: string; created_at: Date; job_type: StoredRow['jobType']; job_id: number; job_name: string; status: string }>`
        select * from (${stored(caller!.userId)}) s ${where} order by ${order} ${dir}, s.item limit ${query.pageSize} offset ${(query.pageNum - 1) * query.pageSize}`.execute(db);
      const records: StoredRow[] = rows.rows.map((r) => ({ item: r.item, kind: r.kind, name: r.name, size: Number(r.size ?? 0), createdAt: new Date(r.created_at).toISOString(), jobType: r.job_type, jobId: r.job_id, jobName: r.job_name, status: r.status }));
      return pageOf(query, records, total.rows[0]?.n);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/fileManager/usage',
    access: USE,
    summary: 'Own storage use and quota',
    response: { data: usageSchema },
    handler: ({ caller }) => quotas.usage(caller!.userId),
  });

  /** The row behind an item, if it is the caller's: its storage key and name. */
  async function resolve(caller: Caller, item: z.infer<typeof itemSchema>): Promise<{ key: string | null; name: string; row: Record<string, unknown> }> {
    const table = item.type === 'file' ? 'trans_file_files' : item.type === 'job' ? 'trans_file_jobs' : 'trans_file_conversions';
    const row = (await (db as any).selectFrom(table).selectAll().where('id', '=', item.id).where('owner_id', '=', caller.userId).executeTakeFirst()) as Record<string, any> | undefined;
    if (!row) throw new ApiError(Codes.NOT_FOUND, messages.notFound(item.id));
    switch (item.kind) {
      case 'source':
      case 'archive':
      case 'conversionSource':
        return { key: row.source_key || null, name: row.name, row };
      case 'result':
      case 'conversionResult':
        return { key: row.result_key, name: row.result_name ?? row.name, row };
      case 'pdf':
        return { key: row.pdf_key, name: pdfNameOf(String(row.result_name ?? row.name)), row };
      case 'archiveResult':
        return { key: row.result_key, name: `${String(row.name).replace(/\.[^.]+$/, '')}_translated.zip`, row };
    }
  }

  ctx.route({
    method: 'GET',
    url: '/fileManager/download',
    access: USE,
    log: false,
    summary: 'Download an own stored file',
    schema: { query: z.object({ item: itemSchema }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404, 2067] },
    async handler({ query, caller }) {
      // A document's result being written (an edit) is served once written.
      if (query.item.type === 'file') await deps.store.settled(query.item.id);
      const { key, name } = await resolve(caller!, query.item);
      if (!key || !(await ctx.storage.exists(key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(name));
      return fileReply(ctx, key, name);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/fileManager/delete',
    access: USE,
    summary: 'Delete own stored files',
    schema: { query: z.object({ items: z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean)).pipe(z.array(itemSchema).min(1).max(200)) }) },
    response: { data: deletedSchema, errors: [404] },
    async handler({ query, caller }) {
      // Every item is checked first: one that is not the caller's refuses the whole call.
      const found = [];
      for (const item of query.items) found.push({ item, ...(await resolve(caller!, item)) });
      let deleted = 0;
      for (const f of found) {
        const whole = f.item.kind === 'source' || f.item.kind === 'archive' || f.item.kind === 'conversionSource';
        if (f.item.type === 'file' && whole) {
          deleted += (await deps.files.remove(caller!, [f.item.id])).deleted;
          continue;
        }
        if (f.item.type === 'file') {
          const set = f.item.kind === 'pdf' ? { pdf_key: null, pdf_size: null } : { result_key: null, result_size: null };
          // As the document's writer: an edit under way would otherwise write the removed file back.
          await deps.store.exclusive(f.item.id, async () => {
            await db.updateTable('trans_file_files').set(set).where('id', '=', f.item.id).execute();
            if (f.key) await ctx.storage.remove(f.key);
          });
          await deps.store.publish(await deps.store.byId(f.item.id));
          deleted++;
          continue;
        }
        const table = f.item.type === 'job' ? 'trans_file_jobs' : 'trans_file_conversions';
        if (whole) {
          if (f.item.type === 'job') {
            const members = await db.selectFrom('trans_file_files').select('id').where('job_id', '=', f.item.id).execute();
            if (members.length) await deps.files.remove(caller!, members.map((m) => m.id));
          }
          await (db as any).deleteFrom(table).where('id', '=', f.item.id).execute();
          await rm(ctx.storage.path(`${f.item.type === 'job' ? 'jobs' : 'conversions'}/${f.item.id}`), { recursive: true, force: true });
        } else {
          await (db as any).updateTable(table).set({ result_key: null, result_size: null }).where('id', '=', f.item.id).execute();
          if (f.key) await ctx.storage.remove(f.key);
        }
        deleted++;
      }
      return { deleted };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/fileManager/quotas',
    access: QUOTA,
    summary: 'Users with their storage use and quota',
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(100).optional() }) },
    response: { data: pageSchema(usageSchema.extend({ userId: z.number().int(), username: z.string(), realName: z.string().nullable() })) },
    async handler({ query }) {
      const { total, users } = await ctx.users.list({ text: query.name, offset: (query.pageNum - 1) * query.pageSize, limit: query.pageSize });
      const records = [];
      for (const u of users) records.push({ userId: u.id, username: u.username, realName: u.realName, ...(await quotas.usage(u.id)) });
      return pageOf(query, records, total);
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/fileManager/quota',
    access: QUOTA,
    summary: 'Set users\' storage quota (null: back to the default)',
    schema: { body: z.object({ userIds: z.array(idNumberSchema).min(1).max(500), quotaMb: z.number().int().min(1).max(1_048_576).nullable() }) },
    response: { data: z.object({ updated: z.number().int() }) },
    async handler({ body }) {
      await quotas.setQuota(body.userIds, body.quotaMb);
      return { updated: body.userIds.length };
    },
  });
}
