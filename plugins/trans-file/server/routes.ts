import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ApiError, Codes, deletedSchema, engineLanguageSchema, idList, pageSchema, type RawReply, type ServerPluginContext, optionalUploadedFilesSchema, uploadPath, type UploadedFile } from '@linguaport/sdk/server';
import { canTake, documentFile, idSchema, mimeOf } from '@linguaport/sdk/shared';
import { fileListQuerySchema, fileRowSchema, RESULT_TYPES, settingsSchema, translateOptionsSchema } from '../shared/schemas.js';
import { messages, notFound, stateRefusal } from './messages.js';
import type { FileService, IncomingFile } from './service.js';
import type { AreaSettings } from './settings.js';
import { MANAGE, type Store } from './store.js';
import { pdfNameOf } from './result.js';
import { xliffOf } from './xliff.js';

/** The routes of /transFile (upload, list, terminate, retry, download, delete, settings). */

export const USE = { permission: 'transFile:use' } as const;
const MANAGER = { permission: MANAGE } as const;

/** The most one upload call may carry; each file's own limit (a setting) is checked by the handler. */
export const UPLOAD_CEILING_BYTES = 2 * 1024 * 1024 * 1024;

/** A file format the platform reads, as the set-up calls list them. */
export const formatRowSchema = z.object({ id: z.string(), name: z.string(), extensions: z.array(z.string()) });

const setupSchema = z.object({
  languages: z.array(engineLanguageSchema),
  defaultSource: z.string().nullable(),
  defaultTarget: z.string().nullable(),
  limits: settingsSchema,
  formats: z.array(formatRowSchema),
  resultTypes: z.array(z.enum(RESULT_TYPES)),
});


/** The kernel's temporary files as this area's incoming files (bytes read once, on first use). */
export function incoming(files: UploadedFile[]): IncomingFile[] {
  return files.map((f) => {
    let bytes: Buffer | null = null;
    // uploadPath: only a file the kernel's reader made, still inside the call's upload folder.
    const path = uploadPath(f);
    return { name: f.filename.split(/[\\/]/).pop() || f.filename, size: f.size, path, bytes: () => (bytes ??= readFileSync(path)), load: async () => (bytes ??= await readFile(path)) };
  });
}

/** `attachment` with the name in ASCII and in UTF-8 (RFC 6266), so every browser keeps the user's file name. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileReply(ctx: ServerPluginContext, key: string, name: string): RawReply {
  return { raw: true, contentType: mimeOf(name), body: ctx.storage.stream(key), headers: { 'content-disposition': attachment(name) } };
}

export function fileRoutes(ctx: ServerPluginContext, service: FileService, store: Store, settings: AreaSettings): void {
  ctx.route({
    method: 'GET',
    url: '/transFile/setup',
    access: USE,
    summary: 'Languages, formats and limits of document translation',
    response: { data: setupSchema },
    async handler() {
      const [languages, defaultSource, defaultTarget, limits] = await Promise.all([
        ctx.engines.languages(),
        ctx.settings.get('DEFAULT_SOURCE_LANGUAGE'),
        ctx.settings.get('DEFAULT_TARGET_LANGUAGE'),
        settings.get(),
      ]);
      const formats = ctx.formats.list().map((f) => ({ id: f.id, name: f.name, extensions: f.extensions }));
      return { languages, defaultSource, defaultTarget, limits, formats, resultTypes: RESULT_TYPES };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/transFile/upload',
    access: USE,
    apiKey: 'translate',
    summary: 'Upload documents to translate',
    upload: { maxBytes: UPLOAD_CEILING_BYTES },
    schema: { body: translateOptionsSchema.extend({ files: optionalUploadedFilesSchema, file: optionalUploadedFilesSchema }) },
    response: { data: z.array(fileRowSchema), errors: [409, 3027] },
    async handler({ body, caller }) {
      return service.accept(caller!, incoming([...body.files, ...body.file]), body);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/list',
    access: USE,
    summary: 'List documents (own, or every user\'s for managers)',
    schema: { query: fileListQuerySchema },
    response: { data: pageSchema(fileRowSchema) },
    handler: ({ query, caller }) => service.list(caller!, query),
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/get/:id',
    access: USE,
    summary: 'One document',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: fileRowSchema, errors: [404] },
    handler: ({ params, caller }) => service.get(caller!, params.id),
  });

  ctx.route({
    method: 'POST',
    url: '/transFile/terminate/:id',
    access: USE,
    summary: 'Terminate a translation',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: fileRowSchema, errors: [404, 409] },
    handler: ({ params, caller }) => service.terminate(caller!, params.id),
  });

  ctx.route({
    method: 'POST',
    url: '/transFile/retry/:id',
    access: USE,
    summary: 'Translate a document again',
    schema: { params: z.object({ id: idSchema }) },
    response: { data: fileRowSchema, errors: [404, 409, 3027] },
    handler: ({ params, caller }) => service.retry(caller!, params.id),
  });

  ctx.route({
    method: 'DELETE',
    url: '/transFile/delete',
    access: USE,
    summary: 'Delete documents',
    schema: { query: z.object({ ids: idList }) },
    response: { data: deletedSchema, errors: [404] },
    handler: ({ query, caller }) => service.remove(caller!, query.ids),
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/download/:id',
    access: USE,
    apiKey: 'translate',
    log: false,
    summary: 'Download a document: its translation, its PDF, the original, or its units as XLIFF 1.2 or 2.1',
    schema: { params: z.object({ id: idSchema }), query: z.object({ kind: z.enum(['result', 'pdf', 'source', 'xliff12', 'xliff21']).default('result') }) },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404, 409, 2067] },
    async handler({ params, query, caller }) {
      const { file: found, actor } = await store.forCaller(caller!, params.id, ctx.auth);
      if (query.kind === 'source') return fileReply(ctx, found.source_key, found.name);
      // An edit being written (its paragraph already shown in the preview) is in the file served.
      await store.settled(found.id);
      const file = await store.byId(found.id);
      if (!file) throw notFound(found.id);
      if (!canTake(documentFile, file.status, 'download', actor)) throw stateRefusal('download', file.status);
      if (query.kind === 'xliff12' || query.kind === 'xliff21') {
        const { name, body } = await xliffOf(ctx, store.db, file, query.kind === 'xliff21' ? '2.1' : '1.2');
        return { raw: true, contentType: 'application/xliff+xml; charset=utf-8', body, headers: { 'content-disposition': attachment(name) } };
      }
      const key = query.kind === 'pdf' ? file.pdf_key : file.result_key;
      const name = query.kind === 'pdf' ? pdfNameOf(file.result_name ?? file.name) : file.result_name;
      if (!key || !name || !(await ctx.storage.exists(key))) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(file.name));
      return fileReply(ctx, key, name);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/transFile/settings',
    access: MANAGER,
    summary: 'Document translation settings',
    response: { data: settingsSchema },
    handler: () => settings.get(),
  });

  ctx.route({
    method: 'PUT',
    url: '/transFile/settings',
    access: MANAGER,
    summary: 'Change document translation settings',
    schema: { body: settingsSchema },
    response: { data: settingsSchema },
    handler: ({ body }) => settings.set(body),
  });
}
