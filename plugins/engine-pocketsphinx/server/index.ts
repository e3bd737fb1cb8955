import { defineServerPlugin } from '@linguaport/sdk/server';
import { pocketsphinxDefinition } from './definition.js';

/**
 * Registers the built-in speech kind (`pocketsphinx-local`); the kernel routes English speech to its
 * nodes and drops the kind when this plugin stops. The node itself was seeded by the kernel's own
 * migration (005_seed_pocketsphinx), which stays where it is for installs that already ran it.
 */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(pocketsphinxDefinition());
  },
});
