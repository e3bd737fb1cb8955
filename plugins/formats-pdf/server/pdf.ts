import { readFileSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { FileFormat, ParsedFile, TranslationUnit } from '@linguaport/sdk/shared';
import { restoreTags } from '@linguaport/sdk/shared';
import { pagesDocx, type DocxPage } from './docx.js';
import { markFootnotes, withMarkTags } from './marks.js';
import { findTables } from './tables.js';
import { defineWorkerTask, DOCUMENT_BUDGETS, inScratch, isFolio, mapLimited, ocrLanguagesToRead, paragraphsOf, readBboxLayout, renderDpi, runTool, toBlock, ToolError, WorkerTaskError, type Block, type DocumentBudgets, type OcrService, type PageText } from '@linguaport/sdk/server';

/**
 * PDF documents. Read from the text layer (`pdftotext -bbox-layout`: every word with its box), or,
 * for a page that has no text layer but a picture (a scan), by OCR (the page rendered with pdftoppm,
 * read by tesseract). A unit is a paragraph, in reading order (columns one after the other), with its
 * page and place. Written as an editable docx: a PDF cannot take longer text back in place, and a
 * translator wants a document to correct, not a picture of one.
 */

export type PdfErrorCode = 'damaged' | 'encrypted' | 'tool' | 'tooLarge';

/** A PDF that cannot be read; `code` names the message in the locales (`formatsPdf.errors.<code>`). */
export class PdfReadError extends Error {
  constructor(
    readonly code: PdfErrorCode,
    message: string,
    /** Set when a budget refused the file: the reason to show the user. */
    readonly localized?: Readonly<Record<'zh-CN' | 'en-US', string>>,
  ) {
    super(message);
    this.name = 'PdfReadError';
  }
}

// The text layer of a PDF of a megabyte can be hundreds of MB (compressed content streams): it is read
// in a worker process with a heap limit, after its size is checked against the document budget.
const layoutTask = defineWorkerTask('formats-pdf.layout', (path: string) => readBboxLayout(readFileSync(path, 'utf8')));

async function readLayout(path: string, budgets: DocumentBudgets): Promise<PageText[]> {
  const mb = budgets.maxDocumentMb;
  const tooLarge = (what: string, zh: string) => new PdfReadError('tooLarge', `the PDF's text layer ${what}`, { 'zh-CN': `PDF 的文字层${zh}，超出处理上限`, 'en-US': `the PDF's text layer ${what}, over the processing limit` });
  if ((await stat(path)).size > mb * 1024 * 1024) throw tooLarge(`is larger than ${mb} MB`, `超过 ${mb} MB`);
  try {
    return await layoutTask.run(path, { module: import.meta.url, maxHeapMb: budgets.maxHeapMb, timeoutMs: budgets.timeoutMs });
  } catch (err) {
    if (err instanceof WorkerTaskError) throw new PdfReadError('damaged', `the PDF's text could not be read (${err.message})`);
    if ((err as { reason?: string }).reason === 'heap') throw tooLarge(`needs more than ${budgets.maxHeapMb} MB of memory to read`, `需要超过 ${budgets.maxHeapMb} MB 内存才能读取`);
    if ((err as { reason?: string }).reason === 'timeout') throw tooLarge(`could not be read within ${Math.round(budgets.timeoutMs / 1000)} s`, `读取超过 ${Math.round(budgets.timeoutMs / 1000)} 秒`);
    throw err;
  }
}

export interface PdfBlock {
  /** The unit written here; absent for text that is not translated (page numbers), kept in `text`. */
  unit?: string;
  text?: string;
  x: number;
  y: number;
  w: number;
  h: number;
  fontSize: number;
  lines: number;
  /** A table: its columns (left, width) and rows (top, height), each cell a unit or empty (null). */
  table?: { columns: Array<{ x: number; w: number }>; rows: Array<{ y: number; h: number; cells: Array<string | null> }> };
}

export interface PdfSkeleton {
  fileName?: string;
  /** Pages read by OCR (1-based). */
  ocrPages: number[];
  pages: Array<{ number: number; width: number; height: number; blocks: PdfBlock[] }>;
}

export interface PdfFormatOptions {
  /** Languages (platform codes) read on scanned pages when the document's is not given or no OCR node reads it: those some node reads of `en`, `zh-CN`. */
  ocrLanguages?: string[];
  /** Rendering resolution for OCR: 150 dpi reads body text as well as 300 dpi, in a quarter of the time. */
  ocrDpi?: number;
  /** Pages sent to OCR at once (the OCR nodes queue what they cannot take). */
  ocrConcurrency?: number;
  /** The size of the text layer and the reading worker's heap and time (the SDK's document budgets). */
  budgets?: DocumentBudgets;
}

// A line's height over its font size: poppler's word boxes span ascent to descent (1.3 em for the fonts
// it cannot measure, which is most embedded subsets); tesseract's span the ink of the line (about 0.9 em).
const TEXT_EM_PER_LINE = 1.3;
const OCR_EM_PER_LINE = 0.9;
/** Fewer visible characters than this and the page counts as having no text layer. */
const SCANNED_BELOW = 20;

const round = (n: number) => Math.round(n * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
type TablePiece = { table: ReturnType<typeof findTables>['tables'][number] };

/** Whether any page of a parsed PDF was read by OCR (its text may hold recognition errors). */
export function isScanned(parsed: ParsedFile): boolean {
  return ocrPagesOf(parsed).length > 0;
}

/** The pages (1-based) of a parsed PDF that were read by OCR. */
export function ocrPagesOf(parsed: ParsedFile): number[] {
  return (parsed.skeleton as Partial<PdfSkeleton> | null)?.ocrPages ?? [];
}


async function checkReadable(input: string): Promise<number> {
  try {
    const { stdout } = await runTool('pdfinfo', [input], { timeoutMs: 30_000 });
    return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? 0);
  } catch (e) {
    if (!(e instanceof ToolError) || e.exitCode === null) throw new PdfReadError('tool', `the PDF tools could not run: ${(e as Error).message}`);
    if (/password/i.test(e.detail)) throw new PdfReadError('encrypted', 'the PDF is encrypted with a password and cannot be read');
    throw new PdfReadError('damaged', `the PDF is damaged or not a PDF (${e.detail || 'pdfinfo refused it'})`);
  }
}

/** Pages that hold at least one picture (`pdfimages -list`), so a page with neither text nor picture is not sent to OCR. */
async function pagesWithImages(input: string): Promise<Set<number>> {
  const { stdout } = await runTool('pdfimages', ['-list', input], { timeoutMs: 120_000 });
  const pages = new Set<number>();
  for (const line of stdout.split('\n').slice(2)) {
    const page = Number(line.trim().split(/\s+/)[0]);
    if (page > 0) pages.add(page);
  }
  return pages;
}

async function ocrPage(ocr: OcrService, input: string, dir: string, page: number, size: { width: number; height: number }, languages: string[], dpi: number): Promise<Block[]> {
  const prefix = join(dir, `ocr-${page}`);
  const { width } = size;
  // A page of metres (a 1.2 KB PDF can declare one) is rendered at less than `dpi`: within the picture limit.
  await runTool('pdftoppm', ['-png', '-gray', '-r', String(renderDpi(size.width, size.height, dpi)), '-f', String(page), '-l', String(page), '-singlefile', input, prefix], { timeoutMs: 120_000 });
  let read;
  try {
    read = await ocr.recognize({ image: new Uint8Array(await readFile(`${prefix}.png`)), languages });
  } catch (e) {
    throw new PdfReadError('tool', `page ${page} could not be read by OCR: ${(e as Error).message}`);
  }
  // Pixels of the rendering to points of the page.
  const scale = read.width > 0 ? width / read.width : 1;
  const at = (b: { x0: number; y0: number; x1: number; y1: number }) => ({ x0: b.x0 * scale, y0: b.y0 * scale, x1: b.x1 * scale, y1: b.y1 * scale });
  const lines = read.lines.map((l) => ({ ...at(l), words: l.words.map((w) => ({ text: w.text, ...at(w) })) }));
  // The OCR's lines, made into paragraphs the way text pages are: its own paragraphs take short
  // columns for one text and join paragraphs that have no space between them.
  return paragraphsOf(lines, OCR_EM_PER_LINE, 0.45);
}

const visibleChars = (page: PageText) => page.lines.reduce((n, l) => n + l.words.reduce((m, w) => m + w.text.replace(/\s/g, '').length, 0), 0);

export function createPdfFormat(ocr: OcrService, options: PdfFormatOptions = {}): FileFormat {
  const wanted = options.ocrLanguages ?? ['en', 'zh-CN'];
  const dpi = options.ocrDpi ?? 150;
  const concurrency = options.ocrConcurrency ?? Math.max(1, Math.min(2, availableParallelism()));

  return {
    id: 'pdf',
    name: 'PDF document',
    extensions: ['pdf'],
    mimeTypes: ['application/pdf'],
    outputExtension: 'docx',
    sniff: (bytes) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-',

    async parse(bytes, parseOptions): Promise<ParsedFile> {
      return inScratch(async (dir) => {
        const input = join(dir, 'input.pdf');
        await writeFile(input, bytes);
        await checkReadable(input);
        const layout = join(dir, 'layout.html');
        try {
          await runTool('pdftotext', ['-bbox-layout', '-enc', 'UTF-8', input, layout], { timeoutMs: 600_000 });
        } catch (e) {
          throw new PdfReadError('damaged', `the PDF's text could not be read (${e instanceof ToolError ? e.detail : (e as Error).message})`);
        }
        const pages = await readLayout(layout, options.budgets ?? DOCUMENT_BUDGETS);

        const bare = pages.map((p, i) => ({ p, n: i + 1 })).filter(({ p }) => visibleChars(p) < SCANNED_BELOW);
        const pictured = bare.length ? await pagesWithImages(input) : new Set<number>();
        const toOcr = bare.filter(({ n }) => pictured.has(n));
        const ocrBlocks = new Map<number, Block[]>();
        if (toOcr.length) {
          const readable = await ocr.languages();
          if (!readable.length) throw new PdfReadError('tool', 'the PDF has scanned pages and no OCR node is running (the built-in one is engine-tesseract, with Debian\'s tesseract-ocr)');
          // The document's language when the caller knows it and a node reads it (the engine adds English for the Latin every scan has), else the defaults.
          const lang = ocrLanguagesToRead(readable, parseOptions?.sourceLanguage, wanted);
          const read = await mapLimited(toOcr, concurrency, ({ p, n }) => ocrPage(ocr, input, dir, n, p, lang, dpi));
          toOcr.forEach(({ n }, i) => ocrBlocks.set(n, read[i]!));
        }

        const units: TranslationUnit[] = [];
        const skeleton: PdfSkeleton = { fileName: parseOptions?.fileName, ocrPages: [...ocrBlocks.keys()], pages: [] };
        pages.forEach((page, i) => {
          const number = i + 1;
          const ocr = ocrBlocks.get(number);
          // Text pages: footnote marks made marks, tables found on the lines, the rest read as paragraphs.
          const found = ocr ? { tables: [], rest: page.lines } : findTables(markFootnotes(page.lines, page.height));
          const paragraphs = ocr ?? paragraphsOf(found.rest, TEXT_EM_PER_LINE);
          // A table takes its place in reading order before the first paragraph below its top that overlaps it horizontally (same column).
          const blocks: Array<Block | TablePiece> = [...paragraphs];
          for (const table of found.tables) {
            const at = blocks.findIndex((p) => {
              const b = 'table' in p ? p.table : p;
              return b.y0 >= table.y0 && b.x0 < table.x1 && table.x0 < b.x1;
            });
            blocks.splice(at === -1 ? blocks.length : at, 0, { table });
          }
          const placed: PdfBlock[] = [];
          let position = 0;
          const addUnit = (text: string, box: { x: number; y: number; w: number; h: number; fontSize: number; lines: number }, style?: string): string => {
            const id = `${number}.${++position}`;
            const { source, tags } = withMarkTags(text);
            // The page's size goes with the box, so a view can place the block over the page's image.
            const meta = { x: String(box.x), y: String(box.y), w: String(box.w), h: String(box.h), fontSize: String(box.fontSize), lines: String(box.lines), pageWidth: String(round(page.width)), pageHeight: String(round(page.height)) };
            units.push({ id, source, tags, context: { part: `page ${number}`, position, ...(style ? { style } : {}), meta } });
            return id;
          };
          for (const block of blocks) {
            if ('table' in block) {
              const { table } = block;
              const box = { x: round(table.x0), y: round(table.y0), w: round(table.x1 - table.x0), h: round(table.y1 - table.y0), lines: table.rows.length };
              const fontSize = Math.round((median(table.rows.flatMap((r) => r.cells.flatMap((c) => c?.lines.map((l) => l.y1 - l.y0) ?? []))) / TEXT_EM_PER_LINE) * 2) / 2 || 10;
              const rows = table.rows.map((row) => ({
                y: round(row.y0),
                h: round(row.y1 - row.y0),
                cells: row.cells.map((cell) => {
                  if (!cell) return null;
                  const b = toBlock(cell.lines, TEXT_EM_PER_LINE);
                  const text = b.text.trim();
                  return text ? addUnit(text, { x: round(b.x0), y: round(b.y0), w: round(b.x1 - b.x0), h: round(b.y1 - b.y0), fontSize: b.fontSize, lines: b.lines.length }, 'table cell') : null;
                }),
              }));
              // Columns run from one strip's left edge to the next one's, so cells keep their width.
              const columns = table.columns.map(([x0], c) => ({ x: round(x0), w: round((table.columns[c + 1]?.[0] ?? table.x1 + 4) - x0) }));
              placed.push({ ...box, fontSize: Math.max(fontSize, 1), table: { columns, rows } });
              continue;
            }
            const text = block.text.trim();
            if (!text) continue;
            const box = { x: round(block.x0), y: round(block.y0), w: round(block.x1 - block.x0), h: round(block.y1 - block.y0), fontSize: block.fontSize, lines: block.lines.length };
            if (isFolio(text)) {
              placed.push({ ...box, text });
              continue;
            }
            placed.push({ ...box, unit: addUnit(text, box, ocr ? 'ocr' : undefined) });
          }
          skeleton.pages.push({ number, width: round(page.width), height: round(page.height), blocks: placed });
        });
        return { format: 'pdf', units, skeleton };
      });
    },

    async write(file, units, writeOptions) {
      const skeleton = file.skeleton as PdfSkeleton;
      const byId = new Map(file.units.map((u) => [u.id, u]));
      for (const u of units) byId.set(u.id, u);
      const texts = (id: string | null | undefined, fallback = '') => {
        const unit = id ? byId.get(id) : undefined;
        return unit ? { text: restoreTags(unit.target ?? unit.source, unit.tags), original: restoreTags(unit.source, unit.tags) } : { text: fallback, original: fallback };
      };
      const pages: DocxPage[] = skeleton.pages.map((page) => ({
        width: page.width,
        height: page.height,
        blocks: page.blocks.map((b) => {
          const base = { x: b.x, y: b.y, w: b.w, h: b.h, fontSize: b.fontSize, lines: b.lines };
          if (b.table) return { ...base, ...texts(null), table: { columns: b.table.columns, rows: b.table.rows.map((r) => ({ y: r.y, h: r.h, cells: r.cells.map((id) => texts(id)) })) } };
          return { ...base, ...texts(b.unit, b.text ?? '') };
        }),
      }));
      const title = (skeleton.fileName ?? 'document.pdf').replace(/\.pdf$/i, '');
      return pagesDocx(pages, title, writeOptions?.targetLanguage);
    },
  };
}
