import { defineServerPlugin } from '@linguaport/sdk/server';
import { whisperDefinition } from './adapter.js';

/** Registers the remote speech kind; the kernel routes speech to its nodes and drops it when this plugin stops. */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(whisperDefinition);
  },
});
