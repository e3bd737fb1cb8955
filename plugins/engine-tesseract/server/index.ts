import { defineServerPlugin, seedLocalNodeMigration } from '@linguaport/sdk/server';
import { tesseractDefinition } from './definition.js';

/**
 * Registers the built-in OCR kind (`tesseract-local`) and seeds its node, left running, so pictures and
 * scanned pages are read out of the box; the kernel routes `ctx.engines.ocr` to it (and to remote OCR
 * nodes) and drops the kind when this plugin stops.
 */
export default defineServerPlugin({
  // English (the one pack every install has) until the first health check reads the installed packs.
  migrations: [seedLocalNodeMigration('tesseract-local', ['en'])],
  async setup(ctx) {
    // The kernel read its nodes before this plugin's migration ran: read them again, then bring the kind.
    await ctx.engines.nodes.reload();
    ctx.engines.registerAdapter(tesseractDefinition());
  },
});
