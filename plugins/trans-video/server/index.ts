import { defineServerPlugin } from '@linguaport/sdk/server';
import { jobRoutes } from './jobs.js';
import { createSettings } from './settings.js';
import { transVideoMigrations, type TransVideoDatabase } from './tables.js';

/**
 * Audio and video translation (`/transVideo`): speech recognised by the platform's speech nodes,
 * translated through the translation pipeline, and given back as subtitles, a transcript and on
 * request a video with the subtitles burned in.
 */
export default defineServerPlugin<TransVideoDatabase>({
  migrations: transVideoMigrations,
  async setup(ctx) {
    const db = ctx.db;
    await jobRoutes(ctx, db, createSettings(ctx, db));
  },
});
