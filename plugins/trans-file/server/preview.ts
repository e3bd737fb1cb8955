import { extname } from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, pageOf, pageQuery, pageSchema, type ServerPluginContext, type TaskHandle } from '@linguaport/sdk/server';
import { blocking, canTake, checkTags, documentFile, idSchema, nextState, previewStatus, qaRefusal, TransitionError } from '@linguaport/sdk/shared';
import { unitEditSchema, unitRowSchema, type UnitRow } from '../shared/schemas.js';
import { messages, stateRefusal } from './messages.js';
import { convertWithOffice, pdfPages } from '@linguaport/sdk/server';
import { buildResult, keys, readUnits, withTargets } from './result.js';
import { USE } from './routes.js';
import type { File, Store } from './store.js';
import type { Db } from './tables.js';

/**
 * Previews of a completed file.
 * - /fileView: source and translation paragraph by paragraph, from the units (every format); a
 *   translated paragraph can be edited, and the result file (and its PDF) is written again.
 * - /fileView2: the documents themselves, original beside translation, as page images: each is
 *   rendered to PDF by LibreOffice (a PDF original as it is; text formats as plain text pages) and
 *   rasterised by poppler. Prepared on demand as a task; its state is the SDK's previewStatus machine.
 */

/** Formats LibreOffice lays out as documents; other text formats are shown as their plain text. */
const OFFICE_RENDERED = new Set(['docx', 'doc', 'xlsx', 'xls', 'pptx', 'ppt', 'odt', 'ods', 'odp', 'rtf', 'html', 'htm', 'txt']);
export const PREVIEW_PAGES = 30;

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 1 << 20));
    return true;
  } catch {
    return false;
  }
}

type Layout = 'pdf' | 'office' | 'text' | null;

/** How a document is laid out for its preview, or null when it cannot be (a binary format LibreOffice does not read). */
function layoutOf(bytes: Uint8Array, name: string): Layout {
  const ext = extname(name).slice(1).toLowerCase();
  if (ext === 'pdf') return 'pdf';
  if (OFFICE_RENDERED.has(ext)) return 'office';
  return isText(bytes) ? 'text' : null;
}

/** A document's pages as PNG images. */
async function renderPages(bytes: Uint8Array, name: string, signal: AbortSignal): Promise<Buffer[]> {
  const layout = layoutOf(bytes, name);
  const pdf = layout === 'pdf' ? bytes : await convertWithOffice(bytes, layout === 'text' ? `${name}.txt` : name, 'pdf', { signal });
  return pdfPages(pdf, { dpi: 60, maxPages: PREVIEW_PAGES, signal });
}

/** Removes the page images of a file's rendered preview. */
async function removePages(storage: ServerPluginContext['storage'], id: number): Promise<void> {
  for (const side of ['source', 'target'] as const) {
    for (let page = 1; page <= PREVIEW_PAGES; page++) await storage.remove(keys.preview(id, side, page)).catch(() => undefined);
  }
}

// The answers, as the OpenAPI document states them (the tests check real answers against them).
const previewState = z.enum(previewStatus.states as unknown as [string, ...string[]]);
const previewAnswer = z.object({ status: previewState });
const previewPages = z.object({ status: previewState, sourcePages: z.number().int().min(0), targetPages: z.number().int().min(0) });
const ocrBlock = z.object({
  idx: z.number().int(),
  source: z.string(),
  target: z.string().nullable(),
  ocr: z.boolean().describe('Recognised from the page image (else the PDF\'s own text)'),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
});
const ocrAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  ocr: z.boolean(),
  pages: z.array(z.object({ number: z.number().int().min(1), width: z.number().describe('PDF points'), height: z.number(), blocks: z.array(ocrBlock) })),
});

export interface PreviewDeps {
  ctx: ServerPluginContext;
  db: Db;
  store: Store;
  languageName(code: string): string;
}

const moveState = (from: string, action: string) => {
  try {
    return nextState(previewStatus, from as never, action as never);
  } catch (err) {
    if (err instanceof TransitionError) return null;
    throw err;
  }
};

