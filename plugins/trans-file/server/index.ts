import { defineServerPlugin, type TaskHandle } from '@linguaport/sdk/server';
import { fileRoutes } from './routes.js';
import { previewPart } from './preview.js';
import { fileManagerPart } from './file-manager.js';
import { provideLtService } from './lt.js';
import { conversionPart } from './conversions.js';
import { archivePart } from './archives.js';
import { picturePart } from './pictures.js';
import { createFileService } from './service.js';
import { createSettings } from './settings.js';
import { createStore } from './store.js';
import { migrations, type TransFileDatabase } from './tables.js';
import { createQuotas } from './quota.js';
import { defineTranslateTask } from './translate.js';

/**
 * Document translation (/transFile and its detail pages, /fileManager, /pdf, /transFileDog): files
 * in any registered format, translated through the platform's pipeline by a durable priority queue.
 */
export default defineServerPlugin<TransFileDatabase>({
  migrations,
  async setup(ctx) {
    const db = ctx.db;
    // Files keep a domain code: the domain area asks here before deleting one.
    ctx.domains.register('trans_file_files', async (code) => Number((await db.selectFrom('trans_file_files').select((eb) => eb.fn.countAll<string>().as('n')).where('domain', '=', code).executeTakeFirst())?.n ?? 0));
    const store = createStore(ctx, db);
    const settings = createSettings(ctx, db);
    const quotas = createQuotas(db, settings);
    const languageName = (code: string) => {
      try {
        return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
      } catch {
        return code;
      }
    };
    let task: TaskHandle<{ fileId: number }, unknown> | null = null;
    const service = createFileService({ ctx, db, store, settings, quotas, task: () => task! });
    // `memoryGranularity: "paragraph"` in the plugin configuration keeps the earlier paragraph-level lookups.
    task = await defineTranslateTask({ ctx, db, store, languageName, granularity: ctx.config.memoryGranularity === 'paragraph' ? 'paragraph' : 'sentence' });
    fileRoutes(ctx, service, store, settings);
    await previewPart({ ctx, db, store, languageName });
    fileManagerPart(ctx, db, { quotas, files: service, store });
    provideLtService(ctx, db, { files: service, store });
    await conversionPart(ctx, db, { settings, quotas });
    const archives = archivePart(ctx, db, { files: service, settings, quotas });
    picturePart(ctx, db, { files: service, store, settings });

    // Files whose work a dead server left half done are marked (and queued ones resume by themselves).
    const sweep = setInterval(() => {
      service.reconcile().catch((err: Error) => ctx.logger.warn(`document reconcile failed: ${err.message}`));
      archives.repack().catch((err: Error) => ctx.logger.warn(`archive repack failed: ${err.message}`));
    }, 60_000);
    sweep.unref();
    ctx.onClose(() => clearInterval(sweep));
  },
});
