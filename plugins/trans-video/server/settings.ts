import { createAreaSettings, type ServerPluginContext } from '@linguaport/sdk/server';
import { DEFAULT_SETTINGS, settingsSchema } from '../shared/schemas.js';
import type { Db, TransVideoDatabase } from './tables.js';

/** The area's settings (megabytes and seconds per file): its table `tv_settings`, then `DATA_DIR/config/trans-video.json`, then the built-in defaults. */
export function createSettings(ctx: ServerPluginContext<TransVideoDatabase>, db: Db) {
  return createAreaSettings(ctx, db, { table: 'tv_settings', schema: settingsSchema, defaults: DEFAULT_SETTINGS });
}

export type AreaSettings = ReturnType<typeof createSettings>;
