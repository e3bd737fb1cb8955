import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ApiError, Codes } from '../server/index.js';
import { WorkerRunError, WorkerTaskError } from '../server/worker-tasks.js';
import { parseSheetInWorker, type SheetAnswer } from './spreadsheet-worker.js';
import { isZip, listZip, ZipError } from '../interchange/zip.js';
import type { Say } from './imports.js';

/**
 * Spreadsheets as language-resource imports read them (memories, term bases, corpora). A 357 KB xlsx
 * can hold a 100 MB sheet, so: the zip's declared sizes are checked before SheetJS sees the bytes,
 * the first sheet alone is parsed, in a worker process with a heap limit and a deadline (a sheet that
 * exhausts it fails its own import, never the server), at most `maxRows`
 * rows (one more is read to know the sheet is over), and a sheet over the row or cell limit is
 * refused whole (nothing is imported; a truncated import would silently lose rows).
 */

export interface SpreadsheetLimits {
  /** The declared unpacked size of the whole workbook. */
  maxUnpackedBytes: number;
  maxRows: number;
  /** Non-empty cells of the first sheet, every column counted. */
  maxCells: number;
  /** The parsing worker's heap. */
  maxHeapMb: number;
  timeoutMs: number;
}

export const SPREADSHEET_DEFAULT_LIMITS: SpreadsheetLimits = { maxUnpackedBytes: 64 * 1024 * 1024, maxRows: 100_000, maxCells: 1_000_000, maxHeapMb: 512, timeoutMs: 60_000 };

const configSchema = z
  .object({
    maxUnpackedMb: z.number().positive(),
    maxRows: z.number().int().positive(),
    maxCells: z.number().int().positive(),
    maxHeapMb: z.number().int().min(32),
    timeoutSeconds: z.number().positive(),
  })
  .partial();

/** The limits an area's configuration sets (`DATA_DIR/config/<area>.json`, key `spreadsheet`), over the defaults. */
export function spreadsheetLimits(config: Readonly<Record<string, unknown>>): SpreadsheetLimits {
  const parsed = configSchema.safeParse(config.spreadsheet ?? {});
  const c = parsed.success ? parsed.data : {};
  const d = SPREADSHEET_DEFAULT_LIMITS;
  return {
    maxUnpackedBytes: c.maxUnpackedMb ? Math.round(c.maxUnpackedMb * 1024 * 1024) : d.maxUnpackedBytes,
    maxRows: c.maxRows ?? d.maxRows,
    maxCells: c.maxCells ?? d.maxCells,
    maxHeapMb: c.maxHeapMb ?? d.maxHeapMb,
    timeoutMs: c.timeoutSeconds ? c.timeoutSeconds * 1000 : d.timeoutMs,
  };
}

const ZIP_MAX_ENTRIES = 10_000;

/**
 * The first sheet's rows that have text in one of the first `columns` columns: each its row number
 * (from 1) and those cells, trimmed. A file over a limit, unreadable, or too heavy to parse is
 * refused with a 400 that says why, in the caller's language.
 */
export async function readSpreadsheet(path: string, file: string, say: Say, o: { columns: number; limits: SpreadsheetLimits }): Promise<Array<{ row: number; cells: string[] }>> {
  const { limits } = o;
  const refuse = (zh: string, en: string) => new ApiError(Codes.BAD_REQUEST, say(`${file}：${zh}`, `${file}: ${en}`));
  const mb = limits.maxUnpackedBytes >= 1024 * 1024 ? `${Math.round(limits.maxUnpackedBytes / 1024 / 1024)} MB` : `${Math.ceil(limits.maxUnpackedBytes / 1024)} KB`;
  const bytes = await readFile(path);
  if (isZip(bytes)) {
    // The central directory alone: nothing is inflated before the declared sizes pass.
    try {
      listZip(bytes, { maxEntries: ZIP_MAX_ENTRIES, maxBytes: limits.maxUnpackedBytes });
    } catch (err) {
      if (!(err instanceof ZipError)) throw err;
      if (err.reason === 'tooLarge') throw refuse(`电子表格解压后超过 ${mb}，未导入任何内容`, `the spreadsheet unpacks to more than ${mb}; nothing was imported`);
      if (err.reason === 'tooMany') throw refuse(`电子表格包含超过 ${ZIP_MAX_ENTRIES} 个部件`, `the spreadsheet holds more than ${ZIP_MAX_ENTRIES} parts`);
      throw refuse('无法读取该电子表格', 'the spreadsheet cannot be read');
    }
  } else if (bytes.length > limits.maxUnpackedBytes) {
    throw refuse(`电子表格超过 ${mb}，未导入任何内容`, `the spreadsheet is over ${mb}; nothing was imported`);
  }
  let answer: SheetAnswer;
  try {
    answer = await parseSheetInWorker({ path, columns: o.columns, maxRows: limits.maxRows, maxCells: limits.maxCells }, { maxHeapMb: limits.maxHeapMb, timeoutMs: limits.timeoutMs });
  } catch (err) {
    if (err instanceof WorkerRunError && (err.reason === 'heap' || err.reason === 'timeout')) throw refuse('电子表格过大，无法在限定的内存和时间内读取，未导入任何内容', 'the spreadsheet is too large to read within the memory and time limits; nothing was imported');
    if (err instanceof WorkerRunError || err instanceof WorkerTaskError) throw refuse('无法读取该电子表格', 'the spreadsheet cannot be read');
    throw err;
  }
  if ('unreadable' in answer) throw refuse('无法读取该电子表格', 'the spreadsheet cannot be read');
  if ('overRows' in answer) throw refuse(`工作表超过 ${limits.maxRows} 行，请拆分文件后再导入（未导入任何内容）`, `the sheet has more than ${limits.maxRows} rows; split the file and import the parts (nothing was imported)`);
  if ('overCells' in answer) throw refuse(`工作表超过 ${limits.maxCells} 个单元格，请拆分文件后再导入（未导入任何内容）`, `the sheet has more than ${limits.maxCells} cells; split the file and import the parts (nothing was imported)`);
  return answer.rows.map(([row, ...cells]) => ({ row, cells }));
}

/**
 * The pairs of a spreadsheet: the first sheet's first two columns (source, translation), each with its
 * row number; a first row naming the columns (source/原文, translation/译文…) is a header, not a pair.
 */
export async function spreadsheetPairs(path: string, file: string, say: Say, limits: SpreadsheetLimits): Promise<Array<{ row: number; source: string; target: string }>> {
  const rows = await readSpreadsheet(path, file, say, { columns: 2, limits });
  const out: Array<{ row: number; source: string; target: string }> = [];
  for (const [i, { row, cells }] of rows.entries()) {
    const [source = '', target = ''] = cells;
    if (i === 0 && /^(source|原文|源文)/i.test(source) && /^(translation|target|译文|目标)/i.test(target)) continue;
    out.push({ row, source, target });
  }
  return out;
}
