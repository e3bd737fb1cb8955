import { defineServerPlugin } from '@linguaport/sdk/server';
import { PICTURE_FORMATS } from './image.js';

/** Pictures for every area that reads files: read by OCR, written back as the translated picture. */
export default defineServerPlugin({
  setup(ctx) {
    for (const format of PICTURE_FORMATS) ctx.formats.register(format);
  },
});
