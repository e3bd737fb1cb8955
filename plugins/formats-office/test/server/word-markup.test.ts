// Database: none
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElements, parseXml, readZip, serializeXml, type XElement } from '@linguaport/sdk/interchange';
import type { FileFormat } from '@linguaport/sdk/shared';
import { madeByLibreOffice, seededRandom } from '@linguaport/sdk/testing';
import { odtFormat } from '../../server/odf.js';
import { docxFormat, pptxFormat, xlsxFormat } from '../../server/ooxml/formats.js';
import { readRunParagraph, WORD } from '../../server/ooxml/runs.js';
import { DOCX_PARTS, FLAT_SHEET, FLAT_SLIDES, FLAT_TEXT, shout, zipOf } from './samples.js';

// Word's hidden markup (issue 23 item 4): bookmarks such as _GoBack, proofing marks, the page break Word
// last rendered, revision ids, comment and permission ranges never split a sentence the engine sees;
// formatting follows the tags, the paragraph's base outside them, and edge spaces their side of a tag;
// and a translated document says its language, in the XML and as LibreOffice reads it.

const dir = mkdtempSync(join(tmpdir(), 'word-markup-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const LIMITS = { maxEntries: 100, maxBytes: 1e8 };
const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const office = (args: string[]) => execFileSync('soffice', ['--headless', '--norestore', ...args], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 180_000, stdio: 'ignore' });

const documentXml = (body: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document ${W_NS}><w:body>${body}<w:sectPr/></w:body></w:document>`;
const docxWith = (body: string, extra: Record<string, string> = {}) => zipOf({ ...DOCX_PARTS, 'word/document.xml': documentXml(body), ...extra });
/** The units of the body and the header (the sample's other parts are the shared report's). */
const ownUnits = (units: Array<{ source: string; context: { part?: string } }>) => units.filter((u) => u.context.part === 'body' || u.context.part === 'header').map((u) => u.source);
const partsOf = (bytes: Uint8Array) => Object.fromEntries(readZip(Buffer.from(bytes), LIMITS).map((e) => [e.name, e.data.toString('utf8')]));

/** Translates with `translate`, writes with the target language, and answers the written package's parts. */
async function translated(format: FileFormat, bytes: Uint8Array, translate: (source: string) => string, targetLanguage?: string) {
  const parsed = await format.parse(bytes);
  const written = await format.write(
    parsed,
    parsed.units.map((u) => ({ ...u, target: translate(u.source) })),
    targetLanguage ? { targetLanguage } : undefined,
  );
  return { written: Buffer.from(written), parts: partsOf(written) };
}

const HEADING = '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>';

describe("Word's zero-width markup", () => {
  const body = [
    // _GoBack in the middle of a word of a heading.
    `<w:p w:rsidR="00A1">${HEADING}<w:r w:rsidR="00B2"><w:t>Head</w:t></w:r><w:bookmarkStart w:id="0" w:name="_GoBack"/><w:bookmarkEnd w:id="0"/><w:r w:rsidR="00C3"><w:t>ing Paragraph</w:t></w:r></w:p>`,
    // A comment range and a permission range inside the same heading; the comment reference after it.
    `<w:p>${HEADING}<w:r><w:t>Heading</w:t></w:r><w:commentRangeStart w:id="0"/><w:r><w:t xml:space="preserve"> Para</w:t></w:r><w:permStart w:id="7" w:edGrp="everyone"/><w:r><w:t>graph</w:t></w:r><w:permEnd w:id="7"/><w:commentRangeEnd w:id="0"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="0"/></w:r></w:p>`,
    // Spell-check marks and runs split by revision ids and language tags.
    `<w:p><w:r w:rsidR="00A1"><w:t>The quick bro</w:t></w:r><w:proofErr w:type="spellStart"/><w:r w:rsidRPr="00B7"><w:rPr><w:noProof/><w:lang w:val="en-GB"/></w:rPr><w:t>wn</w:t></w:r><w:proofErr w:type="spellEnd"/><w:r w:rsidR="00C9"><w:t xml:space="preserve"> fox</w:t></w:r></w:p>`,
    // The page break Word last rendered, inside a run in mid-sentence, and empty runs.
    `<w:p><w:r><w:t xml:space="preserve">Jumps over </w:t></w:r><w:r><w:rPr><w:b/></w:rPr></w:r><w:r><w:lastRenderedPageBreak/><w:t>the la</w:t></w:r><w:r><w:t></w:t></w:r><w:r><w:t>zy dog</w:t></w:r></w:p>`,
    // One bold formatting written three ways, split by revision ids.
    `<w:p><w:r w:rsidR="1"><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Bold </w:t></w:r><w:bookmarkStart w:id="3" w:name="mark"/><w:r w:rsidR="2"><w:rPr><w:b w:val="1"/><w:lang w:val="en-GB"/></w:rPr><w:t>wo</w:t></w:r><w:bookmarkEnd w:id="3"/><w:r w:rsidR="3"><w:rPr><w:b w:val="true"/></w:rPr><w:t>rds</w:t></w:r><w:r><w:t xml:space="preserve"> end here.</w:t></w:r></w:p>`,
  ].join('');
  const header = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:hdr ${W_NS}><w:p><w:r><w:t xml:space="preserve">Company </w:t></w:r><w:bookmarkStart w:id="9" w:name="_GoBack"/><w:r><w:t>confid</w:t></w:r><w:bookmarkEnd w:id="9"/><w:r><w:t>ential report</w:t></w:r></w:p></w:hdr>`;
  const sample = docxWith(body, { 'word/header1.xml': header });

  it('gives the engine whole sentences: no placeholder for bookmarks, proofing, page breaks, revision ids, comment or permission ranges', async () => {
    const { units } = await docxFormat.parse(sample);
    expect(ownUnits(units)).toEqual(['Heading Paragraph', 'Heading Paragraph', 'The quick brown fox', 'Jumps over the lazy dog', '<1>Bold words</1> end here.', 'Company confidential report']);
  });

  it('keeps every piece of that markup in the translation, at word boundaries and in order', async () => {
    const { written, parts } = await translated(docxFormat, sample, (s) => s.toUpperCase());
    const doc = parts['word/document.xml']!;
    for (const mark of ['<w:bookmarkStart w:id="0" w:name="_GoBack"/>', '<w:bookmarkEnd w:id="0"/>', '<w:commentRangeStart w:id="0"/>', '<w:commentRangeEnd w:id="0"/>', '<w:commentReference w:id="0"/>', '<w:permStart w:id="7" w:edGrp="everyone"/>', '<w:permEnd w:id="7"/>', '<w:lastRenderedPageBreak/>', '<w:bookmarkStart w:id="3" w:name="mark"/>', '<w:bookmarkEnd w:id="3"/>']) {
      expect(doc.split(mark), mark).toHaveLength(2);
    }
    expect(doc.indexOf('<w:commentRangeStart w:id="0"/>')).toBeLessThan(doc.indexOf('<w:commentRangeEnd w:id="0"/>'));
    expect(doc.indexOf('<w:permStart w:id="7"')).toBeLessThan(doc.indexOf('<w:permEnd w:id="7"/>'));
    // The bold words stay bold; no word is cut by the markup put back; a bookmark over part of a word covers the word.
    expect(spansOf(doc)).toContainEqual(['<w:b/>', 'BOLD WORDS']);
    const allowed = new Set(['HEADING', 'PARAGRAPH', 'THE', 'QUICK', 'BROWN', 'FOX', 'JUMPS', 'OVER', 'LAZY', 'DOG', 'BOLD', 'WORDS', 'END', 'HERE.']);
    for (const m of doc.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)) for (const word of m[1]!.split(/\s+/).filter(Boolean)) expect(allowed, m[1]).toContain(word);
    expect(doc).toMatch(/<w:bookmarkStart w:id="3" w:name="mark"\/><w:r><w:rPr><w:b\/><\/w:rPr><w:t>WORDS<\/w:t><\/w:r><w:bookmarkEnd w:id="3"\/>/);
    expect(partsOf(written)['word/header1.xml']).toContain('_GoBack');
    const again = await docxFormat.parse(written);
    expect(ownUnits(again.units)).toEqual(['HEADING PARAGRAPH', 'HEADING PARAGRAPH', 'THE QUICK BROWN FOX', 'JUMPS OVER THE LAZY DOG', '<1>BOLD WORDS</1> END HERE.', 'COMPANY CONFIDENTIAL REPORT']);
  });

  it('keeps the space of a link inside the link when the engine moves it out, and outside when it moves it in', async () => {
    const link = (text: string) => `<w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:hyperlink>`;
    const plain = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const sampleLinks = docxWith(`<w:p>${plain('See')}${link(' our site')}${plain(' now.')}</w:p><w:p>${link('Click here ')}${plain('to start.')}</w:p><w:p>${plain('Read ')}${link('the guide')}${plain(' first.')}</w:p>`);
    const { units } = await docxFormat.parse(sampleLinks);
    expect(ownUnits(units).slice(0, 3)).toEqual(['See<1> our site</1> now.', '<1>Click here </1>to start.', 'Read <1>the guide</1> first.']);
    const engine = new Map([
      ['See<1> our site</1> now.', 'Voir <1>notre site</1> maintenant.'],
      ['<1>Click here </1>to start.', '<1>Cliquez ici</1> pour commencer.'],
      ['Read <1>the guide</1> first.', 'Lisez<1> le guide </1>d’abord.'],
    ]);
    const doc = (await translated(docxFormat, sampleLinks, (s) => engine.get(s) ?? s)).parts['word/document.xml']!;
    expect(doc).toContain(`<w:r><w:t>Voir</w:t></w:r>${link(' notre site')}<w:r><w:t xml:space="preserve"> maintenant.</w:t></w:r>`);
    expect(doc).toContain(`${link('Cliquez ici ')}<w:r><w:t>pour commencer.</w:t></w:r>`);
    expect(doc).toContain(`<w:r><w:t xml:space="preserve">Lisez </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>le guide</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> d’abord.</w:t></w:r>`);
  });

  it("gives text outside every tag the paragraph's base formatting, not the formatting of most of its text", async () => {
    const styled = (text: string) => `<w:r><w:rPr><w:rStyle w:val="Emphasis"/><w:sz w:val="24"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const sized = (text: string) => `<w:r><w:rPr><w:sz w:val="24"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const sampleStyles = docxWith(`<w:p>${styled('Most of this long sentence is emphasised')}${sized(' but not this.')}</w:p>`);
    const { units } = await docxFormat.parse(sampleStyles);
    expect(units[0]!.source).toBe('<1>Most of this long sentence is emphasised</1> but not this.');
    // An engine that leaves words outside the tag: they take what all the paragraph's text shares (the size), not the style.
    const doc = (await translated(docxFormat, sampleStyles, () => 'Plus <1>de cette longue phrase est soulignée</1> mais pas ceci.')).parts['word/document.xml']!;
    expect(doc).toContain('<w:r><w:rPr><w:sz w:val="24"/></w:rPr><w:t xml:space="preserve">Plus </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Emphasis"/><w:sz w:val="24"/></w:rPr><w:t>de cette longue phrase est soulignée</w:t></w:r><w:r><w:rPr><w:sz w:val="24"/></w:rPr><w:t xml:space="preserve"> mais pas ceci.</w:t></w:r>');
  });
});

