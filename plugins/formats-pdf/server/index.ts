import { defineServerPlugin } from '@linguaport/sdk/server';
import { pdfFormat } from './pdf.js';

/** PDF for every area that reads files: read from its text layer (or by OCR), written as a docx. */
export const PDF_FORMATS = [pdfFormat];

export default defineServerPlugin({
  setup(ctx) {
    for (const format of PDF_FORMATS) ctx.formats.register(format);
  },
});
