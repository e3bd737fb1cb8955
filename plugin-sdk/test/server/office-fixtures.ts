import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { writeZip } from '../../src/interchange/zip.js';

/**
 * Hostile documents for LibreOffice: each names an address on a loopback listener and a local picture
 * by `file://`. A safe conversion makes no request and embeds no picture.
 */

/** A PNG of one colour, `w` x `h` pixels. */
export function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => rgb[i % 3]!)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

export interface Trap {
  url: string;
  picture: string;
  pictureUrl: string;
  requests: string[];
  dir: string;
  close(): Promise<void>;
}

/** A listener on 127.0.0.1 that records every request, and a local picture (37 x 23 pixels) that must never be embedded. */
export async function startTrap(): Promise<Trap> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'office-trap-'));
  const picture = join(dir, 'secret.png');
  writeFileSync(picture, png(37, 23, [250, 10, 200]));
  return {
    url: `http://127.0.0.1:${port}`,
    picture,
    pictureUrl: `file://${picture}`,
    requests,
    dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function hostileHtml(t: Trap): string {
  return `<!DOCTYPE html><html><head><base href="${t.url}/base/">
<meta http-equiv="refresh" content="0;url=${t.url}/refresh">
<link rel="stylesheet" href="${t.url}/style.css">
<style>@import url("${t.url}/import.css"); body { background: url(${t.url}/bg.png) } p.x { background-image: url('${t.pictureUrl}') }</style>
</head><body background="${t.pictureUrl}">
<p>A first paragraph (LibreOffice 7.4 leaves the first line of an HTML page out of its PDF)</p><p>Hello from HTML</p>
<img src="${t.url}/img.png"><img src="${t.pictureUrl}"><img src="&#102;ile://${t.picture}"><img src="../../../../..${t.picture}">
<p class="x" style="background:url(${t.url}/inline.png)">styled</p>
<iframe src="${t.url}/frame.html"></iframe><object data="${t.url}/object.html"></object><embed src="${t.pictureUrl}">
<table background="${t.url}/table.png"><tr><td>cell</td></tr></table>
<a href="${t.pictureUrl}">file link</a> <a href="https://example.org/">web link</a>
</body></html>`;
}

export function hostileRtf(t: Trap): string {
  const esc = (s: string) => s.replace(/\\/g, '\\\\');
  return `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}
\\pard Hello from RTF\\par
{\\field{\\*\\fldinst INCLUDEPICTURE "${esc(t.pictureUrl)}" \\\\d}{\\fldrslt }}\\par
{\\field{\\*\\fldinst {INCLUDEPICTURE "${t.url}/rtf-img.png" \\\\d}}{\\fldrslt }}\\par
{\\field{\\*\\fldinst INCLUDEPICTURE "${esc(t.picture)}"}{\\fldrslt }}\\par
{\\field{\\*\\fldinst INCLUDETEXT "${t.url}/rtf-text.txt"}{\\fldrslt included}}\\par
{\\field{\\*\\fldinst HYPERLINK "https://example.org/"}{\\fldrslt web link}}\\par
}`;
}

const CT = (overrides: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>${overrides}</Types>`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (items: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;

function inlinePicture(rel: string, id: number, attr: 'r:embed' | 'r:link'): string {
  return `<w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="${id}" name="Picture ${id}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${id}" name="p${id}.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip ${attr}="${rel}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

export function hostileDocx(t: Trap): Buffer {
  const doc = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><w:body>
<w:p><w:r><w:t>Hello from DOCX</w:t></w:r></w:p>
<w:p>${inlinePicture('rIdLocal', 1, 'r:link')}${inlinePicture('rIdWeb', 2, 'r:link')}${inlinePicture('rIdLocal', 3, 'r:embed')}</w:p>
<w:p><w:fldSimple w:instr=' INCLUDEPICTURE "${t.pictureUrl}" \\d '><w:r><w:t>pic</w:t></w:r></w:fldSimple></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDE</w:instrText></w:r><w:r><w:instrText xml:space="preserve">PICTURE "${t.url}/field.png" \\d </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>x</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDETEXT "${t.url}/included.docx" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>included</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:pict><v:shape style="width:40pt;height:40pt"><v:imagedata r:id="rIdLocal" o:href="${t.pictureUrl}" src="${t.pictureUrl}"/></v:shape></w:pict></w:r></w:p>
<w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>web link</w:t></w:r></w:hyperlink></w:p>
<w:sectPr/></w:body></w:document>`;
  return writeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CT('<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>')) },
    { name: '_rels/.rels', data: Buffer.from(rels(`<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/>`)) },
    { name: 'word/document.xml', data: Buffer.from(doc) },
    {
      name: 'word/_rels/document.xml.rels',
      data: Buffer.from(
        rels(
          `<Relationship Id="rIdLocal" Type="${REL}/image" Target="${t.pictureUrl}" TargetMode="External"/>` +
            `<Relationship Id="rIdWeb" Type="${REL}/image" Target="${t.url}/docx-img.png" TargetMode="External"/>` +
            `<Relationship Id="rIdTpl" Type="${REL}/attachedTemplate" Target="${t.url}/template.dotx" TargetMode="External"/>` +
            `<Relationship Id="rIdLink" Type="${REL}/hyperlink" Target="https://example.org/" TargetMode="External"/>`,
        ),
      ),
    },
  ]);
}

export function hostileOdt(t: Trap): Buffer {
  const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';
  const image = (href: string, n: number) => `<draw:frame draw:name="i${n}" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content ${ns} office:version="1.2"><office:body><office:text>
<text:p>Hello from ODT</text:p>
<text:p>${image(t.pictureUrl, 1)}${image(`${t.url}/odt-img.png`, 2)}${image(`../../../../../..${t.picture}`, 3)}</text:p>
<text:section text:name="s1"><text:section-source xlink:href="${t.url}/section.odt" xlink:type="simple"/><text:p>section</text:p></text:section>
<text:p><text:a xlink:type="simple" xlink:href="https://example.org/">web link</text:a></text:p>
</office:text></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  return writeZip([
    { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.text'), store: true },
    { name: 'META-INF/manifest.xml', data: Buffer.from(manifest) },
    { name: 'content.xml', data: Buffer.from(content) },
  ]);
}

export function hostileXlsx(t: Trap): Buffer {
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheetData>
<row r="1"><c r="A1" t="inlineStr"><is><t>Hello from XLSX</t></is></c></row>
<row r="2"><c r="A2" t="str"><f>WEBSERVICE("${t.url}/webservice")</f></c></row>
<row r="3"><c r="A3"><f>[1]Sheet1!A1</f></c></row>
<row r="4"><c r="A4" t="str"><f>HYPERLINK("https://example.org/","web link")</f><v>web link</v></c></row>
</sheetData><drawing r:id="rIdD"/></worksheet>`;
  const drawing = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}">
${[1, 2]
  .map(
    (n) => `<xdr:oneCellAnchor><xdr:from><xdr:col>2</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${n * 3}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="952500" cy="952500"/><xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${n + 1}" name="p${n}"/><xdr:cNvPicPr/></xdr:nvPicPr><xdr:blipFill><a:blip r:link="rIdP${n}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill><xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`,
  )
  .join('')}
</xdr:wsDr>`;
  const workbook = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets><externalReferences><externalReference r:id="rIdX"/></externalReferences></workbook>`;
  const external = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/></sheetNames></externalBook></externalLink>`;
  const S = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return writeZip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        CT(
          `<Override PartName="/xl/workbook.xml" ContentType="${S}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${S}.worksheet+xml"/><Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/><Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="${S}.externalLink+xml"/>`,
        ),
      ),
    },
    { name: '_rels/.rels', data: Buffer.from(rels(`<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>`)) },
    { name: 'xl/workbook.xml', data: Buffer.from(workbook) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(rels(`<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rIdX" Type="${REL}/externalLink" Target="externalLinks/externalLink1.xml"/>`)) },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheet) },
    { name: 'xl/worksheets/_rels/sheet1.xml.rels', data: Buffer.from(rels(`<Relationship Id="rIdD" Type="${REL}/drawing" Target="../drawings/drawing1.xml"/>`)) },
    { name: 'xl/drawings/drawing1.xml', data: Buffer.from(drawing) },
    { name: 'xl/drawings/_rels/drawing1.xml.rels', data: Buffer.from(rels(`<Relationship Id="rIdP1" Type="${REL}/image" Target="${t.pictureUrl}" TargetMode="External"/><Relationship Id="rIdP2" Type="${REL}/image" Target="${t.url}/xlsx-img.png" TargetMode="External"/>`)) },
    { name: 'xl/externalLinks/externalLink1.xml', data: Buffer.from(external) },
    { name: 'xl/externalLinks/_rels/externalLink1.xml.rels', data: Buffer.from(rels(`<Relationship Id="rId1" Type="${REL}/externalLinkPath" Target="${t.url}/book.xlsx" TargetMode="External"/>`)) },
  ]);
}

/** The pictures a PDF holds, as poppler's `pdfimages -list` lists them (`width x height` each). */
export function pdfPictures(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'office-pdf-'));
  const file = join(dir, 'out.pdf');
  writeFileSync(file, pdf);
  const list = execFileSync('pdfimages', ['-list', file]).toString('utf8').split('\n').slice(2).filter((l) => l.trim());
  return list.map((l) => {
    const cols = l.trim().split(/\s+/);
    return `${cols[3]}x${cols[4]}`;
  });
}

export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'office-pdf-'));
  const file = join(dir, 'out.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-']).toString('utf8');
}
