import { defineServerPlugin } from '@linguaport/sdk/server';
import { deeplDefinition } from './adapter.js';

/** Registers the DeepL adapter; the kernel routes to its nodes and drops it when this plugin stops. */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(deeplDefinition);
  },
});
