import { defineServerPlugin } from '@linguaport/sdk/server';
import { libreTranslateDefinition } from './adapter.js';

/** Registers the LibreTranslate-compatible adapter; the kernel routes to its nodes and drops it when this plugin stops. */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(libreTranslateDefinition);
  },
});
