import { defineServerPlugin } from '@linguaport/sdk/server';
import { configStore } from './config.js';
import { liveSocket } from './live.js';
import { interpretationRoutes } from './routes.js';
import { interpretationMigrations, type InterpretationDatabase } from './tables.js';

/**
 * Simultaneous interpretation: live captions from the microphone over the plugin's own socket
 * (`/simultaneousInterpretation`), the log of every session (`/simultaneousInterpretationLog`) and
 * each user's configuration (`/simultaneousInterpretingConfiguration`).
 */
export default defineServerPlugin<InterpretationDatabase>({
  migrations: interpretationMigrations,
  async setup(ctx) {
    const db = ctx.db;
    // Sessions a server stop cut short are over.
    await db.updateTable('si_sessions').set({ status: 'ended' }).where('status', '=', 'live').where('started_at', '<', new Date(Date.now() - 1000)).execute();
    const configs = configStore(db);
    liveSocket(ctx, db, configs, (ctx.config.live as object | undefined) ?? {});
    interpretationRoutes(ctx, db, configs);
  },
});
