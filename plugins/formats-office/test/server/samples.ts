import { writeZip } from '@linguaport/sdk/interchange';

// Office packages written part by part, with what real editors leave in them: runs split by revision
// ids and spell-check marks, proofing errors, language tags, bookmarks, fields, a hyperlink, a
// footnote reference, a text box in a drawing (with its VML fallback), a chart with a title and
// string caches, comments, headers and footers.

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

export const DOCX_BODY = `${DECL}<w:document ${W}><w:body>
<w:p w:rsidR="00A1" w:rsidRDefault="00B2"><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r w:rsidR="00C3"><w:t>The annual report</w:t></w:r></w:p>
<w:p><w:r w:rsidRPr="00D4"><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">Hel</w:t></w:r><w:proofErr w:type="spellStart"/><w:r><w:rPr><w:lang w:val="en-GB"/></w:rPr><w:t>lo</w:t></w:r><w:proofErr w:type="spellEnd"/><w:r><w:t xml:space="preserve"> world, this is </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r><w:r><w:t xml:space="preserve"> and </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>a link</w:t></w:r></w:hyperlink><w:r><w:t>.</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r></w:p>
<w:p><w:bookmarkStart w:id="0" w:name="start"/><w:r><w:t>Tom &amp; Jerry &lt;3 say "hi"</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>after a tab</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell one</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>12.5</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> of the report</w:t></w:r></w:p>
<w:p><w:r><w:t>Before the box</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>Text in a box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>Text in a box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>
<w:p><w:r><w:drawing><wp:inline><a:graphic><a:graphicData><c:chart r:id="rId7"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>
<w:p/>
<w:sectPr><w:headerReference w:type="default" r:id="rId3"/><w:footerReference w:type="default" r:id="rId4"/></w:sectPr>
</w:body></w:document>`;

const part = (root: string, body: string) => `${DECL}<w:${root} ${W}>${body}</w:${root}>`;

export const DOCX_PARTS: Record<string, string> = {
  '[Content_Types].xml': `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/><Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/><Override PartName="/word/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
  '_rels/.rels': `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
  'word/_rels/document.xml.rels': `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId6" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/><Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart1.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>`,
  'word/document.xml': DOCX_BODY,
  'word/header1.xml': part('hdr', '<w:p><w:r><w:t>Company confidential</w:t></w:r></w:p>'),
  'word/footer1.xml': part('ftr', '<w:p><w:r><w:t>Printed in Spain</w:t></w:r></w:p>'),
  'word/footnotes.xml': part('footnotes', '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> A note at the foot.</w:t></w:r></w:p></w:footnote>'),
  'word/comments.xml': part('comments', '<w:comment w:id="0" w:author="Ann"><w:p><w:r><w:t>Check this figure</w:t></w:r></w:p></w:comment>'),
  'word/charts/chart1.xml': `${DECL}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>Sales by region</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Revenue</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2:$A$3</c:f><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>North</c:v></c:pt><c:pt idx="1"><c:v>South</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B$3</c:f><c:numCache><c:ptCount val="2"/><c:pt idx="0"><c:v>4</c:v></c:pt><c:pt idx="1"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>`,
  'docProps/core.xml': `${DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Quarterly figures</dc:title><dc:creator>Ann</dc:creator></cp:coreProperties>`,
  'word/media/image1.png': '\x89PNG\r\n\x1a\n-not-really-a-picture-but-bytes-that-must-survive',
};

export function zipOf(parts: Record<string, string | Buffer>): Buffer {
  return writeZip(Object.entries(parts).map(([name, data]) => ({ name, data: typeof data === 'string' ? Buffer.from(data, name.endsWith('.png') ? 'latin1' : 'utf8') : data })));
}

/** A translation the tests can recognise: words upper-cased and marked, placeholders kept. */
export function shout(source: string): string {
  return source.replace(/(<\/?\d+\/?>)|([^<]+)/g, (whole, tag: string | undefined) => (tag ? tag : `${whole.toUpperCase()}`)).replace(/([A-Z]{3,})/, '«$1');
}

const ODF_NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.3"';

/** Flat OpenDocument sources LibreOffice turns into every office format the tests read. */
export const FLAT_TEXT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NS} office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><dc:title>Quarterly figures</dc:title></office:meta>
<office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style><style:page-layout style:name="pm1"/></office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"><style:header><text:p>Company confidential</text:p></style:header><style:footer><text:p>Printed in Spain</text:p></style:footer></style:master-page></office:master-styles>
<office:body><office:text>
<text:h text:outline-level="1">The annual report</text:h>
<text:p>Sales grew in the <text:span text:style-name="T1">north</text:span> of the country.<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Figures are estimates.</text:p></text:note-body></text:note></text:p>
<text:p>See <text:a xlink:type="simple" xlink:href="https://example.org/">our website</text:a> for <text:s/>details.</text:p>
<table:table table:name="Table1"><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell office:value-type="string"><text:p>Region</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Growth</text:p></table:table-cell></table:table-row></table:table>
</office:text></office:body></office:document>`;

export const FLAT_SHEET = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NS} office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet>
<table:table table:name="Prices"><table:table-row><table:table-cell office:value-type="string"><text:p>Green apples</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="12.5"><text:p>12.5</text:p></table:table-cell><table:table-cell table:formula="of:=[.B1]*2" office:value-type="float" office:value="25"><text:p>25</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Fresh bread</text:p></table:table-cell><table:table-cell table:formula="of:=['Notes sheet'.A1]" office:value-type="string" office:string-value="Keep cool"><text:p>Keep cool</text:p></table:table-cell></table:table-row></table:table>
<table:table table:name="Notes sheet"><table:table-row><table:table-cell office:value-type="string"><text:p>Keep cool</text:p></table:table-cell></table:table-row></table:table>
</office:spreadsheet></office:body></office:document>`;

export const FLAT_SLIDES = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODF_NS} office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>
<office:master-styles><style:master-page style:name="Default"/></office:master-styles>
<office:body><office:presentation>
<draw:page draw:name="page1" draw:master-page-name="Default">
<draw:frame svg:x="1cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Welcome to the launch</text:p></draw:text-box></draw:frame>
<draw:frame svg:x="1cm" svg:y="5cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Our <text:span text:style-name="T1">new</text:span> product ships today.</text:p></draw:text-box></draw:frame>
<presentation:notes><draw:frame svg:x="1cm" svg:y="15cm" svg:width="20cm" svg:height="5cm" presentation:class="notes"><draw:text-box><text:p>Speak slowly here.</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>
</office:presentation></office:body></office:document>`;
