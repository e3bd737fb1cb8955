import { defineServerPlugin, seedLocalNodeMigration } from '@linguaport/sdk/server';
import { voiceprintLocalDefinition } from './definition.js';

/**
 * Registers the built-in speaker kind (`voiceprint-local`) and seeds its node, left running, so
 * speakers are recognised out of the box; the kernel routes `ctx.engines.speaker` to it (and to remote
 * speaker nodes) and drops the kind when this plugin stops.
 */
export default defineServerPlugin({
  migrations: [seedLocalNodeMigration('voiceprint-local', ['*'])],
  async setup(ctx) {
    // The kernel read its nodes before this plugin's migration ran: read them again, then bring the kind.
    await ctx.engines.nodes.reload();
    ctx.engines.registerAdapter(voiceprintLocalDefinition());
  },
});