describe('the same marks in OpenDocument', () => {
  const ODF = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" office:version="1.3"';
  const odt = (body: string) =>
    zipOf({
      mimetype: 'application/vnd.oasis.opendocument.text',
      'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF}><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    });

  it('lifts bookmarks, reference marks and soft page breaks out of the sentence and writes them back in order', async () => {
    const sample = odt(
      '<text:h text:outline-level="1">Head<text:bookmark text:name="_GoBack"/>ing Para<text:soft-page-break/>graph</text:h>' +
        '<text:p>The <text:bookmark-start text:name="b1"/>quick bro<text:bookmark-end text:name="b1"/>wn <text:span text:style-name="T1">fox<text:reference-mark text:name="r"/></text:span> jumps.<text:note text:id="n1"><text:note-citation>1</text:note-citation><text:note-body><text:p>Note.</text:p></text:note-body></text:note></text:p>',
    );
    const { units } = await odtFormat.parse(sample);
    expect(units.map((u) => u.source)).toEqual(['Heading Paragraph', 'The quick brown <1>fox</1> jumps.<2/>', 'Note.']);
    const content = (await translated(odtFormat, sample, (s) => s.toUpperCase())).parts['content.xml']!;
    expect(content).toContain('<text:h text:outline-level="1">HEADING<text:bookmark text:name="_GoBack"/> <text:soft-page-break/>PARAGRAPH</text:h>');
    expect(content).toContain('THE <text:bookmark-start text:name="b1"/>QUICK BROWN<text:bookmark-end text:name="b1"/> <text:span text:style-name="T1">FOX</text:span><text:reference-mark text:name="r"/> JUMPS.');
  });
});

// Seeded property test: random sentences cut into random runs (a few formattings, each written with
// random clutter), with bookmarks, proofing marks, page breaks, comment and permission ranges and empty
// runs dropped between any two characters.
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'report', 'Heading', 'Paragraph', 'annual', 'figures', 'north', 'x', 'on', 'it'];
const FORMATS = ['', '<w:b/>', '<w:i/>', '<w:rStyle w:val="Strong"/>'];
const CLUTTER = ['', '<w:lang w:val="en-GB"/>', '<w:noProof/>', '<w:webHidden/>'];

interface Case {
  xml: string;
  text: string;
  /** Text per formatting, adjacent same formattings merged. */
  spans: Array<[string, string]>;
  uniform: boolean;
}

function randomCase(random: () => number): Case {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const words = Array.from({ length: 2 + Math.floor(random() * 10) }, () => pick(WORDS));
  const text = words.join(' ') + (random() < 0.5 ? '.' : '');
  const uniform = random() < 0.4;
  const formats = uniform ? [pick(FORMATS)] : FORMATS;
  let xml = `<w:p ${W_NS} w:rsidR="00AB12">${random() < 0.3 ? HEADING : ''}`;
  const spans: Array<[string, string]> = [];
  let id = 0;
  const open: string[] = [];
  const markup = () => {
    const r = random();
    if (r < 0.2) {
      const n = id++;
      open.push(`<w:bookmarkEnd w:id="${n}"/>`);
      return `<w:bookmarkStart w:id="${n}" w:name="${random() < 0.5 ? '_GoBack' : `_Ref${n}`}"/>`;
    }
    if (r < 0.3 && open.length) return open.shift()!;
    if (r < 0.45) return `<w:proofErr w:type="${pick(['spellStart', 'spellEnd', 'gramStart', 'gramEnd'])}"/>`;
    if (r < 0.55) return '<w:r><w:lastRenderedPageBreak/></w:r>';
    if (r < 0.65) {
      const n = id++;
      open.push(`<w:commentRangeEnd w:id="${n}"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="${n}"/></w:r>`);
      return `<w:commentRangeStart w:id="${n}"/>`;
    }
    if (r < 0.75) {
      const n = id++;
      open.push(`<w:permEnd w:id="${n}"/>`);
      return `<w:permStart w:id="${n}" w:edGrp="everyone"/>`;
    }
    if (r < 0.85) return `<w:r w:rsidR="00${id++}"><w:rPr>${pick(FORMATS)}</w:rPr></w:r>`;
    return `<w:r><w:t></w:t></w:r>`;
  };
  let at = 0;
  while (at < text.length) {
    const length = 1 + Math.floor(random() * 8);
    const piece = text.slice(at, at + length);
    at += piece.length;
    const format = pick(formats);
    const clutter = pick(CLUTTER);
    const props = format || clutter ? `<w:rPr>${format}${clutter}</w:rPr>` : '';
    const space = /^\s|\s$/.test(piece) ? ' xml:space="preserve"' : '';
    xml += `<w:r w:rsidR="00${Math.floor(random() * 99)}" w:rsidRPr="00${Math.floor(random() * 99)}">${props}<w:t${space}>${piece}</w:t></w:r>`;
    if (spans.length && spans[spans.length - 1]![0] === format) spans[spans.length - 1]![1] += piece;
    else spans.push([format, piece]);
    const markupCount = Math.floor(random() * 3);
    for (let k = 0; k < markupCount && at < text.length; k++) xml += markup();
  }
  xml += open.join('');
  return { xml: `${xml}</w:p>`, text, spans, uniform };
}

/** Text per effective formatting as Word shows it: clutter and revision ids ignored, `w:val="1"` as none, adjacent equals merged. */
function spansOf(paragraph: string): Array<[string, string]> {
  const spans: Array<[string, string]> = [];
  for (const run of findElements(parseXml(paragraph), (e) => e.name === 'w:r')) {
    const t = run.children.find((c) => c.type === 'element' && c.name === 'w:t') as XElement | undefined;
    if (!t) continue;
    const rPr = run.children.find((c) => c.type === 'element' && c.name === 'w:rPr') as XElement | undefined;
    const format = (rPr ? serializeXml(rPr.children) : '').replace(/<w:(lang|noProof|webHidden)\b[^>]*\/>/g, '').replace(/\sw:val="(1|true)"/g, '');
    const text = serializeXml(t.children);
    if (!text) continue;
    if (spans.length && spans[spans.length - 1]![0] === format) spans[spans.length - 1]![1] += text;
    else spans.push([format, text]);
  }
  return spans;
}

/** The markup in a paragraph in order, each with the length of text before it. */
function markupOf(paragraph: string): string[] {
  const out: string[] = [];
  let text = 0;
  for (const m of paragraph.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:(bookmarkStart|bookmarkEnd|commentRangeStart|commentRangeEnd|commentReference|permStart|permEnd|lastRenderedPageBreak)\b[^>]*\/>/g)) {
    if (m[1] !== undefined) text += m[1].length;
    else out.push(`${text}:${m[0]}`);
  }
  return out;
}

