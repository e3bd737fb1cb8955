import { defineServerPlugin } from '@linguaport/sdk/server';
import { catMigrations, type CatDatabase } from './tables.js';

/**
 * The CAT area's server part. For now its tables: the segment store (`segments.ts`) that the project,
 * task and editor routes will call with `ctx.db` and `ctx.formats`.
 */
export default defineServerPlugin<CatDatabase>({
  migrations: catMigrations,
  setup() {},
});
