import { defineServerPlugin } from '@linguaport/sdk/server';
import { createPdfFormat } from './pdf.js';

/** PDF for every area that reads files: read from its text layer (or, scanned pages, through the platform's OCR nodes), written as a docx. */
export default defineServerPlugin({
  setup(ctx) {
    ctx.formats.register(createPdfFormat(ctx.engines.ocr));
  },
});
