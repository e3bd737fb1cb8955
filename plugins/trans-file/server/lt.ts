import { randomUUID } from 'node:crypto';
import { ApiError, Codes, documentTranslationService, type ServerPluginContext } from '@linguaport/sdk/server';
import { mimeOf } from '@linguaport/sdk/shared';
import { FILE_CHANGED, type FileChanged } from '../shared/schemas.js';
import { incoming } from './routes.js';
import type { FileService } from './service.js';
import { MANAGE, type Store } from './store.js';
import type { Db } from './tables.js';

/**
 * The documents area as the kernel's LibreTranslate-compatible API sees it (`documents.translateFile`):
 * a file sent to `/api/lt/translate_file` goes through the same checks, queue and priority as an
 * upload in the console (it shows in the owner's list), and the call answers when it is done, as
 * LibreTranslate does; its result is then served at `/api/lt/download_file/<token>.<name>`.
 */

/** How long a LibreTranslate client waits for its file before the call gives up (the file goes on). */
export const LT_WAIT_MS = 10 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FINISHED = new Set(['completed', 'failed', 'terminated', 'parseFailed', 'unknown', 'uploadInterrupted']);

export function provideLtService(ctx: ServerPluginContext, db: Db, deps: { files: FileService; store: Store }): void {
  const { files, store } = deps;

  /** Resolves with the file's status once it is finished (pushed by the bus, checked again every second). */
  function finished(id: number, signal?: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stop = () => {
        sub.unsubscribe();
        clearTimeout(timer);
        clearTimeout(giveUp);
      };
      const check = async () => {
        const f = await store.byId(id);
        if (!f || FINISHED.has(f.status)) {
          stop();
          resolve(f?.status ?? 'deleted');
        } else timer = setTimeout(() => void check().catch(reject), 1_000);
      };
      const sub = ctx.bus.events(FILE_CHANGED).subscribe((e) => {
        const p = e.payload as FileChanged;
        if (p.id === id && (p.deleted || FINISHED.has(p.status))) void check().catch(reject);
      });
      const giveUp = setTimeout(() => {
        stop();
        reject(new ApiError(Codes.SERVICE_INTERRUPTED, { 'zh-CN': '文件仍在翻译中：稍后在文档翻译列表中下载', 'en-US': 'The file is still being translated: download it later from the document list' }));
      }, LT_WAIT_MS);
      signal?.addEventListener('abort', () => {
        stop();
        reject(signal.reason);
      }, { once: true });
      void check().catch(reject);
    });
  }

  /** `auto`: the language of the file's first paragraphs, among those an engine takes. */
  async function detectSource(name: string, bytes: Buffer): Promise<string> {
    const format = files.formatOf(name, bytes);
    if (!format) return 'auto';
    const units = (await format.parse(bytes, { fileName: name })).units;
    const sample = units.map((u) => u.source.replace(/<\/?\d+\/?>/g, ' ')).join('\n').slice(0, 2000);
    const found = await ctx.engines.detect(sample);
    if (found.language === 'unknown' || !found.translatable) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '无法识别文件的源语言：请指定源语言', 'en-US': 'Could not detect the language of the file: name the source language' });
    return found.language;
  }

  ctx.services.provide(documentTranslationService, {
    formats: () => [...new Set(ctx.formats.list().flatMap((f) => f.extensions.map((e) => `.${e}`)))].sort(),
    async translateFile({ caller, file, source, target, signal }) {
      if (!ctx.auth.can(caller, 'transFile:use') && !ctx.auth.can(caller, MANAGE)) {
        throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '权限不足：翻译文件需要 transFile:use', 'en-US': 'Insufficient permission: translating files needs transFile:use' });
      }
      const [upload] = incoming([file]);
      const sourceLang = source === 'auto' && file.size > 0 ? await detectSource(upload!.name, upload!.bytes()) : source;
      const [row] = await files.accept(caller, [upload!], { sourceLang, targetLang: target, domain: null, termBases: [], memories: [], resultType: 'translated', withPdf: false, existingTargets: 'keepUsable' }, { via: 'api' });
      const status = await finished(row!.id, signal);
      const f = await store.byId(row!.id);
      if (status !== 'completed' || !f?.result_name) {
        throw new ApiError(Codes.INTERNAL, { 'zh-CN': `文件翻译失败：${f?.error ?? status}`, 'en-US': `The file could not be translated: ${f?.error ?? status}` });
      }
      const token = f.download_token ?? randomUUID();
      await db.updateTable('trans_file_files').set({ download_token: token }).where('id', '=', f.id).execute();
      return { downloadId: `${token}.${encodeURIComponent(f.result_name)}`, name: f.result_name };
    },
    async download(downloadId) {
      const token = downloadId.slice(0, 36);
      if (!UUID.test(token)) return null;
      const marked = await db.selectFrom('trans_file_files').select('id').where('download_token', '=', token).executeTakeFirst();
      if (!marked) return null;
      await store.settled(marked.id);
      const f = await db.selectFrom('trans_file_files').selectAll().where('id', '=', marked.id).where('status', '=', 'completed').executeTakeFirst();
      if (!f?.result_key || !f.result_name || !(await ctx.storage.exists(f.result_key))) return null;
      return { name: f.result_name, contentType: mimeOf(f.result_name), body: ctx.storage.stream(f.result_key) };
    },
  });
}
