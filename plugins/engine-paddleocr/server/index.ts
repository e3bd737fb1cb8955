import { defineServerPlugin } from '@linguaport/sdk/server';
import { paddleOcrDefinition } from './adapter.js';

/** Registers the remote OCR kind; the kernel routes OCR to its nodes and drops it when this plugin stops. */
export default defineServerPlugin({
  setup(ctx) {
    ctx.engines.registerAdapter(paddleOcrDefinition);
  },
});
