import { defineServerPlugin } from '@linguaport/sdk/server';
import { jobRoutes } from './jobs.js';
import { createSettings } from './settings.js';
import { videoMigrations, type VideoDatabase } from './tables.js';

/**
 * Audio/video conversion (`/video`): uploads checked by content with ffprobe, and a task per file
 * that converts it, extracts its sound or cuts it, with ffmpeg's progress pushed live.
 */
export default defineServerPlugin<VideoDatabase>({
  migrations: videoMigrations,
  async setup(ctx) {
    const db = ctx.db;
    await jobRoutes(ctx, db, createSettings(ctx, db));
  },
});