describe('seeded property: hidden markup in random runs', () => {
  const random = seededRandom(23_4);
  const cases = Array.from({ length: 200 }, () => randomCase(random));
  const read = (c: Case) => readRunParagraph(findElements(parseXml(c.xml), (e) => e.name === 'w:p')[0]!, WORD, (e) => e.name === 'w:p');

  it('the text the engine sees is the text with the markup removed: placeholders only where formatting changes', () => {
    cases.forEach((c, i) => {
      const { source } = read(c);
      expect(source!.replace(/<\/?\d+>/g, ''), `case ${i}: ${c.xml}`).toBe(c.text.trim());
      expect(source, `case ${i}: no standalone placeholder`).not.toMatch(/<\d+\/>/);
      if (c.uniform) expect(source, `case ${i}: one formatting, no placeholder`).toBe(c.text);
      // At most one pair per stretch of one formatting.
      expect((source!.match(/<\d+>/g) ?? []).length).toBeLessThanOrEqual(c.spans.length);
    });
  });

  it('an identity translation gives back the text per formatting and every piece of markup where it was', () => {
    cases.forEach((c, i) => {
      const paragraph = read(c);
      const written = paragraph.write(paragraph.source!, (nodes) => serializeXml(nodes));
      expect(spansOf(written), `case ${i}: ${c.xml}`).toEqual(spansOf(c.xml));
      expect(spansOf(written)).toEqual(c.spans);
      expect(markupOf(written), `case ${i}`).toEqual(markupOf(c.xml));
    });
  });

  it('a translation keeps the formatting of every stretch and all markup, in order', () => {
    cases.forEach((c, i) => {
      const paragraph = read(c);
      const written = paragraph.write(paragraph.source!.replace(/[a-z]+/g, (w) => w.toUpperCase()), (nodes) => serializeXml(nodes));
      expect(spansOf(written), `case ${i}: ${c.xml}`).toEqual(c.spans.map(([f, t]) => [f, t.toUpperCase()]));
      expect(markupOf(written).map((m) => m.replace(/^\d+:/, '')), `case ${i}`).toEqual(markupOf(c.xml).map((m) => m.replace(/^\d+:/, '')));
    });
  });

  it('reads the same units through the docx format as a whole document', async () => {
    const { units } = await docxFormat.parse(docxWith(cases.map((c) => c.xml.replace(` ${W_NS}`, '')).join('')));
    expect(ownUnits(units).slice(0, cases.length).map((s) => s.replace(/<\/?\d+>/g, ''))).toEqual(cases.map((c) => c.text.trim()));
  });
});

