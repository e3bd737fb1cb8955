import { defineServerPlugin, termBaseService } from '@linguaport/sdk/server';
import { createLibraryKit } from '@linguaport/sdk/resources';
import { termEntries } from './entries.js';
import { exchangeRoutes } from './exchange.js';
import { recogniseRoutes, TermRecognition } from './recognise.js';
import { createTermBaseService } from './service.js';
import { termMigrations, type TermDatabase } from './tables.js';

/**
 * Term bases (`/term`, `/termHistory`): term bases with ownership and per-user rights, terms with
 * review and history (both from the SDK's library kit, as the memory area uses it), TXT/XLSX import and
 * XLSX export, term recognition, and the pipeline hook that requires the recognised terms of every
 * translation and checks the engine's output for them.
 */
const KEYS = { view: 'term:view', add: 'term:add', edit: 'term:edit', delete: 'term:delete', review: 'term:review', import: 'term:import', export: 'term:export', manage: 'term:library' };

export default defineServerPlugin<TermDatabase>({
  migrations: termMigrations,
  setup(ctx) {
    const db = ctx.db;
    // Entries keep a domain code: the domain area asks here before deleting one.
    ctx.domains.register('term_entries', async (code) => Number((await db.selectFrom('term_entries').select((eb) => eb.fn.countAll<string>().as('n')).where('domain', '=', code).executeTakeFirst())?.n ?? 0));
    const recognition = new TermRecognition(db);
    // Terms changed: the term base's matchers are built again on their next use.
    const changed = (libraryId: number) => recognition.invalidate(libraryId);
    const { access, usage } = createLibraryKit({
      ctx,
      prefix: 'term',
      routes: '/term',
      historyRoute: '/termHistory',
      keys: KEYS,
      noun: { zh: '术语库', en: 'term base', enPlural: 'term bases', entryZh: '术语', entryEn: 'term', entriesEn: 'terms' },
      entries: termEntries,
      changed,
    });
    exchangeRoutes(ctx, db, access, { import: KEYS.import, export: KEYS.export }, changed);
    recogniseRoutes(ctx, access, recognition, { view: KEYS.view });

    // Other areas (CAT) reach the term bases through the SDK's token, never this plugin's code.
    ctx.services.provide(termBaseService, createTermBaseService({ ctx, access, recognition, usage }));
  },
});
