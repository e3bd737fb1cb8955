import { defineServerPlugin, documentBudgets } from '@linguaport/sdk/server';
import { docFormat, pptFormat, rtfFormat, xlsFormat } from './legacy.js';
import { odpFormat, odsFormat, odtFormat } from './odf.js';
import { docxFormat, pptxFormat, xlsxFormat } from './ooxml/formats.js';

/** Office documents for every area that reads files (documents now, CAT and proofreading next). */
export const OFFICE_FORMATS = [docxFormat, xlsxFormat, pptxFormat, odtFormat, odsFormat, odpFormat, docFormat, xlsFormat, pptFormat, rtfFormat];

export default defineServerPlugin({
  setup(ctx) {
    // Budgets of unpacked bytes, XML nodes and the parsing worker's heap: `documentBudgets` in DATA_DIR/config/formats-office.json.
    const budgets = documentBudgets(ctx.config);
    for (const format of OFFICE_FORMATS) ctx.formats.register(format.withBudgets(budgets));
  },
});
