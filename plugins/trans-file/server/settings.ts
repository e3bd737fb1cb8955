import { createAreaSettings, type ServerPluginContext } from '@linguaport/sdk/server';
import { DEFAULT_SETTINGS, settingsSchema } from '../shared/schemas.js';
import type { Db } from './tables.js';

/** The area's settings (upload limits, queue length, default storage quota): its table `trans_file_settings`, then `DATA_DIR/config/trans-file.json`, then the built-in defaults. */
export function createSettings(ctx: ServerPluginContext, db: Db) {
  return createAreaSettings(ctx, db, { table: 'trans_file_settings', schema: settingsSchema, defaults: DEFAULT_SETTINGS });
}

export type AreaSettings = ReturnType<typeof createSettings>;
