import { readFile } from 'node:fs/promises';
import { defineWorkerTask, type WorkerTaskOptions } from '../server/worker-tasks.js';

/**
 * The parse of a spreadsheet's first sheet, run in a worker process (see readSpreadsheet). A module of
 * its own with no other imports, so that under tsx the worker loads little besides SheetJS and a small
 * heap limit is spent on the sheet; compiled, `import.meta.url` is the chunk that holds this code.
 */

export interface SheetJob {
  path: string;
  columns: number;
  maxRows: number;
  maxCells: number;
}

export type SheetAnswer = { rows: Array<[number, ...string[]]> } | { unreadable: true } | { overRows: true } | { overCells: true };

interface Cell {
  v?: unknown;
}

const parseSheet = defineWorkerTask('sdk.spreadsheet.parse', async (job: SheetJob): Promise<SheetAnswer> => {
  // Loaded here, in the worker only: the server never holds SheetJS for an import.
  const XLSX = await import('@e965/xlsx');
  const bytes = await readFile(job.path);
  let book: ReturnType<typeof XLSX.read>;
  try {
    // `sheetRows` one over the limit: reading stops there, and one more row says the sheet is over.
    book = XLSX.read(bytes, { type: 'buffer', dense: true, sheets: 0, sheetRows: job.maxRows + 1, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false });
  } catch {
    return { unreadable: true };
  }
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) return { rows: [] };
  const data = ((sheet as unknown as { '!data'?: Array<Array<Cell | undefined> | undefined> })['!data'] ?? []) as Array<Array<Cell | undefined> | undefined>;
  if (data.length > job.maxRows) return { overRows: true };
  let cells = 0;
  const rows: Array<[number, ...string[]]> = [];
  for (let r = 0; r < data.length; r++) {
    const line = data[r];
    if (!line) continue;
    for (const c of line) if (c && c.v !== undefined && c.v !== '') cells++;
    if (cells > job.maxCells) return { overCells: true };
    const out: string[] = [];
    let any = false;
    for (let i = 0; i < job.columns; i++) {
      const c = line[i];
      const text = c && c.v !== undefined && c.v !== null ? String(c.v).trim() : '';
      if (text) any = true;
      out.push(text);
    }
    if (any) rows.push([r + 1, ...out]);
  }
  return { rows };
});

/** Parses the sheet in a worker process within the heap and time given (WorkerRunError past them). */
export function parseSheetInWorker(job: SheetJob, options: Omit<WorkerTaskOptions, 'module'>): Promise<SheetAnswer> {
  return parseSheet.run(job, { ...options, module: import.meta.url });
}
