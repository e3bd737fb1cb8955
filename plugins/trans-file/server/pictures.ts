import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, deletedSchema, engineLanguageSchema, idList, inScratch, pageOf, pageQuery, pageSchema, pictureInputArgs, pictureKind, pictureSize, runTool, ToolError, type Caller, type LocalizedText, type ServerPluginContext, optionalUploadedFilesSchema } from '@linguaport/sdk/server';
import { canTake, documentFile, idSchema, type FileFormat } from '@linguaport/sdk/shared';
import { fileRowSchema, translateOptionsSchema, type FileRow } from '../shared/schemas.js';
import { badRequest, messages, stateRefusal } from './messages.js';
import { attachment, formatRowSchema, incoming, UPLOAD_CEILING_BYTES } from './routes.js';
import type { FileService } from './service.js';
import type { AreaSettings } from './settings.js';
import { MANAGE, presentFile, type File, type Store } from './store.js';
import type { Db } from './tables.js';

/**
 * Picture translation (/transPic, /fileViewPic): pictures go through the same files, queue, states
 * and progress as every document; what is their own is here: the picture limits (a setting beside
 * the area's others), the upload that checks them, the list of picture files, the view's blocks over
 * the picture, the pictures themselves as a browser shows them, and the bilingual text. Editing a
 * block is the area's unit edit (`PUT /transFile/units/:id/:idx`), which writes the picture again.
 */

export const PIC_USE = { permission: 'transPic:use' } as const;
const MANAGER = { permission: MANAGE } as const;

export const pictureSettingsSchema = z.object({
  /** Megabytes per picture. */
  pictureMaxMb: z.coerce.number().int().min(1).max(200),
  /** Megapixels per picture (width × height), the guard against decompression bombs too. */
  pictureMaxMegapixels: z.coerce.number().min(0.1).max(100),
});
export type PictureSettings = z.output<typeof pictureSettingsSchema>;
export const DEFAULT_PICTURE_SETTINGS: PictureSettings = { pictureMaxMb: 20, pictureMaxMegapixels: 40 };

const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });
const pictureMessages = {
  notPicture: (name: string, types: string) => text(`${name}：不是支持的图片（按内容识别；支持 ${types}）`, `${name}: not a supported picture (checked by content; supported: ${types})`),
  tooLarge: (name: string, mb: number) => text(`${name}：图片不能超过 ${mb} MB`, `${name}: a picture may be at most ${mb} MB`),
  tooManyPixels: (name: string, w: number, h: number, mp: number) =>
    text(`${name}：图片 ${w}×${h} 像素，超过 ${mp} 百万像素的上限`, `${name}: the picture has ${w}×${h} pixels, more than the ${mp} megapixels allowed`),
  unreadable: (name: string) => text(`${name}：图片已损坏，无法读取其尺寸`, `${name}: the picture is damaged; its size cannot be read`),
  notPictureFile: (id: number) => text(`文件 ${id} 不是图片`, `File ${id} is not a picture`),
};

const pictureUploadSchema = translateOptionsSchema.omit({ resultType: true, withPdf: true }).extend({ files: optionalUploadedFilesSchema, file: optionalUploadedFilesSchema });

const listQuerySchema = z.object({
  ...pageQuery,
  name: z.string().trim().max(200).optional(),
  all: z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).optional().transform((v) => v === true || v === 'true' || v === '1'),
});

// The answers, as the OpenAPI document states them (the tests check real answers against them).
const setupSchema = z.object({
  languages: z.array(engineLanguageSchema),
  defaultSource: z.string().nullable(),
  defaultTarget: z.string().nullable(),
  limits: pictureSettingsSchema.extend({ maxFiles: z.number().int() }),
  formats: z.array(formatRowSchema),
});
const viewSchema = z.object({
  file: fileRowSchema,
  width: z.number().describe('The picture\'s width in pixels'),
  height: z.number(),
  blocks: z.array(z.object({ idx: z.number().int(), source: z.string(), target: z.string().nullable(), edited: z.boolean(), x: z.number(), y: z.number(), w: z.number(), h: z.number(), confidence: z.number() })),
});

