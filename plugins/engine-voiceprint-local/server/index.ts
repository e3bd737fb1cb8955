import { sql } from 'kysely';
import { defineServerPlugin } from '@linguaport/sdk/server';
import { voiceprintLocalDefinition } from './definition.js';

/**
 * Registers the built-in speaker kind (`voiceprint-local`) and seeds its node, left running, so
 * speakers are recognised out of the box; the kernel routes `ctx.engines.speaker` to it (and to remote
 * speaker nodes) and drops the kind when this plugin stops.
 */
export default defineServerPlugin({
  migrations: [
    {
      name: '001_seed_voiceprint_node',
      async up(db) {
        await sql`insert into engine_nodes (kind, container_name, ip, desired_state, languages)
                  select 'voiceprint-local', 'voiceprint-local', '127.0.0.1', 'running', ${JSON.stringify(['*'])}::jsonb
                  where not exists (select 1 from engine_nodes where kind = 'voiceprint-local')`.execute(db);
      },
    },
  ],
  async setup(ctx) {
    // The kernel read its nodes before this plugin's migration ran: read them again, then bring the kind.
    await ctx.engines.nodes.reload();
    ctx.engines.registerAdapter(voiceprintLocalDefinition());
  },
});
