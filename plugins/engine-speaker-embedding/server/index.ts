import { defineServerPlugin } from '@linguaport/sdk/server';
import { speakerEmbeddingDefinition } from './adapter.js';

/** Registers the remote speaker kind (`paddlespeech-vector`); its nodes are added on the engines screen. */
export default defineServerPlugin({
  async setup(ctx) {
    ctx.engines.registerAdapter(speakerEmbeddingDefinition);
  },
});
