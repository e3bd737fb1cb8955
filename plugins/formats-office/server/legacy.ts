import type { ParsedFile } from '@linguaport/sdk/shared';
import { convertWithOffice, type DocumentBudgets } from '@linguaport/sdk/server';
import { docxFormat, pptxFormat, xlsxFormat } from './ooxml/formats.js';
import type { OfficeFormat } from './ooxml/package.js';

/**
 * The legacy office formats (doc, xls, ppt) and RTF, through Debian's LibreOffice: read by converting
 * the file to its modern form and reading that; written by writing the modern form and converting it
 * back. What LibreOffice keeps of a legacy file is what comes back (it reads and writes them well;
 * macros and a few exotic objects are lost, as in any round trip through LibreOffice).
 */

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

interface LegacySkeleton {
  modern: ParsedFile;
}

type LegacyInput = { id: string; name: string; mime: string; modern: OfficeFormat; toModern: string; back: string; sniff: (bytes: Uint8Array) => boolean };

function legacy(input: LegacyInput): OfficeFormat {
  return {
    id: input.id,
    name: input.name,
    extensions: [input.id],
    mimeTypes: [input.mime],
    sniff: input.sniff,
    async parse(bytes): Promise<ParsedFile> {
      const converted = await convertWithOffice(bytes, `input.${input.id}`, input.toModern);
      const modern = await input.modern.parse(converted);
      return { format: input.id, units: modern.units, skeleton: { modern } satisfies LegacySkeleton };
    },
    async write(file, units, options) {
      const { modern } = file.skeleton as LegacySkeleton;
      const written = await input.modern.write(modern, units, options);
      return convertWithOffice(written, `output.${input.modern.id}`, input.back);
    },
    // The converted file is read by the modern format, within the same budgets.
    withBudgets: (budgets: DocumentBudgets) => legacy({ ...input, modern: input.modern.withBudgets(budgets) }),
  };
}

const isOle = (bytes: Uint8Array) => OLE.every((b, i) => bytes[i] === b);

export const docFormat = legacy({ id: 'doc', name: 'Word 97-2003 document', mime: 'application/msword', modern: docxFormat, toModern: 'docx:MS Word 2007 XML', back: 'doc:MS Word 97', sniff: isOle });
export const xlsFormat = legacy({ id: 'xls', name: 'Excel 97-2003 workbook', mime: 'application/vnd.ms-excel', modern: xlsxFormat, toModern: 'xlsx:Calc MS Excel 2007 XML', back: 'xls:MS Excel 97', sniff: isOle });
export const pptFormat = legacy({ id: 'ppt', name: 'PowerPoint 97-2003 presentation', mime: 'application/vnd.ms-powerpoint', modern: pptxFormat, toModern: 'pptx:Impress MS PowerPoint 2007 XML', back: 'ppt:MS PowerPoint 97', sniff: isOle });
export const rtfFormat = legacy({
  id: 'rtf',
  name: 'Rich text',
  mime: 'application/rtf',
  modern: docxFormat,
  toModern: 'docx:MS Word 2007 XML',
  back: 'rtf:Rich Text Format',
  sniff: (bytes) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '{\\rtf',
});
