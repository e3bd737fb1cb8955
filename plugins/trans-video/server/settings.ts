import type { ServerPluginContext } from '@linguaport/sdk/server';
import { DEFAULT_SETTINGS, settingsSchema, type Settings } from '../shared/schemas.js';
import type { Db } from './tables.js';

/**
 * The area's limits (megabytes and seconds per file): stored in its own table, defaults from the
 * plugin's configuration (`DATA_DIR/config/trans-video.json`) or the built-in ones.
 */
export function createSettings(ctx: ServerPluginContext, db: Db) {
  const configured = settingsSchema.partial().safeParse(ctx.config);
  const defaults: Settings = { ...DEFAULT_SETTINGS, ...(configured.success ? configured.data : {}) };

  async function get(): Promise<Settings> {
    const rows = await db.selectFrom('tv_settings').selectAll().execute();
    const stored = Object.fromEntries(rows.map((r) => [r.key, typeof r.value === 'string' ? JSON.parse(r.value) : r.value]));
    const parsed = settingsSchema.partial().safeParse(stored);
    return { ...defaults, ...(parsed.success ? parsed.data : {}) };
  }

  async function set(next: Settings): Promise<Settings> {
    await db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(next)) {
        await trx
          .insertInto('tv_settings')
          .values({ key, value: JSON.stringify(value) })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
          .execute();
      }
    });
    return get();
  }

  return { get, set, defaults };
}

export type AreaSettings = ReturnType<typeof createSettings>;
