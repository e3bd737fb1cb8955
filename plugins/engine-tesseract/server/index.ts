import { sql } from 'kysely';
import { defineServerPlugin } from '@linguaport/sdk/server';
import { tesseractDefinition } from './definition.js';

/**
 * Registers the built-in OCR kind (`tesseract-local`) and seeds its node, left running, so pictures and
 * scanned pages are read out of the box; the kernel routes `ctx.engines.ocr` to it (and to remote OCR
 * nodes) and drops the kind when this plugin stops.
 */
export default defineServerPlugin({
  migrations: [
    {
      name: '001_seed_tesseract_node',
      async up(db) {
        // English (the one pack every install has) until the first health check reads the installed packs.
        await sql`insert into engine_nodes (kind, container_name, ip, desired_state, languages)
                  select 'tesseract-local', 'tesseract-local', '127.0.0.1', 'running', ${JSON.stringify(['en'])}::jsonb
                  where not exists (select 1 from engine_nodes where kind = 'tesseract-local')`.execute(db);
      },
    },
  ],
  async setup(ctx) {
    // The kernel read its nodes before this plugin's migration ran: read them again, then bring the kind.
    await ctx.engines.nodes.reload();
    ctx.engines.registerAdapter(tesseractDefinition());
  },
});
