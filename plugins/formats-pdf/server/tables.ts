import { splitAtGaps, type Box, type Line } from '@linguaport/sdk/server';

/**
 * Tables found in a text page's lines. poppler gives words, not ruling lines, so a table is found by
 * alignment: consecutive rows (bands of lines side by side) whose pieces fall into the same vertical
 * strips (columns), each piece in its own strip. Two columns of running text look the same, so a
 * two-strip region whose lines fill their strip and hold many words is left to the paragraph reader.
 */

export interface TableCell {
  lines: Line[];
}

export interface FoundTable extends Box {
  /** Column strips, left to right. */
  columns: Array<[number, number]>;
  /** Each row's top and bottom and its cells (null: an empty cell). */
  rows: Array<{ y0: number; y1: number; cells: Array<TableCell | null> }>;
}

const LIST_MARK = /^([\u2022\u00b7\u25aa\u25ab\u25e6\u2023\u25cb\u25cf\u25a0\u25a1\u2013\u2014\u2212\-*+>\u2192\u2713\u2714]|\(?(\d{1,3}|[a-z]|[ivxlc]{1,5})[.)])$/iu;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const height = (b: Box) => b.y1 - b.y0;
const words = (l: Line) => l.words.length;

/** Pieces side by side (overlapping vertically), top to bottom. */
function bands(items: Line[]): Line[][] {
  const out: Line[][] = [];
  let bottom = -Infinity;
  for (const p of [...items].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)) {
    if (p.y0 >= bottom - 0.3 * height(p)) {
      out.push([p]);
      bottom = p.y1;
    } else {
      out.at(-1)!.push(p);
      bottom = Math.max(bottom, p.y1);
    }
  }
  return out.map((b) => b.sort((x, y) => x.x0 - y.x0));
}

/** Vertical strips covered by the pieces of several rows (a projection of their x ranges). */
function strips(rows: Line[][], slack: number): Array<[number, number]> {
  const spans = rows.flat().map((p) => [p.x0, p.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [x0, x1] of spans) {
    const last = out.at(-1);
    if (last && x0 <= last[1] + slack) last[1] = Math.max(last[1], x1);
    else out.push([x0, x1]);
  }
  return out;
}

const columnOf = (p: Box, columns: Array<[number, number]>) => columns.findIndex(([a, b]) => p.x0 >= a - 0.5 && p.x1 <= b + 0.5);

/** Whether a two-strip region reads as two columns of running text rather than a table. */
function isRunningText(rows: Line[][], columns: Array<[number, number]>): boolean {
  if (columns.length !== 2) return false;
  return columns.every((col, c) => {
    const inCol = rows.flat().filter((p) => columnOf(p, columns) === c);
    const full = inCol.filter((p) => p.x1 - p.x0 >= 0.8 * (col[1] - col[0])).length;
    const avgWords = inCol.reduce((n, p) => n + words(p), 0) / Math.max(1, inCol.length);
    return full >= 0.5 * inCol.length && avgWords >= 4;
  });
}

function tableOf(run: Line[][], lineHeight: number): FoundTable | null {
  // Columns from the rows of several cells; one-cell bands at the end that do not fit them (the text after the table) are not its.
  const columns = strips(run.filter((r) => r.length >= 2), 0.8 * lineHeight);
  if (columns.length < 2) return null;
  const rows = [...run];
  while (rows.length && rows.at(-1)!.some((p) => columnOf(p, columns) === -1)) rows.pop();
  const filled = rows.map((r) => new Set(r.map((p) => columnOf(p, columns))));
  // Every piece in a strip of its own in its row, and at least two rows with two cells or more.
  if (rows.some((r, i) => filled[i]!.size !== r.length || filled[i]!.has(-1))) return null;
  if (filled.filter((f) => f.size >= 2).length < 2) return null;
  if (isRunningText(rows, columns)) return null;
  // A column of bullets or item numbers only is a list, read as paragraphs.
  if (rows.flat().filter((p) => columnOf(p, columns) === 0).every((p) => LIST_MARK.test(p.words.map((w) => w.text).join(' ')))) return null;
  const out: FoundTable = { x0: columns[0]![0], x1: columns.at(-1)![1], y0: Infinity, y1: -Infinity, columns, rows: [] };
  for (const r of rows) {
    const y0 = Math.min(...r.map((p) => p.y0));
    const y1 = Math.max(...r.map((p) => p.y1));
    const cells: Array<TableCell | null> = columns.map(() => null);
    const prev = out.rows.at(-1);
    // A band close under the row above with fewer cells, each under a cell of it, is that row's wrapped text.
    const continues = prev && r.length < prev.cells.filter(Boolean).length && y0 - prev.y1 <= 0.25 * lineHeight && r.every((p) => prev.cells[columnOf(p, columns)]);
    if (continues) {
      for (const p of r) prev.cells[columnOf(p, columns)]!.lines.push(p);
      prev.y1 = Math.max(prev.y1, y1);
    } else {
      for (const p of r) cells[columnOf(p, columns)] = { lines: [p] };
      out.rows.push({ y0, y1, cells });
    }
    out.y0 = Math.min(out.y0, y0);
    out.y1 = Math.max(out.y1, y1);
  }
  return out.rows.length >= 2 ? out : null;
}

/** The pieces a table holds. */
export const piecesOf = (table: FoundTable): Line[] => table.rows.flatMap((r) => r.cells.flatMap((c) => c?.lines ?? []));

/**
 * The tables of a page and the lines left for paragraphs. A run of consecutive bands, each of two
 * pieces or more (or one piece that continues a cell above), close one under the other, is a
 * candidate; it is a table when its pieces line up in columns (see `tableOf`). Lines are cut at gaps of
 * 1.2 line heights (the paragraph reader cuts at 2.5): table cells can stand closer than a gutter.
 */
export function findTables(lines: Line[]): { tables: FoundTable[]; rest: Line[] } {
  if (lines.length < 4) return { tables: [], rest: lines };
  const lineHeight = median(lines.map(height));
  const owner = new Map<Line, Line>();
  for (const l of lines) for (const p of splitAtGaps(l, 1.2)) owner.set(p, l);
  const all = bands([...owner.keys()]);
  const tables: FoundTable[] = [];
  const used = new Set<Line>();
  let run: Line[][] = [];
  const close = () => {
    const table = run.length >= 2 ? tableOf(run, lineHeight) : null;
    if (table) {
      tables.push(table);
      for (const p of piecesOf(table)) used.add(p);
    }
    run = [];
  };
  for (const band of all) {
    const prev = run.at(-1);
    const gap = prev ? Math.min(...band.map((p) => p.y0)) - Math.max(...prev.map((p) => p.y1)) : 0;
    const single = band.length < 2;
    if (prev && gap <= 1.5 * lineHeight && (!single || gap <= 0.25 * lineHeight)) {
      run.push(band);
      continue;
    }
    close();
    if (!single) run.push(band);
  }
  close();
  if (!tables.length) return { tables, rest: lines };
  // The lines not in a table, whole; of a line partly in one, the pieces outside it.
  const touched = new Set([...used].map((p) => owner.get(p)!));
  const rest = [...lines.filter((l) => !touched.has(l)), ...[...owner].filter(([p, l]) => touched.has(l) && !used.has(p)).map(([p]) => p)];
  return { tables, rest };
}