export async function previewPart(deps: PreviewDeps): Promise<void> {
  const { ctx, db, store } = deps;

  /** Sets the preview state if the machine allows `action` from the stored one (guarded like the file status). */
  async function movePreview(file: File, action: string, set: Record<string, unknown> = {}): Promise<File | undefined> {
    const to = moveState(file.preview_status, action);
    if (!to) return undefined;
    const row = await db
      .updateTable('trans_file_files')
      .set({ ...set, preview_status: to } as never)
      .where('id', '=', file.id)
      .where('preview_status', '=', file.preview_status)
      .returningAll()
      .executeTakeFirst();
    await store.publish(row);
    return row;
  }

  const render: TaskHandle<{ fileId: number }, unknown> = await ctx.tasks.define({
    name: 'render-preview',
    input: z.object({ fileId: z.number().int().positive() }),
    async run({ input, signal }) {
      const file = await store.byId(input.fileId);
      if (!file || file.preview_status !== 'preparing' || !file.result_key || !file.result_name) return { skipped: true };
      try {
        const source = await renderPages(await ctx.storage.get(file.source_key), file.name, signal);
        // An edit may rewrite the result while its pages are rendered: the pages are kept only if the
        // result is still the one rendered (checked as the file's writer), otherwise rendered again.
        for (let round = 1; ; round++) {
          const result = await ctx.storage.get(file.result_key);
          const target = await renderPages(result, file.result_name, signal);
          const kept = await store.exclusive(file.id, async () => {
            const now = await store.byId(file.id);
            if (!now || now.preview_status !== 'preparing' || now.result_key !== file.result_key) return true;
            const current = await ctx.storage.get(file.result_key!).catch(() => null);
            if (!(current && Buffer.from(result).equals(current))) {
              if (round >= 5) throw new Error('the result kept changing while its pages were rendered');
              return false;
            }
            await removePages(ctx.storage, file.id);
            for (const [side, pages] of [['source', source], ['target', target]] as const) {
              for (const [i, png] of pages.entries()) await ctx.storage.put(keys.preview(file.id, side, i + 1), png);
            }
            await movePreview(now, 'ready', { error: now.error });
            return true;
          });
          if (kept) return { sourcePages: source.length, targetPages: target.length };
        }
      } catch (err) {
        if (signal.aborted) throw err;
        ctx.logger.warn(`file ${file.id}: preview failed: ${(err as Error).message}`);
        const now = await store.byId(file.id);
        if (now) await movePreview(now, 'fail');
        return { failed: (err as Error).message };
      }
    },
  });

  const pageCount = async (id: number, side: 'source' | 'target') => {
    let n = 0;
    while (n < PREVIEW_PAGES && (await ctx.storage.exists(keys.preview(id, side, n + 1)))) n++;
    return n;
  };

  /** The file for a preview: the caller's own (or a manager's), and completed (the machine's `preview`). */
  async function previewable(caller: Parameters<Store['forCaller']>[0], id: number) {
    const found = await store.forCaller(caller, id, ctx.auth);
    if (!canTake(documentFile, found.file.status, 'preview', found.actor)) throw stateRefusal('preview', found.file.status);
    return found;
  }

  ctx.route({
    method: 'GET',
    url: '/transFile/units/:id',
    access: USE,
    summary: 'Paragraphs of a document with their translations',
    schema: {
      params: z.object({ id: idSchema }),
      // A preview reads many paragraphs at once: the same paging fields, larger pages.
      query: z.object({ pageNum: pageQuery.pageNum, pageSize: z.coerce.number().int().min(1).max(500).default(100), q: z.string().trim().max(200).optional() }),
    },
    response: { data: pageSchema(unitRowSchema), errors: [404, 409] },
    async handler({ params, query, caller }) {
      const { file } = await previewable(caller!, params.id);
      let q = db.selectFrom('trans_file_units').where('file_id', '=', file.id);
      if (query.q) q = q.where((eb) => eb.or([eb(sql`position(lower(${query.q}) in lower(source))`, '>', 0), eb(sql`position(lower(${query.q}) in lower(coalesce(target, '')))`, '>', 0)]));
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q.select(['idx', 'source', 'target', 'origin', 'edited', 'part', 'sentences']).orderBy('idx').limit(query.pageSize).offset((query.pageNum - 1) * query.pageSize).execute();
      return pageOf(query, rows as UnitRow[], total.n);
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/transFile/units/:id/:idx',
    access: USE,
    summary: 'Edit the translation of a paragraph (the result file is written again)',
    schema: { params: z.object({ id: idSchema, idx: z.coerce.number().int().min(0).max(10_000_000) }), body: unitEditSchema },
    response: { data: unitRowSchema, errors: [400, 404, 409, 2067] },
    async handler({ params, body, caller }) {
      await previewable(caller!, params.id);
      // The paragraph is stored and the result written as one step of the file's one writer: whoever
      // sees the edited paragraph and then downloads waits for its result, and the file is checked
      // again inside (a retry or a deletion may have gone first).
      return store.exclusive(params.id, async () => {
        const { file } = await previewable(caller!, params.id);
        if (!file.result_key || !(await ctx.storage.exists(file.result_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(file.name));
        const before = await db.selectFrom('trans_file_units').select('source').where('file_id', '=', file.id).where('idx', '=', params.idx).executeTakeFirst();
        if (!before) throw new ApiError(Codes.NOT_FOUND, messages.noUnit(params.idx));
        // A translation whose placeholders do not match its source would lose its formatting in the
        // file (and in any memory it is written to): refused, naming the tag, and nothing is stored.
        const problems = blocking(checkTags(before.source, body.target));
        if (problems.length) throw new ApiError(Codes.BAD_REQUEST, qaRefusal(problems));
        const unit = await db
          .updateTable('trans_file_units')
          // The paragraph is now the translator's as a whole: its sentences' machine or memory origins no longer hold.
          .set({ target: body.target, edited: true, origin: 'edited', sentences: null })
          .where('file_id', '=', file.id)
          .where('idx', '=', params.idx)
          .returning(['idx', 'source', 'target', 'origin', 'edited', 'part', 'sentences'])
          .executeTakeFirst();
        if (!unit) throw new ApiError(Codes.NOT_FOUND, messages.noUnit(params.idx));
        await rewrite(file);
        return unit as UnitRow;
      });
    },
  });

  /**
   * Writes the result (and its PDF) again from the stored translations; the rendered preview is then
   * stale. Called inside `store.exclusive` for the file, so it reads every edit answered before it.
   */
  async function rewrite(file: File): Promise<void> {
    const format = ctx.formats.byId(file.format);
    if (!format || !file.result_key) throw new ApiError(Codes.INTERNAL, messages.readFailed);
    const parsed = await format.parse(await ctx.storage.get(file.source_key), { fileName: file.name, sourceLanguage: file.source_lang });
    const built = await buildResult({ file, format, parsed, units: withTargets(parsed, await readUnits(db, file.id)) }, deps.languageName);
    const stored = await ctx.storage.put(file.result_key, Buffer.from(built.bytes));
    let pdfSize = file.pdf_size;
    if (file.pdf_key) {
      const pdf = await convertWithOffice(built.bytes, built.name, 'pdf').catch(() => null);
      if (pdf) pdfSize = (await ctx.storage.put(file.pdf_key, pdf)).size;
    }
    const updated = await store.update(file.id, ['completed'], { result_size: stored.size, pdf_size: pdfSize });
    if (updated) await movePreview(updated, 'invalidate');
  }

  ctx.route({
    method: 'POST',
    url: '/transFile/preview/:id',
    access: USE,
    summary: 'Prepare the rendered preview of a document',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: previewAnswer, errors: [404, 409] },
    async handler({ params, caller }) {
      const { file } = await previewable(caller!, params.id);
      if (file.preview_status === 'prepared' || file.preview_status === 'preparing' || file.preview_status === 'unsupported') return { status: file.preview_status };
      // Neither LibreOffice nor plain text can lay it out: said once, for good (a final state).
      if (file.preview_status === 'notPreviewed' && !layoutOf(await ctx.storage.get(file.source_key), file.name)) {
        return { status: (await movePreview(file, 'unsupported'))?.preview_status ?? file.preview_status };
      }
      const moved = await movePreview(file, 'prepare');
      if (!moved) return { status: (await store.byId(file.id))?.preview_status ?? file.preview_status };
      await render.start({ fileId: file.id }, { ownerId: file.owner_id, title: file.name, priority: 5 });
      return { status: moved.preview_status };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/preview/:id',
    access: USE,
    summary: 'The state of a document\'s rendered preview and its page counts',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: previewPages, errors: [404, 409] },
    async handler({ params, caller }) {
      const { file } = await previewable(caller!, params.id);
      const ready = file.preview_status === 'prepared';
      return { status: file.preview_status, sourcePages: ready ? await pageCount(file.id, 'source') : 0, targetPages: ready ? await pageCount(file.id, 'target') : 0 };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/preview/:id/:side/:page',
    access: USE,
    log: false,
    summary: 'One page image of a document\'s rendered preview',
    schema: { params: z.object({ id: idSchema, side: z.enum(['source', 'target']), page: z.coerce.number().int().min(1).max(PREVIEW_PAGES) }) },
    response: { envelope: false, contentType: 'image/png', errors: [404, 409, 2067] },
    async handler({ params, caller }) {
      const { file } = await previewable(caller!, params.id);
      const key = keys.preview(file.id, params.side, params.page);
      if (file.preview_status !== 'prepared' || !(await ctx.storage.exists(key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(`${file.name} p.${params.page}`));
      return { raw: true, contentType: 'image/png', body: ctx.storage.stream(key), headers: { 'cache-control': 'private, max-age=60' } };
    },
  });

  // /fileViewOCR: a scanned document's recognised text over its page images, block by block with the
  // translation of each. The boxes are the format's (PDF points, with the page's size); the page
  // images are rendered from the original on first view and kept with the file.
  ctx.route({
    method: 'GET',
    url: '/transFile/ocr/:id',
    access: USE,
    summary: 'The recognised text of a scanned document, page by page, with boxes and translations',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: ocrAnswer, errors: [404, 409] },
    async handler({ params, caller }) {
      const { file } = await previewable(caller!, params.id);
      const rows = await db.selectFrom('trans_file_units').select(['idx', 'source', 'target', 'part', 'style', 'meta']).where('file_id', '=', file.id).orderBy('idx').execute();
      const pages = new Map<number, { number: number; width: number; height: number; blocks: Array<{ idx: number; source: string; target: string | null; ocr: boolean; x: number; y: number; w: number; h: number }> }>();
      for (const r of rows) {
        const meta = (typeof r.meta === 'string' ? JSON.parse(r.meta) : r.meta) as Record<string, string> | null;
        const number = Number(/^page (\d+)$/.exec(r.part ?? '')?.[1] ?? 0);
        if (!meta || !number) continue;
        let page = pages.get(number);
        if (!page) pages.set(number, (page = { number, width: Number(meta.pageWidth ?? 0), height: Number(meta.pageHeight ?? 0), blocks: [] }));
        page.blocks.push({ idx: r.idx, source: r.source, target: r.target, ocr: r.style === 'ocr', x: Number(meta.x), y: Number(meta.y), w: Number(meta.w), h: Number(meta.h) });
      }
      return { id: file.id, name: file.name, ocr: file.ocr, pages: [...pages.values()].sort((a, b) => a.number - b.number) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/ocr/:id/page/:page',
    access: USE,
    log: false,
    summary: 'One page of a scanned document as an image',
    schema: { params: z.object({ id: idSchema, page: z.coerce.number().int().min(1).max(5000) }) },
    response: { envelope: false, contentType: 'image/png', errors: [404, 409, 2067] },
    async handler({ params, caller }) {
      const { file } = await previewable(caller!, params.id);
      if (file.format !== 'pdf') throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(`${file.name} p.${params.page}`));
      const key = `files/${file.id}/ocr/page-${params.page}.png`;
      if (!(await ctx.storage.exists(key))) {
        const [png] = await pdfPages(await ctx.storage.get(file.source_key), { dpi: 100, firstPage: params.page, maxPages: params.page }).catch(() => []);
        if (!png) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(`${file.name} p.${params.page}`));
        await ctx.storage.put(key, png);
      }
      return { raw: true, contentType: 'image/png', body: ctx.storage.stream(key), headers: { 'cache-control': 'private, max-age=300' } };
    },
  });
}
