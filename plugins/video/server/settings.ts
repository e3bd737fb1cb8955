import { createAreaSettings, type ServerPluginContext } from '@linguaport/sdk/server';
import { DEFAULT_SETTINGS, settingsSchema } from '../shared/schemas.js';
import type { Db, VideoDatabase } from './tables.js';

/** The area's settings (files per upload, megabytes and seconds per file): its table `video_settings`, then `DATA_DIR/config/video.json`, then the built-in defaults. */
export function createSettings(ctx: ServerPluginContext<VideoDatabase>, db: Db) {
  return createAreaSettings(ctx, db, { table: 'video_settings', schema: settingsSchema, defaults: DEFAULT_SETTINGS });
}

export type AreaSettings = ReturnType<typeof createSettings>;
