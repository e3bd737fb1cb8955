import * as XLSX from '@e965/xlsx';
import { ApiError, Codes } from '../server/index.js';
import type { Say } from './imports.js';

/**
 * The pairs of a spreadsheet as language-resource imports read them: the first sheet's first two
 * columns (source, translation), trimmed, each with its row number; a first row naming the columns
 * (source/原文, translation/译文…) is a header, not a pair. An unreadable file is refused (400).
 */
export function spreadsheetPairs(bytes: Buffer, file: string, say: Say): Array<{ row: number; source: string; target: string }> {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'buffer', dense: true });
  } catch {
    throw new ApiError(Codes.BAD_REQUEST, say(`${file}：无法读取该电子表格`, `${file}: the spreadsheet cannot be read`));
  }
  const sheet = book.Sheets[book.SheetNames[0]!];
  if (!sheet) return [];
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false, defval: '' });
  const out: Array<{ row: number; source: string; target: string }> = [];
  for (let i = 0; i < rows.length; i++) {
    const [a, b] = rows[i]!;
    const source = String(a ?? '').trim();
    const target = String(b ?? '').trim();
    if (i === 0 && /^(source|原文|源文)/i.test(source) && /^(translation|target|译文|目标)/i.test(target)) continue;
    out.push({ row: i + 1, source, target });
  }
  return out;
}
