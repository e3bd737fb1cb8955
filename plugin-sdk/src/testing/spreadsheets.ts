import { writeZip } from '../interchange/zip.js';
import { escapeXml } from '../interchange/xml-stream.js';

/**
 * A minimal xlsx whose first sheet has `rows` rows of `cells(i)` (inline strings), written part by
 * part so a sheet of 100 MB costs little memory: the hostile spreadsheets of the import tests and the
 * import-health bench (a few hundred KB zipped, many MB unpacked).
 */
export function sheetXlsx(rows: number, cells: (i: number) => string[]): Buffer {
  const pieces: Buffer[] = [Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')];
  let batch: string[] = [];
  for (let i = 0; i < rows; i++) {
    // Rows and cells without their optional `r` references: rows alike compress to almost nothing.
    batch.push(`<row>${cells(i).map((c) => `<c t="inlineStr"><is><t>${escapeXml(c)}</t></is></c>`).join('')}</row>`);
    if (batch.length === 10_000) {
      pieces.push(Buffer.from(batch.join('')));
      batch = [];
    }
  }
  pieces.push(Buffer.from(`${batch.join('')}</sheetData></worksheet>`));
  const sheet = Buffer.concat(pieces);
  const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${s}`);
  const zip = writeZip([
    { name: '[Content_Types].xml', data: xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>') },
    { name: '_rels/.rels', data: xml('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>') },
    { name: 'xl/workbook.xml', data: xml('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>') },
    { name: 'xl/_rels/workbook.xml.rels', data: xml('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>') },
    { name: 'xl/worksheets/sheet1.xml', data: sheet },
  ]);
  return zip;
}
