import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertWithOffice, pdfPageCount } from '@linguaport/sdk/server';
import { ocrServiceOf } from '@linguaport/sdk/server';
import { createTesseractAdapter } from '@linguaport/ocr';
import { seededRandom } from '@linguaport/sdk/testing';
import { createPdfFormat } from '../server/pdf.js';

/**
 * `node --import tsx plugins/formats-pdf/bench/pdf.ts`: reading a 500-page text PDF (LibreOffice's,
 * from a generated document: a title and paragraphs on every page, two columns on every fifth) with
 * `pdfFormat.parse`, beside poppler's `pdftotext -bbox-layout` alone on the same file, which is the
 * floor: everything above it is ours (reading its output, paragraphs, reading order, units).
 * The PDF is made once and kept in the system's temporary folder. Each figure is the best of
 * BENCH_PDF_RUNS runs (default 3). Target: under 30 s for the 500 pages.
 */

// Scanned pages read with the SDK's tesseract adapter directly (routing to OCR nodes: ocr-routing.test.ts).
const pdfFormat = createPdfFormat(ocrServiceOf(createTesseractAdapter({ timeoutMs: 180_000, parallel: 2 })));
const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 500);
const RUNS = Number(process.env.BENCH_PDF_RUNS ?? 3);
const TARGET_MS = 30_000;

const WORDS = 'the report shows that sales grew in every region while costs stayed steady and the new factory opened on time with each line running at full speed so the margin improved again for the third year in a row and the board thanks all staff for their work during a long and busy season'.split(' ');


function sentence(random: () => number): string {
  const n = 8 + Math.floor(random() * 10);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}

const paragraph = (random: () => number, sentences: number) => Array.from({ length: sentences }, () => sentence(random)).join(' ');

/** A flat ODF text of `pages` pages: each starts on a new page and is short enough to fit on one. */
function flatDocument(pages: number): string {
  const random = seededRandom(500);
  const body: string[] = [];
  for (let p = 1; p <= pages; p++) {
    body.push(`<text:h text:style-name="Title" text:outline-level="1">Chapter ${p}: ${sentence(random).slice(0, -1)}</text:h>`);
    for (let i = 0; i < 4; i++) body.push(`<text:p>${paragraph(random, 4)}</text:p>`);
    if (p % 5 === 0) body.push(`<text:section text:style-name="Columns" text:name="Columns${p}"><text:p>${paragraph(random, 4)}</text:p><text:p>${paragraph(random, 4)}</text:p></text:section>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles>
<style:style style:name="Columns" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="1cm"/></style:section-properties></style:style>
<style:style style:name="Title" style:family="paragraph"><style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="16pt" fo:font-weight="bold"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard"><style:footer><text:p><text:page-number text:select-page="current">1</text:page-number></text:p></style:footer></style:master-page></office:master-styles>
<office:body><office:text>
${body.join('\n')}
</office:text></office:body></office:document>`;
}

async function samplePdf(): Promise<string> {
  const path = join(tmpdir(), `linguaport-bench-pdf-${PAGES}.pdf`);
  if (existsSync(path)) return path;
  const started = Date.now();
  process.stdout.write(`making a ${PAGES}-page PDF with LibreOffice… `);
  const pdf = await convertWithOffice(Buffer.from(flatDocument(PAGES), 'utf8'), 'bench.fodt', 'pdf', { timeoutMs: 900_000 });
  writeFileSync(path, pdf);
  console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  return path;
}

async function best(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

async function main() {
  const path = await samplePdf();
  const bytes = readFileSync(path);
  const pages = await pdfPageCount(bytes);
  let units = 0;
  const parse = await best(RUNS, async () => {
    units = (await pdfFormat.parse(bytes, { fileName: 'bench.pdf' })).units.length;
  });
  const out = join(tmpdir(), `linguaport-bench-pdf-${process.pid}.html`);
  const raw = await best(RUNS, () => execFileSync('pdftotext', ['-bbox-layout', '-enc', 'UTF-8', path, out], { maxBuffer: 1 << 30 }));
  const size = readFileSync(out).length;
  execFileSync('rm', ['-f', out]);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`file: ${path} (${pages} pages, ${(bytes.length / 1e6).toFixed(1)} MB; pdftotext's layout ${(size / 1e6).toFixed(1)} MB)`);
  console.log(`pdftotext -bbox-layout alone:  ${s(raw)}`);
  console.log(`pdfFormat.parse:               ${s(parse)}  (${units} units, ${((parse / (pages ?? PAGES)) | 0)} ms a page)`);
  console.log(`ratio parse / pdftotext:       ${(parse / raw).toFixed(2)}`);
  console.log(`target: under ${s(TARGET_MS)} for ${PAGES} pages: ${parse < TARGET_MS ? 'met' : 'MISSED'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
