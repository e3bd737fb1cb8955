import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertWithOffice, setOfficeNetworkIsolation } from '../../src/server/office.js';
import { neutraliseDocument } from '../../src/server/office-references.js';
import { readZip, writeZip } from '../../src/interchange/zip.js';
import { hostileDocx, hostileHtml, hostileOdt, hostileRtf, hostileXlsx, pdfPictures, pdfText, startTrap, type Trap } from './office-fixtures.js';

// LibreOffice converting a user's document fetches nothing and embeds no local file: the document's
// references are removed first, the profile refuses linked content, and (where the server may) the
// conversion has no network. Each input names a loopback listener and a local picture.

let t: Trap;
beforeAll(async () => {
  t = await startTrap();
});
afterAll(async () => {
  setOfficeNetworkIsolation(undefined);
  await t?.close();
});

const inputs = () =>
  [
    { name: 'page.html', bytes: Buffer.from(hostileHtml(t)), text: 'Hello from HTML' },
    { name: 'letter.docx', bytes: hostileDocx(t), text: 'Hello from DOCX' },
    { name: 'letter.odt', bytes: hostileOdt(t), text: 'Hello from ODT' },
    { name: 'letter.rtf', bytes: Buffer.from(hostileRtf(t), 'latin1'), text: 'Hello from RTF' },
    { name: 'book.xlsx', bytes: hostileXlsx(t), text: 'Hello from XLSX' },
  ] as const;

describe('references a document makes are removed before LibreOffice opens it', () => {
  it('leaves no loopback address and no local path in any input', () => {
    for (const input of inputs()) {
      const safe = neutraliseDocument(input.bytes);
      const texts = safe.subarray(0, 2).toString('latin1') === 'PK' ? readZip(safe, { maxEntries: 100, maxBytes: 1 << 24 }).map((e) => e.data.toString('utf8')) : [safe.toString('latin1')];
      for (const text of texts) {
        expect(text, input.name).not.toContain('127.0.0.1');
        expect(text, input.name).not.toContain(t.picture);
        expect(text, input.name).not.toContain('ile://');
      }
      // What is shown stays, and so do web links (a formula naming an address goes, its value stays).
      expect(texts.join('\n')).toContain(input.text);
      expect(texts.join('\n')).toContain(input.name === 'book.xlsx' ? '<v>web link</v>' : 'https://example.org/');
    }
  });

  it('keeps what a document needs: its own pictures, styles and page fields', () => {
    const html = neutraliseDocument(Buffer.from('<html><head><meta charset="utf-8"><style>p { color: red }</style></head><body><p class="a" style="color:blue">Ünïcode &amp; <b>bold</b></p><img src="data:image/png;base64,iVBORw0KGgo=" alt="x"></body></html>')).toString('utf8');
    expect(html).toContain('<style>p { color: red }</style>');
    expect(html).toContain('<p class="a" style="color:blue">Ünïcode &amp; <b>bold</b></p>');
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="x">');
    const rtf = '{\\rtf1 {\\field{\\*\\fldinst PAGE}{\\fldrslt 1}} text}';
    expect(neutraliseDocument(Buffer.from(rtf)).toString('latin1')).toBe(rtf);
  });

  it('catches references spelt with entities, in UTF-16 parts, in malformed parts and in nested packages', () => {
    const part = (xml: string) => `<?xml version="1.0" encoding="UTF-8"?>${xml}`;
    const odt = writeZip([
      { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.text'), store: true },
      { name: 'content.xml', data: Buffer.from(part(`<office:document-content xmlns:office="o" xmlns:draw="d" xmlns:xlink="x"><draw:image xlink:href="&#102;ile://${t.picture}"/><draw:image xlink:href="Pictures/1.png"/></office:document-content>`)) },
      { name: 'styles.xml', data: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(part(`<s xmlns:xlink="x"><i xlink:href="${t.url}/utf16.png"/></s>`).replace('UTF-8', 'UTF-16'), 'utf16le')]) },
      { name: 'Pictures/1.png', data: Buffer.from('png') },
      { name: 'Object 1/broken.xml', data: Buffer.from(`<v:shape><v:imagedata src="${t.pictureUrl}"><br></v:shape>`) },
      { name: 'embedded.docx', data: hostileDocx(t) },
    ]);
    const out = readZip(neutraliseDocument(odt), { maxEntries: 100, maxBytes: 1 << 24 });
    const text = (name: string) => {
      const data = out.find((e) => e.name === name)!.data;
      return data[0] === 0xff ? data.subarray(2).toString('utf16le') : data.toString('utf8');
    };
    expect(text('content.xml')).not.toContain('ile:');
    expect(text('content.xml')).toContain('xlink:href="Pictures/1.png"');
    expect(text('styles.xml')).not.toContain('127.0.0.1');
    expect(text('Object 1/broken.xml')).not.toContain(t.picture);
    const inner = readZip(out.find((e) => e.name === 'embedded.docx')!.data, { maxEntries: 100, maxBytes: 1 << 24 });
    for (const e of inner) expect(e.data.toString('utf8')).not.toContain('127.0.0.1');
    // A field whose code is split over runs and spelt with RTF escapes.
    const rtf = `{\\rtf1 {\\field{\\*\\fldinst {\\'49NCLUDE}{PICTURE "${t.pictureUrl}"}}{\\fldrslt x}}}`;
    expect(neutraliseDocument(Buffer.from(rtf)).toString('latin1')).not.toContain(t.picture);
  });

  it('returns a document that names nothing outside itself as it was', () => {
    const docx = writeZip([
      { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types xmlns="t"><Default Extension="xml" ContentType="application/xml"/></Types>') },
      { name: 'word/document.xml', data: Buffer.from('<?xml version="1.0"?><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Plain</w:t></w:r></w:p></w:body></w:document>') },
    ]);
    expect(neutraliseDocument(docx).equals(docx)).toBe(true);
  });
});

describe('convertWithOffice', () => {
  for (const isolation of ['in its own network namespace', 'with the host network (profile and checks alone)'] as const) {
    it(`converts hostile HTML, docx, odt, rtf and xlsx ${isolation}: no request, no local picture`, async () => {
      setOfficeNetworkIsolation(isolation.startsWith('with') ? false : undefined);
      for (const input of inputs()) {
        const pdf = await convertWithOffice(input.bytes, input.name, 'pdf');
        expect(pdf.subarray(0, 5).toString(), input.name).toBe('%PDF-');
        expect(pdfText(pdf), input.name).toContain(input.text);
        expect(pdfPictures(pdf), input.name).toEqual([]);
        expect(t.requests, input.name).toEqual([]);
      }
      // Five LibreOffice runs: about 30 s on a quiet machine, 140 s on a loaded one.
    }, 600_000);
  }

  it('opens a .txt file as plain text even when it holds HTML', async () => {
    setOfficeNetworkIsolation(false);
    const pdf = await convertWithOffice(Buffer.from(hostileHtml(t)), 'notes.txt', 'pdf');
    expect(pdfText(pdf)).toContain('<img src=');
    expect(pdfPictures(pdf)).toEqual([]);
    expect(t.requests).toEqual([]);
  }, 180_000);
});
