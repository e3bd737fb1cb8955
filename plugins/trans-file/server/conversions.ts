import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, deletedSchema, idList, like, pageOf, pageQuery, pageSchema, type Caller, type LocalizedText, type ServerPluginContext, type TaskHandle, optionalUploadedFilesSchema } from '@linguaport/sdk/server';
import { canTake, idSchema, nextState, pdfConversion, TransitionError, type Actor } from '@linguaport/sdk/shared';
import { badRequest, messages } from './messages.js';
import { ConversionError, convertWithOffice, pdfPageCount } from '@linguaport/sdk/server';
import type { Quotas } from './quota.js';
import { fileReply, incoming } from './routes.js';
import type { AreaSettings } from './settings.js';
import { MANAGE } from './store.js';
import type { ConversionsTable, Db } from './tables.js';
import { isZip } from '@linguaport/sdk/interchange';

/**
 * /pdf: PDF conversion. A PDF becomes an editable docx (LibreOffice's PDF import: the text in frames
 * placed where it stood, so the layout holds), and an office document (or a text, an html page)
 * becomes a PDF. Each conversion is a task; its state is the SDK's pdfConversion machine (not
 * converted, converting, completed, failed) and a failed one can be converted again.
 */

const USE = { permission: 'pdf:use' } as const;
export const DIRECTIONS = ['pdfToDocx', 'toPdf'] as const;
export type Direction = (typeof DIRECTIONS)[number];
type Conversion = Selectable<ConversionsTable>;

const OFFICE_EXTENSIONS = ['docx', 'doc', 'xlsx', 'xls', 'pptx', 'ppt', 'odt', 'ods', 'odp', 'rtf', 'txt', 'html', 'htm'];

/** What the bytes are, judged by their content (a renamed file is refused); null when nothing LibreOffice should open. */
export function documentKind(name: string, bytes: Buffer): 'pdf' | 'office' | null {
  const ext = extname(name).slice(1).toLowerCase();
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return ext === 'pdf' ? 'pdf' : null;
  if (!OFFICE_EXTENSIONS.includes(ext)) return null;
  const ole = bytes.length > 8 && bytes.readUInt32BE(0) === 0xd0cf11e0 && bytes.readUInt32BE(4) === 0xa1b11ae1;
  if (['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp'].includes(ext)) return isZip(bytes) ? 'office' : null;
  if (['doc', 'xls', 'ppt'].includes(ext)) return ole ? 'office' : null;
  if (ext === 'rtf') return bytes.subarray(0, 5).toString('latin1') === '{\\rtf' ? 'office' : null;
  // txt and html: text, not binary.
  if (bytes.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 1 << 20));
    return 'office';
  } catch {
    return null;
  }
}

const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

/** A conversion (the list's row; what upload and retry answer). */
const conversionSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  direction: z.enum(DIRECTIONS),
  status: z.enum(pdfConversion.states as unknown as [string, ...string[]]),
  resultName: z.string().nullable(),
  resultSize: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

export function present(c: Conversion) {
  return {
    id: c.id,
    ownerId: c.owner_id,
    name: c.name,
    size: Number(c.size),
    direction: c.direction,
    status: c.status,
    resultName: c.result_name,
    resultSize: c.result_size === null ? null : Number(c.result_size),
    error: c.error,
    createdAt: new Date(c.created_at as unknown as string).toISOString(),
    finishedAt: c.finished_at ? new Date(c.finished_at as unknown as string).toISOString() : null,
  };
}

