import { defineServerPlugin } from '@linguaport/sdk/server';
import { alignmentRoutes } from './alignment.js';
import { cleaningRoutes } from './cleaning.js';
import { corpusAccess, corpusRoutes } from './corpora.js';
import { exchangeRoutes } from './exchange.js';
import { corpusMigrations, type CorpusDatabase } from './tables.js';

/**
 * Corpus management (`/corpus`): bilingual corpora of an owner, their pairs, imports (TMX, TXT, XLSX,
 * two line-aligned TXT files) and exports (TMX, TXT), cleaning as a task with a report to apply, and
 * Gale-Church sentence alignment of two monolingual texts into a draft to review.
 */
export default defineServerPlugin<CorpusDatabase>({
  migrations: corpusMigrations,
  async setup(ctx) {
    const db = ctx.db;
    // Corpora keep a domain code: the domain area asks here before deleting one.
    ctx.domains.register('corpus_corpora', async (code) => Number((await db.selectFrom('corpus_corpora').select((eb) => eb.fn.countAll<string>().as('n')).where('domain', '=', code).executeTakeFirst())?.n ?? 0));
    const access = corpusAccess(ctx, db);
    corpusRoutes(ctx, db, access);
    exchangeRoutes(ctx, db, access);
    await cleaningRoutes(ctx, db, access);
    alignmentRoutes(ctx, db, access);
  },
});
