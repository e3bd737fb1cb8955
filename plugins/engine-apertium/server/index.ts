import { defineServerPlugin } from '@linguaport/sdk/server';
import { apertiumDefinition } from './definition.js';

/** Registers the local Apertium kind; the kernel starts, watches and routes to its nodes, and drops it when this plugin stops. */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(apertiumDefinition());
  },
});
