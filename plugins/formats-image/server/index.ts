import { defineServerPlugin } from '@linguaport/sdk/server';
import { pictureFormats } from './image.js';

/** Pictures for every area that reads files: read by the platform's OCR nodes, written back as the translated picture. */
export default defineServerPlugin({
  setup(ctx) {
    for (const format of pictureFormats(ctx.engines.ocr)) ctx.formats.register(format);
  },
});
