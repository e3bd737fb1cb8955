import { defineServerPlugin, memoryService } from '@linguaport/sdk/server';
import { createLibraryKit } from '@linguaport/sdk/resources';
import { memoryEntries } from './entries.js';
import { exchangeRoutes } from './exchange.js';
import { FuzzyIndex } from './fuzzy-index.js';
import { MemoryLookup, lookupRoutes } from './lookup.js';
import { createMemoryService } from './service.js';
import { createTmSettings, settingsRoutes } from './settings.js';
import { tmMigrations, type TmDatabase } from './tables.js';

/**
 * Translation memory (`/TM`, `/TMHistory`): memories with ownership and per-user rights, entries with
 * review and history (both from the SDK's library kit), TMX/TXT/XLSX import and TMX/XLSX export, exact
 * and fuzzy matching, concordance, and the pipeline hook that puts exact matches into every translation.
 */
const KEYS = { view: 'tm:view', add: 'tm:add', edit: 'tm:edit', delete: 'tm:delete', review: 'tm:review', import: 'tm:import', export: 'tm:export', manage: 'tm:library', settings: 'tm:settings' };

export default defineServerPlugin<TmDatabase>({
  migrations: tmMigrations,
  setup(ctx) {
    const db = ctx.db;
    const fuzzy = new FuzzyIndex(db);
    const settings = createTmSettings(ctx, db);
    const lookup = new MemoryLookup(db, fuzzy, async () => (await settings.get()).variantPenalty);
    // Entries changed: the memory's fuzzy index is built again on its next lookup.
    const changed = (libraryId: number) => fuzzy.invalidate(libraryId);
    const { access: libraries, usage } = createLibraryKit({
      ctx,
      prefix: 'tm',
      routes: '/TM',
      historyRoute: '/TMHistory',
      keys: KEYS,
      noun: { zh: '记忆库', en: 'memory', enPlural: 'memories', entryZh: '记忆条目', entryEn: 'memory entry', entriesEn: 'memory entries' },
      entries: memoryEntries,
      changed,
    });
    exchangeRoutes(ctx, db, libraries, { import: KEYS.import, export: KEYS.export }, changed);
    settingsRoutes(ctx, settings, { view: KEYS.view, settings: KEYS.settings });
    lookupRoutes(ctx, libraries, lookup, { view: KEYS.view }, settings);

    // Other areas (CAT) reach the memories through the SDK's token, never this plugin's code.
    ctx.services.provide(memoryService, createMemoryService({ ctx, db, libraries, lookup, settings, usage, changed }));
  },
});