describe('the translation says its language', () => {
  const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:styles ${W_NS}><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri"/><w:sz w:val="22"/><w:lang w:val="en-US" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault/></w:docDefaults><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:rPr><w:b/><w:lang w:val="en-GB"/></w:rPr></w:style></w:styles>`;
  const withStyles = () =>
    zipOf({
      ...DOCX_PARTS,
      '[Content_Types].xml': DOCX_PARTS['[Content_Types].xml']!.replace('</Types>', '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>'),
      'word/_rels/document.xml.rels': DOCX_PARTS['word/_rels/document.xml.rels']!.replace('</Relationships>', '<Relationship Id="rId20" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>'),
      'word/styles.xml': STYLES,
    });
  const made: Record<string, Buffer> = {};

  beforeAll(() => {
    // The same samples office.test.ts has LibreOffice write: made once per machine.
    made.odt = madeByLibreOffice({ name: 'text.fodt', content: FLAT_TEXT }, 'odt');
    made.pptx = madeByLibreOffice({ name: 'slides.fodp', content: FLAT_SLIDES }, 'pptx:Impress MS PowerPoint 2007 XML');
    made.xlsx = madeByLibreOffice({ name: 'sheet.fods', content: FLAT_SHEET }, 'xlsx:Calc MS Excel 2007 XML');
  }, 600_000);

  // Each LibreOffice conversion takes seconds, tens of them on a busy machine shared by the test run.
  /** The flat OpenDocument LibreOffice makes of a written file: its text and its styles, as LibreOffice read them. */
  const seenByOffice = (bytes: Buffer, ext: string, flat: 'fodt' | 'fodp') => {
    writeFileSync(join(dir, `seen.${ext}`), bytes);
    office(['--convert-to', flat, '--outdir', join(dir, 'seen'), join(dir, `seen.${ext}`)]);
    return readFileSync(join(dir, 'seen', `seen.${flat}`), 'utf8');
  };

  it('docx: w:lang in styles, defaults and translated runs, dc:language in the properties; LibreOffice reads text and language', async () => {
    const { written, parts } = await translated(docxFormat, withStyles(), shout, 'fr');
    const styles = parts['word/styles.xml']!;
    expect(styles).toContain('<w:lang w:val="fr-FR" w:eastAsia="zh-CN" w:bidi="ar-SA"/>');
    expect(styles).toContain('<w:rPr><w:b/><w:lang w:val="fr-FR"/></w:rPr>');
    expect(parts['word/document.xml']).toContain('<w:r><w:rPr><w:b/><w:lang w:val="fr-FR"/></w:rPr><w:t>BOLD</w:t></w:r>');
    expect(parts['word/document.xml']).toContain('<w:rPr><w:rStyle w:val="Hyperlink"/><w:lang w:val="fr-FR"/></w:rPr><w:t>A LINK</w:t>');
    expect(parts['docProps/core.xml']).toContain('<dc:language>fr-FR</dc:language>');
    const flat = seenByOffice(written, 'docx', 'fodt');
    expect(flat).toContain('«THE ANNUAL REPORT');
    expect(flat).toContain('fo:language="fr" fo:country="FR"');
  }, 180_000);

  it('docx: an East Asian or right-to-left target goes in its own slot; a package without styles gets defaults only where it can', async () => {
    const zh = (await translated(docxFormat, withStyles(), shout, 'zh-CN')).parts;
    expect(zh['word/styles.xml']).toContain('<w:lang w:val="en-US" w:eastAsia="zh-CN" w:bidi="ar-SA"/>');
    expect(zh['word/styles.xml']).toContain('<w:lang w:val="en-GB" w:eastAsia="zh-CN"/>');
    expect(zh['word/document.xml']).toContain('<w:lang w:eastAsia="zh-CN"/>');
    expect(zh['docProps/core.xml']).toContain('<dc:language>zh-CN</dc:language>');
    const ar = (await translated(docxFormat, withStyles(), shout, 'ar')).parts;
    expect(ar['word/styles.xml']).toContain('w:bidi="ar-EG"');
    const bare = (await translated(docxFormat, zipOf(DOCX_PARTS), shout, 'de')).parts;
    expect(bare['word/styles.xml']).toBeUndefined();
    expect(bare['docProps/core.xml']).toContain('<dc:language>de-DE</dc:language>');
    expect(bare['word/document.xml']).toContain('<w:lang w:val="de-DE"/>');
    // Nothing translated: the package stays as it was.
    const parsed = await docxFormat.parse(withStyles());
    expect(Buffer.from(await docxFormat.write(parsed, parsed.units, { targetLanguage: 'fr' })).equals(withStyles())).toBe(true);
  });

  it('pptx: lang on translated runs and paragraph ends, dc:language; LibreOffice reads text and language', async () => {
    const { written, parts } = await translated(pptxFormat, made.pptx!, shout, 'de');
    const slide = parts['ppt/slides/slide1.xml']!;
    expect(slide).toMatch(/<a:rPr[^>]*\slang="de-DE"[^>]*>(<a:(?!t>)[^]*?)?<a:t>«WELCOME TO THE LAUNCH<\/a:t>/);
    expect(slide).not.toMatch(/lang="en-US"/);
    expect(parts['docProps/core.xml']).toContain('<dc:language>de-DE</dc:language>');
    const flat = seenByOffice(written, 'pptx', 'fodp');
    expect(flat).toContain('«WELCOME TO THE LAUNCH');
    expect(flat).toContain('fo:language="de" fo:country="DE"');
  }, 180_000);

  it('odt: the language of the default paragraph style and of styles that name one, dc:language; LibreOffice reads text and language', async () => {
    const { written, parts } = await translated(odtFormat, made.odt!, shout, 'ja');
    expect(parts['styles.xml']).toMatch(/<style:default-style style:family="paragraph">[\s\S]*?style:language-asian="ja" style:country-asian="JP"/);
    expect(parts['meta.xml']).toContain('<dc:language>ja-JP</dc:language>');
    const flat = seenByOffice(written, 'odt', 'fodt');
    expect(flat).toContain('«THE ANNUAL REPORT');
    expect(flat).toContain('style:language-asian="ja" style:country-asian="JP"');
    const fr = (await translated(odtFormat, made.odt!, shout, 'fr-CA')).parts;
    expect(fr['styles.xml']).toMatch(/<style:default-style style:family="paragraph">[\s\S]*?fo:language="fr" fo:country="CA"/);
    expect(fr['meta.xml']).toContain('<dc:language>fr-CA</dc:language>');
  }, 180_000);

  it('xlsx: the workbook states its language in its properties', async () => {
    const { parts } = await translated(xlsxFormat, made.xlsx!, shout, 'es');
    expect(parts['docProps/core.xml']).toContain('<dc:language>es-ES</dc:language>');
  });
});
