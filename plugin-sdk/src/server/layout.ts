import { decodeEntities } from '@linguaport/sdk/interchange';

/**
 * From positioned words to paragraphs in reading order. Everything is in PDF points with the origin at
 * the page's top-left corner. Text pages come from `pdftotext -bbox-layout`, scanned pages from
 * tesseract's TSV; both end as lines, and lines become blocks (paragraphs) here.
 */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Word extends Box {
  text: string;
}

export interface Line extends Box {
  words: Word[];
}

export interface Block extends Box {
  lines: Line[];
  text: string;
  /** Estimated from the lines' heights, in points, to the half point. */
  fontSize: number;
}

export interface PageText {
  width: number;
  height: number;
  lines: Line[];
}

const num = (attrs: string, name: string) => Number(new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? 0);

/**
 * The pages of `pdftotext -bbox-layout` output, each with its lines. poppler's own blocks are not kept:
 * it merges paragraphs that have no space between them, and even the lines of two columns, into one
 * block, so paragraphs are rebuilt from the lines (`blocksOf`).
 */
export function readBboxLayout(html: string): PageText[] {
  const pages: PageText[] = [];
  let page: PageText | null = null;
  let line: Line | null = null;
  // pdftotext writes one element per line in a fixed shape; a scan is much faster than a tree.
  const re = /<page width="([^"]*)" height="([^"]*)">|<line ([^>]*)>|<\/line>|<word ([^>]*)>([^<]*)<\/word>/g;
  for (const m of html.matchAll(re)) {
    if (m[1] !== undefined) {
      page = { width: Number(m[1]), height: Number(m[2]), lines: [] };
      pages.push(page);
    } else if (m[3] !== undefined) {
      line = { x0: num(m[3], 'xMin'), y0: num(m[3], 'yMin'), x1: num(m[3], 'xMax'), y1: num(m[3], 'yMax'), words: [] };
    } else if (m[4] !== undefined) {
      const text = decodeEntities(m[5]!);
      if (line && text.trim()) line.words.push({ x0: num(m[4], 'xMin'), y0: num(m[4], 'yMin'), x1: num(m[4], 'xMax'), y1: num(m[4], 'yMax'), text });
    } else if (line) {
      if (line.words.length && page) page.lines.push(line);
      line = null;
    }
  }
  return pages;
}

/** Tesseract's paragraphs (block and paragraph numbers), each with its lines, scaled to points. */
export function readTesseractTsv(tsv: string, page: { width: number; height: number }): Line[][] {
  const rows = tsv.split('\n').slice(1);
  let scale = 1;
  const paragraphs = new Map<string, Map<string, Line>>();
  for (const row of rows) {
    const f = row.split('\t');
    if (f.length < 12) continue;
    const level = Number(f[0]);
    const [left, top, width, height] = [Number(f[6]), Number(f[7]), Number(f[8]), Number(f[9])];
    if (level === 1) {
      // The page row gives the image size, hence pixels to points whatever the rendering resolution.
      scale = width > 0 ? page.width / width : 1;
      continue;
    }
    const text = f.slice(11).join('\t').trim();
    if (level !== 5 || !text) continue;
    const par = `${f[2]}.${f[3]}`;
    const lineKey = f[4]!;
    const word: Word = { x0: left * scale, y0: top * scale, x1: (left + width) * scale, y1: (top + height) * scale, text };
    let lines = paragraphs.get(par);
    if (!lines) paragraphs.set(par, (lines = new Map()));
    const line = lines.get(lineKey);
    if (line) {
      line.words.push(word);
      grow(line, word);
    } else lines.set(lineKey, { ...word, words: [word] });
  }
  return [...paragraphs.values()].map((lines) => [...lines.values()]);
}

function grow(box: Box, by: Box): void {
  box.x0 = Math.min(box.x0, by.x0);
  box.y0 = Math.min(box.y0, by.y0);
  box.x1 = Math.max(box.x1, by.x1);
  box.y1 = Math.max(box.y1, by.y1);
}

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
const isCjk = (ch: string | undefined) => !!ch && CJK.test(ch);

/** Joins two pieces of text the way the language wants: nothing between Chinese characters, else a space. */
function joinPieces(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return isCjk(a.at(-1)) && isCjk(b[0]) ? a + b : `${a} ${b}`;
}

export function lineText(line: Line): string {
  return line.words.reduce((text, w) => joinPieces(text, w.text.trim()), '');
}

/** A block's lines as one paragraph: a word hyphenated at a line's end is whole again. */
export function blockText(lines: Line[]): string {
  let text = '';
  for (const line of lines) {
    const next = lineText(line);
    // `inter-` + `national`: a hyphen after a letter, before a lower-case letter, is the typesetter's.
    if (/\p{L}[-\u00ad\u2010]$/u.test(text) && /^\p{Ll}/u.test(next)) text = text.slice(0, -1) + next;
    else if (text.endsWith('\u00ad')) text = text.slice(0, -1) + next;
    else text = joinPieces(text, next);
  }
  return text.replace(/\u00ad/g, '');
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * A line cut where its words are far apart: a gap of several line heights is a column gutter or a
 * table's column, not a space (justified text stretches spaces to an em or two at most).
 */
export function splitAtGaps(line: Line, lineHeights = 2.5): Line[] {
  const limit = lineHeights * (line.y1 - line.y0);
  const pieces: Word[][] = [[]];
  line.words.forEach((w, i) => {
    if (i && w.x0 - line.words[i - 1]!.x1 > limit) pieces.push([]);
    pieces.at(-1)!.push(w);
  });
  if (pieces.length === 1) return [line];
  return pieces.map((words) => {
    const box = { ...words[0]! } as Box;
    for (const w of words) grow(box, w);
    return { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1, words };
  });
}

/**
 * Lines into paragraphs. A line continues the paragraph above it when it is close below it, overlaps
 * it horizontally, has about its height, and the line above ended only because this line's first word
 * did not fit after it (a line that stops short ends a paragraph: the only sign left when paragraphs
 * have no space between them).
 * `emPerLine` is the ratio of a line's height to its font size for the source of the lines; OCR's line
 * heights vary with the letters (ascenders, descenders), hence a wider `heightTolerance` for them.
 */
export function blocksOf(lines: Line[], emPerLine: number, heightTolerance = 0.2): Block[] {
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const open: Array<{ box: Box; lines: Line[] }> = [];
  for (const line of sorted) {
    const h = line.y1 - line.y0;
    let target: (typeof open)[number] | undefined;
    for (let i = open.length - 1; i >= 0 && i >= open.length - 12; i--) {
      const block = open[i]!;
      const last = block.lines.at(-1)!;
      const lastH = last.y1 - last.y0;
      if (Math.abs(h - lastH) > heightTolerance * Math.max(h, lastH)) continue;
      const gap = line.y0 - last.y1;
      const pitchGap = block.lines.length > 1 ? block.lines.at(-1)!.y0 - block.lines.at(-2)!.y1 : null;
      const maxGap = pitchGap === null ? 0.6 * h : Math.max(pitchGap + 0.3 * h, 0.15 * h);
      if (gap > maxGap || line.y0 < last.y0 + 0.5 * lastH) continue;
      const overlap = Math.min(line.x1, block.box.x1) - Math.max(line.x0, block.box.x0);
      if (overlap < 0.5 * Math.min(line.x1 - line.x0, block.box.x1 - block.box.x0)) continue;
      // The line above ended early although this line's first word would have fitted after it.
      const right = Math.max(block.box.x1, line.x1);
      if (right - last.x1 > firstWordWidth(line) + 0.3 * h) continue;
      target = block;
      break;
    }
    if (target) {
      target.lines.push(line);
      grow(target.box, line);
    } else open.push({ box: { x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 }, lines: [line] });
  }
  return open.map((b) => toBlock(b.lines, emPerLine));
}

/** The width of a line's first word; a Chinese line may break after any character, so one character's. */
function firstWordWidth(line: Line): number {
  const word = line.words[0]!;
  const width = word.x1 - word.x0;
  return isCjk(word.text[0]) ? width / Math.max(1, [...word.text].length) : width;
}

/** Lines already grouped (tesseract's paragraphs) as one block. */
export function toBlock(lines: Line[], emPerLine: number): Block {
  const box = { ...lines[0]! } as Box;
  for (const line of lines) grow(box, line);
  const fontSize = Math.round((median(lines.map((l) => l.y1 - l.y0)) / emPerLine) * 2) / 2;
  return { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1, lines, text: blockText(lines), fontSize: Math.max(fontSize, 1) };
}

/** Whether a block is only a number or two (a page number, a folio): nothing to translate. */
export function isFolio(text: string): boolean {
  return text.length <= 12 && /^[\p{P}\p{Z}]*(\d+|[ivxlc]+)([\p{P}\p{Z}]+\d+)?[\p{P}\p{Z}]*$/iu.test(text);
}

/**
 * Groups of boxes in reading order, each group one column's stretch: top to bottom, and where the page
 * has columns, each column top to bottom before the next. The page is cut into horizontal bands
 * wherever nothing spans the cut (`slack`: how much two boxes may overlap and still be one above the
 * other; line boxes overlap a little, ascenders over descenders); neighbouring bands that share an
 * empty vertical strip (a gutter) are one column region, read column by column, each column grouped
 * the same way (so three columns, or columns inside columns, work too).
 */
export function columnGroups<T extends Box>(items: T[], slack: (item: T) => number): T[][] {
  if (items.length <= 1) return items.length ? [[...items]] : [];
  const byTop = [...items].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const bands: T[][] = [];
  let bottom = -Infinity;
  for (const b of byTop) {
    if (b.y0 >= bottom - slack(b)) {
      bands.push([b]);
      bottom = b.y1;
    } else {
      bands.at(-1)!.push(b);
      bottom = Math.max(bottom, b.y1);
    }
  }
  // Regions: consecutive bands with a common gutter; a band of narrow boxes just below joins the region
  // whose gutter it stays clear of (a column that runs on below the other; not a footer far below).
  const regions: Array<{ items: T[]; gutter: [number, number] | null; bottom: number }> = [];
  for (const band of bands) {
    const gutter = gutterOf(band);
    const last = regions.at(-1);
    const bandBottom = Math.max(...band.map((b) => b.y1));
    if (last?.gutter) {
      const near = Math.min(...band.map((b) => b.y0)) - last.bottom <= 3 * Math.min(...band.map((b) => b.y1 - b.y0));
      const clear = near && band.every((b) => b.x1 <= last.gutter![0] || b.x0 >= last.gutter![1]);
      const common = gutter ? intersect(last.gutter, gutter) : clear ? last.gutter : null;
      if (common) {
        last.items.push(...band);
        last.gutter = common;
        last.bottom = Math.max(last.bottom, bandBottom);
        continue;
      }
    }
    regions.push({ items: [...band], gutter, bottom: bandBottom });
  }
  const out: T[][] = [];
  let run: T[] = [];
  for (const region of regions) {
    if (!region.gutter) {
      run.push(...region.items);
      continue;
    }
    if (run.length) out.push(run);
    run = [];
    const cut = (region.gutter[0] + region.gutter[1]) / 2;
    out.push(...columnGroups(region.items.filter((b) => (b.x0 + b.x1) / 2 < cut), slack), ...columnGroups(region.items.filter((b) => (b.x0 + b.x1) / 2 >= cut), slack));
  }
  if (run.length) out.push(run);
  return out;
}

/** Blocks in reading order (see `columnGroups`). */
export function readingOrder<T extends Box>(blocks: T[]): T[] {
  return columnGroups(blocks, () => 1).flatMap((group) => group.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0));
}

/**
 * A page's lines as paragraphs in reading order: columns found on the lines first (so a column's first
 * line never joins the paragraph above the columns), then paragraphs within each column.
 */
export function paragraphsOf(lines: Line[], emPerLine: number, heightTolerance?: number): Block[] {
  const pieces = lines.flatMap((l) => splitAtGaps(l));
  return columnGroups(pieces, (l) => 0.3 * (l.y1 - l.y0)).flatMap((group) => blocksOf(group, emPerLine, heightTolerance));
}

const MIN_GUTTER = 6;

/** The widest empty vertical strip between the blocks of a band, with blocks on both sides. */
function gutterOf(band: Box[]): [number, number] | null {
  if (band.length < 2) return null;
  const spans = band.map((b) => [b.x0, b.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  let best: [number, number] | null = null;
  let reach = spans[0]![1];
  for (const [x0, x1] of spans.slice(1)) {
    if (x0 - reach >= MIN_GUTTER && (!best || x0 - reach > best[1] - best[0])) best = [reach, x0];
    reach = Math.max(reach, x1);
  }
  return best;
}

function intersect(a: [number, number], b: [number, number]): [number, number] | null {
  const lo = Math.max(a[0], b[0]);
  const hi = Math.min(a[1], b[1]);
  return hi - lo >= 0 ? [lo, hi] : null;
}
