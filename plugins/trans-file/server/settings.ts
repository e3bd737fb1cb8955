import type { ServerPluginContext } from '@linguaport/sdk/server';
import { DEFAULT_SETTINGS, settingsSchema, type Settings } from '../shared/schemas.js';
import type { Db } from './tables.js';

/**
 * The area's settings (upload limits, queue length, default storage quota): stored in its own table,
 * defaults from the plugin's configuration (`DATA_DIR/config/trans-file.json`) or the built-in ones.
 * Read through a short cache, so every upload does not cost a query.
 */
export function createSettings(ctx: ServerPluginContext, db: Db) {
  const configured = settingsSchema.partial().safeParse(ctx.config);
  const defaults: Settings = { ...DEFAULT_SETTINGS, ...(configured.success ? configured.data : {}) };
  let cached: { at: number; value: Settings } | null = null;

  async function get(): Promise<Settings> {
    if (cached && Date.now() - cached.at < 2_000) return cached.value;
    const rows = await db.selectFrom('trans_file_settings').selectAll().execute();
    const stored = Object.fromEntries(rows.map((r) => [r.key, typeof r.value === 'string' ? JSON.parse(r.value) : r.value]));
    const parsed = settingsSchema.partial().safeParse(stored);
    const value = { ...defaults, ...(parsed.success ? parsed.data : {}) };
    cached = { at: Date.now(), value };
    return value;
  }

  async function set(next: Settings): Promise<Settings> {
    await db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(next)) {
        await trx
          .insertInto('trans_file_settings')
          .values({ key, value: JSON.stringify(value) })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
          .execute();
      }
    });
    cached = null;
    return get();
  }

  return { get, set, defaults };
}

export type AreaSettings = ReturnType<typeof createSettings>;