export async function conversionPart(ctx: ServerPluginContext, db: Db, deps: { settings: AreaSettings; quotas: Quotas }): Promise<void> {
  const publish = async (c: Conversion | undefined) => {
    if (c) await ctx.bus.publish({ type: 'transFile.conversionChanged', payload: present(c), audience: { userIds: [c.owner_id] } }).catch(() => undefined);
  };

  /** Moves a conversion through the pdfConversion machine, guarded on its current state. */
  async function move(c: Conversion, action: string, actor: Actor, set: Partial<Record<keyof ConversionsTable, unknown>> = {}): Promise<Conversion | undefined> {
    let to;
    try {
      to = nextState(pdfConversion, c.status, action as never, actor);
    } catch (err) {
      if (err instanceof TransitionError) throw new ApiError(Codes.CONFLICT, text(`当前状态不允许此操作（${c.status}）`, `Not allowed while the conversion is ${c.status}`));
      throw err;
    }
    const row = await db.updateTable('trans_file_conversions').set({ ...(set as object), status: to } as never).where('id', '=', c.id).where('status', '=', c.status).returningAll().executeTakeFirst();
    await publish(row);
    return row;
  }

  const convert: TaskHandle<{ id: number }, unknown> = await ctx.tasks.define({
    name: 'convert-document',
    input: z.object({ id: z.number().int().positive() }),
    retryLimit: 1,
    async run({ input, signal }) {
      const c = await db.selectFrom('trans_file_conversions').selectAll().where('id', '=', input.id).executeTakeFirst();
      if (!c || c.status !== 'converting') return { skipped: true };
      try {
        const bytes = await ctx.storage.get(c.source_key);
        // LibreOffice makes an empty document of a damaged PDF without complaint: poppler checks it first.
        if (c.direction === 'pdfToDocx' && !(await pdfPageCount(bytes))) throw new ConversionError('the PDF cannot be read (damaged, or not a PDF)');
        const base = c.name.replace(/\.[^.]+$/, '');
        const out =
          c.direction === 'pdfToDocx'
            ? { bytes: await convertWithOffice(bytes, c.name, 'docx:MS Word 2007 XML', { infilter: 'writer_pdf_import', signal }), name: `${base}.docx` }
            : { bytes: await convertWithOffice(bytes, c.name, 'pdf', { signal }), name: `${base}.pdf` };
        const key = `conversions/${c.id}/result${extname(out.name)}`;
        const stored = await ctx.storage.put(key, out.bytes);
        await move(c, 'complete', 'system', { result_key: key, result_name: out.name, result_size: stored.size, finished_at: sql`now()`, error: null });
        return { size: stored.size };
      } catch (err) {
        if (signal.aborted) throw err;
        await move(c, 'fail', 'system', { error: (err as Error).message.split('\n')[0]!.slice(0, 300), finished_at: sql`now()` });
        return { failed: true };
      }
    },
  });

  async function own(caller: Caller, id: number): Promise<{ c: Conversion; actor: Actor }> {
    const c = await db.selectFrom('trans_file_conversions').selectAll().where('id', '=', id).executeTakeFirst();
    if (c && c.owner_id === caller.userId) return { c, actor: 'owner' };
    if (c && ctx.auth.can(caller, MANAGE)) return { c, actor: 'owner' };
    throw new ApiError(Codes.NOT_FOUND, messages.notFound(id));
  }

  ctx.route({
    method: 'POST',
    url: '/pdf/upload',
    access: USE,
    summary: 'Convert documents: PDF to docx, or office documents to PDF',
    upload: { maxBytes: 1024 * 1024 * 1024 },
    schema: { body: z.object({ direction: z.enum(DIRECTIONS), files: optionalUploadedFilesSchema }) },
    response: { data: z.array(conversionSchema), errors: [409] },
    async handler({ body, caller }) {
      const limits = await deps.settings.get();
      const files = incoming(body.files);
      if (files.length === 0) throw badRequest(messages.noFiles);
      if (files.length > limits.maxFiles) throw badRequest(messages.tooMany(limits.maxFiles));
      const refused: LocalizedText[] = [];
      for (const f of files) {
        if (f.size === 0) refused.push(messages.empty(f.name));
        else if (f.size > limits.maxFileMb * 1024 * 1024) refused.push(messages.tooLarge(f.name, limits.maxFileMb));
        else {
          const kind = documentKind(f.name, f.bytes());
          const wanted = body.direction === 'pdfToDocx' ? 'pdf' : 'office';
          if (kind !== wanted) refused.push(messages.notSupported(f.name, body.direction === 'pdfToDocx' ? 'pdf' : OFFICE_EXTENSIONS.join(', ')));
        }
      }
      if (refused.length) throw badRequest({ 'zh-CN': refused.map((r) => r['zh-CN']).join('；'), 'en-US': refused.map((r) => r['en-US']).join('; ') });
      await deps.quotas.assertRoom(caller!.userId, files.reduce((n, f) => n + f.size, 0));
      const rows = [];
      for (const f of files) {
        const row = await db
          .insertInto('trans_file_conversions')
          .values({ owner_id: caller!.userId, name: f.name, size: f.size, source_key: '', direction: body.direction, status: pdfConversion.initial, result_key: null, result_name: null, result_size: null, task_id: null, error: null, finished_at: null })
          .returningAll()
          .executeTakeFirstOrThrow();
        const key = `conversions/${row.id}/source${extname(f.name).toLowerCase().replace(/[^.a-z0-9]/g, '')}`;
        await ctx.storage.put(key, f.path ? createReadStream(f.path) : f.bytes());
        await db.updateTable('trans_file_conversions').set({ source_key: key }).where('id', '=', row.id).execute();
        const moving = (await move({ ...row, source_key: key }, 'convert', 'owner'))!;
        const task = await convert.start({ id: row.id }, { ownerId: caller!.userId, title: f.name, priority: 5 });
        await db.updateTable('trans_file_conversions').set({ task_id: task.id }).where('id', '=', row.id).execute();
        rows.push(present(moving));
      }
      return rows;
    },
  });

  ctx.route({
    method: 'GET',
    url: '/pdf/list',
    access: USE,
    summary: 'List own conversions',
    response: { data: pageSchema(conversionSchema) },
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().max(200).optional(), status: z.enum(pdfConversion.states as unknown as [string, ...string[]]).optional(), direction: z.enum(DIRECTIONS).optional() }) },
    async handler({ query, caller }) {
      let q = db.selectFrom('trans_file_conversions').where('owner_id', '=', caller!.userId);
      if (query.name) q = q.where('name', 'ilike', like(query.name));
      if (query.status) q = q.where('status', '=', query.status as Conversion['status']);
      if (query.direction) q = q.where('direction', '=', query.direction);
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset((query.pageNum - 1) * query.pageSize).execute();
      return pageOf(query, rows.map(present), total.n);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/pdf/retry/:id',
    access: USE,
    summary: 'Convert a failed conversion again',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: conversionSchema, errors: [404, 409] },
    async handler({ params, caller }) {
      const { c, actor } = await own(caller!, params.id);
      const moved = await move(c, 'convert', actor, { error: null });
      if (!moved) throw new ApiError(Codes.CONFLICT, text('转换状态已改变', 'The conversion changed meanwhile'));
      await convert.start({ id: c.id }, { ownerId: c.owner_id, title: c.name, priority: 5 });
      return present(moved);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/pdf/download/:id',
    access: USE,
    log: false,
    summary: 'Download a converted file',
    schema: { params: z.object({ id: idSchema }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404, 409, 2067] },
    async handler({ params, caller }) {
      const { c, actor } = await own(caller!, params.id);
      if (!canTake(pdfConversion, c.status, 'download', actor)) throw new ApiError(Codes.CONFLICT, text('只能下载已完成的转换', 'Only a completed conversion can be downloaded'));
      if (!c.result_key || !c.result_name || !(await ctx.storage.exists(c.result_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(c.name));
      return fileReply(ctx, c.result_key, c.result_name);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/pdf/delete',
    access: USE,
    summary: 'Delete conversions',
    schema: { query: z.object({ ids: idList }) },
    response: { data: deletedSchema, errors: [404] },
    async handler({ query, caller }) {
      const found = [];
      for (const id of query.ids) found.push((await own(caller!, id)).c);
      for (const c of found) {
        if (c.task_id && c.status === 'converting') await convert.cancel(c.task_id);
        await db.deleteFrom('trans_file_conversions').where('id', '=', c.id).execute();
        await rm(ctx.storage.path(`conversions/${c.id}`), { recursive: true, force: true });
      }
      return { deleted: found.length };
    },
  });

}