/** Formats that read pictures: those whose types are images (the picture formats' plugin registers them). */
export function pictureFormats(ctx: ServerPluginContext): FileFormat[] {
  return ctx.formats.list().filter((f) => f.mimeTypes.some((m) => m.startsWith('image/')));
}

/** Width and height as ffprobe reads them (with the demuxer of the type its bytes say), for a header `pictureSize` does not understand, or null. */
async function probedSize(path: string, bytes: Uint8Array): Promise<{ width: number; height: number } | null> {
  const kind = pictureKind(bytes);
  if (!kind) return null;
  try {
    const { stdout } = await runTool('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0:s=x', ...pictureInputArgs(path, kind)], { timeoutMs: 20_000 });
    const m = /^(\d+)x(\d+)/.exec(stdout.trim());
    return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
  } catch (e) {
    if (e instanceof ToolError) return null;
    throw e;
  }
}

const MIME: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', bmp: 'image/bmp', tiff: 'image/tiff' };

export interface PictureDeps {
  files: FileService;
  store: Store;
  settings: AreaSettings;
}

export function picturePart(ctx: ServerPluginContext, db: Db, deps: PictureDeps): void {
  const { files, store, settings } = deps;

  async function limits(): Promise<PictureSettings> {
    const rows = await db.selectFrom('trans_file_settings').selectAll().where('key', 'in', Object.keys(DEFAULT_PICTURE_SETTINGS)).execute();
    const stored = Object.fromEntries(rows.map((r) => [r.key, typeof r.value === 'string' ? JSON.parse(r.value) : r.value]));
    const parsed = pictureSettingsSchema.partial().safeParse(stored);
    const configured = pictureSettingsSchema.partial().safeParse(ctx.config);
    return { ...DEFAULT_PICTURE_SETTINGS, ...(configured.success ? configured.data : {}), ...(parsed.success ? parsed.data : {}) };
  }

  /** A picture file of the caller's (or any, for a manager): someone else's is not found. */
  async function pictureFor(caller: Caller, id: number): Promise<File> {
    const { file } = await store.forCaller(caller, id, ctx.auth);
    if (!pictureFormats(ctx).some((f) => f.id === file.format)) throw new ApiError(Codes.NOT_FOUND, pictureMessages.notPictureFile(id));
    return file;
  }

  /** The picture as a browser shows it: tiff is made png (no browser shows tiff). */
  async function viewable(key: string, format: string): Promise<{ body: Buffer; type: string }> {
    const bytes = await ctx.storage.get(key);
    if (format !== 'tiff') return { body: Buffer.from(bytes), type: MIME[format] ?? 'application/octet-stream' };
    const png = await inScratch(async (dir) => {
      await writeFile(join(dir, 'in.tiff'), bytes);
      await runTool('ffmpeg', ['-v', 'error', '-y', ...pictureInputArgs(join(dir, 'in.tiff'), 'tiff'), '-frames:v', '1', join(dir, 'out.png')], { timeoutMs: 60_000 });
      return readFile(join(dir, 'out.png'));
    });
    return { body: png, type: 'image/png' };
  }

  ctx.route({
    method: 'GET',
    url: '/transPic/setup',
    access: PIC_USE,
    summary: 'Languages, picture types and limits of picture translation',
    response: { data: setupSchema },
    async handler() {
      const [languages, defaultSource, defaultTarget, area, picture] = await Promise.all([ctx.engines.languages(), ctx.settings.get('DEFAULT_SOURCE_LANGUAGE'), ctx.settings.get('DEFAULT_TARGET_LANGUAGE'), settings.get(), limits()]);
      const formats = pictureFormats(ctx).map((f) => ({ id: f.id, name: f.name, extensions: f.extensions }));
      return { languages, defaultSource, defaultTarget, limits: { maxFiles: area.maxFiles, ...picture }, formats };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/transPic/upload',
    access: PIC_USE,
    summary: 'Upload pictures to translate (several at once)',
    upload: { maxBytes: UPLOAD_CEILING_BYTES },
    schema: { body: pictureUploadSchema },
    response: { data: z.array(fileRowSchema), errors: [409, 3027] },
    async handler({ body, caller }) {
      const list = incoming([...body.files, ...body.file]);
      if (!list.length) throw badRequest(messages.noFiles);
      const picture = await limits();
      const formats = pictureFormats(ctx);
      const types = formats.flatMap((f) => f.extensions).join(', ');
      const refused: LocalizedText[] = [];
      for (const f of list) {
        if (f.size === 0) refused.push(messages.empty(f.name));
        else if (f.size > picture.pictureMaxMb * 1024 * 1024) refused.push(pictureMessages.tooLarge(f.name, picture.pictureMaxMb));
        else {
          const format = ctx.formats.forFile(f.name, f.bytes());
          if (!format || !formats.includes(format)) {
            refused.push(pictureMessages.notPicture(f.name, types));
            continue;
          }
          const size = pictureSize(f.bytes()) ?? (f.path ? await probedSize(f.path, f.bytes()) : null);
          if (!size) refused.push(pictureMessages.unreadable(f.name));
          else if (size.width * size.height > picture.pictureMaxMegapixels * 1_000_000) refused.push(pictureMessages.tooManyPixels(f.name, size.width, size.height, picture.pictureMaxMegapixels));
        }
      }
      if (refused.length) throw badRequest({ 'zh-CN': refused.map((m) => m['zh-CN']).join('；'), 'en-US': refused.map((m) => m['en-US']).join('; ') });
      const { files: _f, file: _g, ...options } = body;
      return files.accept(caller!, list, { ...options, resultType: 'translated', withPdf: false });
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transPic/list',
    access: PIC_USE,
    summary: 'List picture files (own, or every user\'s for managers)',
    schema: { query: listQuerySchema },
    response: { data: pageSchema(fileRowSchema) },
    async handler({ query, caller }) {
      if (query.all && !ctx.auth.can(caller!, MANAGE)) throw new ApiError(Codes.FORBIDDEN, text('权限不足：查看所有用户的文件需要 transFile:manage', 'Insufficient permission: every user\'s files need transFile:manage'));
      const ids = pictureFormats(ctx).map((f) => f.id);
      if (!ids.length) return pageOf(query, [], 0);
      let q = db.selectFrom('trans_file_files as f').where('f.format', 'in', ids);
      if (!query.all) q = q.where('f.owner_id', '=', caller!.userId);
      if (query.name) q = q.where(sql<boolean>`position(lower(${query.name}) in lower(f.name)) > 0`);
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll('f')
        .orderBy('f.id', 'desc')
        .limit(query.pageSize)
        .offset((query.pageNum - 1) * query.pageSize)
        .execute();
      const owners = await ctx.users.names(rows.map((r) => r.owner_id));
      return pageOf(query, rows.map((r) => presentFile(r as File, owners.get(r.owner_id)?.username ?? null)) as FileRow[], total.n);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transPic/view/:id',
    access: PIC_USE,
    summary: 'A translated picture\'s blocks: boxes, recognised text, translation, confidence',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: viewSchema, errors: [404, 409] },
    async handler({ params, caller }) {
      const file = await pictureFor(caller!, params.id);
      const { actor } = await store.forCaller(caller!, params.id, ctx.auth);
      if (!canTake(documentFile, file.status, 'preview', actor)) throw stateRefusal('preview', file.status);
      const rows = await db.selectFrom('trans_file_units').select(['idx', 'source', 'target', 'edited', 'meta']).where('file_id', '=', file.id).orderBy('idx').execute();
      let width = 0;
      let height = 0;
      const blocks = rows.map((r) => {
        const meta = ((typeof r.meta === 'string' ? JSON.parse(r.meta) : r.meta) ?? {}) as Record<string, string>;
        width = Number(meta.pageWidth ?? width);
        height = Number(meta.pageHeight ?? height);
        return { idx: r.idx, source: r.source, target: r.target, edited: r.edited, x: Number(meta.x ?? 0), y: Number(meta.y ?? 0), w: Number(meta.w ?? 0), h: Number(meta.h ?? 0), confidence: Number(meta.confidence ?? 0) };
      });
      return { file: presentFile(file), width, height, blocks };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transPic/picture/:id/:side',
    access: PIC_USE,
    log: false,
    summary: 'The original or the translated picture, as a browser shows it',
    schema: { params: z.object({ id: idSchema, side: z.enum(['source', 'target']) }) },
    response: { envelope: false, contentType: 'image/png', errors: [404, 409, 2067] },
    async handler({ params, caller }) {
      // A block edit being drawn into the picture is shown once drawn.
      if (params.side === 'target') await store.settled(params.id);
      const file = await pictureFor(caller!, params.id);
      const { actor } = await store.forCaller(caller!, params.id, ctx.auth);
      if (params.side === 'target' && !canTake(documentFile, file.status, 'preview', actor)) throw stateRefusal('preview', file.status);
      const key = params.side === 'source' ? file.source_key : file.result_key;
      if (!key || !(await ctx.storage.exists(key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(file.name));
      const { body, type } = await viewable(key, file.format);
      // The translated picture changes when a block is edited: never kept by the browser.
      return { raw: true, contentType: type, body, headers: { 'cache-control': 'no-store' } };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transPic/download/:id',
    access: PIC_USE,
    log: false,
    summary: 'Download a translated picture, or its recognised and translated text side by side',
    schema: { params: z.object({ id: idSchema }), query: z.object({ kind: z.enum(['picture', 'text']).default('picture') }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404, 409, 2067] },
    async handler({ params, query, caller }) {
      await store.settled(params.id);
      const file = await pictureFor(caller!, params.id);
      const { actor } = await store.forCaller(caller!, params.id, ctx.auth);
      if (!canTake(documentFile, file.status, 'download', actor)) throw stateRefusal('download', file.status);
      const base = file.name.replace(/\.[^.]+$/, '');
      if (query.kind === 'text') {
        const rows = await db.selectFrom('trans_file_units').select(['source', 'target']).where('file_id', '=', file.id).orderBy('idx').execute();
        // One block a paragraph: the recognised text, then its translation, then a blank line.
        const body = rows.map((r) => `${r.source}\n${r.target ?? r.source}`).join('\n\n');
        const name = `${base}_${file.source_lang}_${file.target_lang}.txt`;
        return { raw: true, contentType: 'text/plain; charset=utf-8', body: Buffer.from(`${body}\n`, 'utf8'), headers: { 'content-disposition': attachment(name) } };
      }
      if (!file.result_key || !file.result_name || !(await ctx.storage.exists(file.result_key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(file.name));
      return { raw: true, contentType: MIME[file.format] ?? 'application/octet-stream', body: ctx.storage.stream(file.result_key), headers: { 'content-disposition': attachment(file.result_name) } };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/transPic/retry/:id',
    access: PIC_USE,
    summary: 'Translate a picture again',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: fileRowSchema, errors: [404, 409, 3027] },
    async handler({ params, caller }) {
      await pictureFor(caller!, params.id);
      return files.retry(caller!, params.id);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/transPic/terminate/:id',
    access: PIC_USE,
    summary: 'Terminate a picture\'s translation',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: fileRowSchema, errors: [404, 409] },
    async handler({ params, caller }) {
      await pictureFor(caller!, params.id);
      return files.terminate(caller!, params.id);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/transPic/delete',
    access: PIC_USE,
    summary: 'Delete pictures',
    schema: { query: z.object({ ids: idList }) },
    response: { data: deletedSchema, errors: [404] },
    async handler({ query, caller }) {
      for (const id of query.ids) await pictureFor(caller!, id);
      return files.remove(caller!, query.ids);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transPic/settings',
    access: MANAGER,
    summary: 'Picture limits',
    response: { data: pictureSettingsSchema },
    handler: () => limits(),
  });

  ctx.route({
    method: 'PUT',
    url: '/transPic/settings',
    access: MANAGER,
    summary: 'Change the picture limits',
    schema: { body: pictureSettingsSchema },
    response: { data: pictureSettingsSchema },
    async handler({ body }) {
      await db.transaction().execute(async (trx) => {
        for (const [key, value] of Object.entries(body)) {
          await trx
            .insertInto('trans_file_settings')
            .values({ key, value: JSON.stringify(value) })
            .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
            .execute();
        }
      });
      return limits();
    },
  });
}
