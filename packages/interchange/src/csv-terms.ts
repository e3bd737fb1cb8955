import { platformLanguage } from '@linguaport/sdk/shared';

/**
 * Term lists as CSV (RFC 4180) for spreadsheets: a header row, then a source term, its translation and
 * optionally a note, a part of speech, a domain and whether the translation is forbidden per row. The separator (`,`, `;` or tab) is the one the first line uses. Files are
 * UTF-8 without a byte-order mark, as the platform's term import requires.
 *
 * The header names the columns by role (`source`, `target`, `term`, `translation`, `note`,
 * `part of speech`, `domain`, `forbidden`, or 原文, 译文, 备注, 词性, 领域, 禁用…; case and spacing ignored, any order) or by language (`en`, `zh-CN`, `English`, `中文`); with languages the term
 * base's direction picks the columns, so `zh-CN,en` imports into an en -> zh-CN base. A first row that
 * names nothing is data, the columns then in `TERM_POSITIONAL_COLUMNS` order. Rows are numbered as a
 * spreadsheet shows them (a header is row 1). A forbidden cell that is no clear yes or no is a rejected row.
 */

export interface TermCsvRow {
  row: number;
  source: string;
  target: string;
  note?: string;
  partOfSpeech?: string;
  domain?: string;
  /** A translation not to use (a `forbidden` cell of yes, true, 1, x, 是 or 禁用). */
  forbidden?: boolean;
}

/** Why a row is not a term: a stable code (for the messages of the console) and the reason in English. */
export type TermCsvRejection =
  | { row: number; code: 'emptySource' | 'emptyTarget' | 'emptySourceAndTarget' | 'textAfterQuote' | 'extraCells'; reason: string }
  /** The forbidden cell is no clear yes or no (`value` as written). */
  | { row: number; code: 'unclearForbidden'; value: string; reason: string };

export interface TermCsvReading {
  rows: TermCsvRow[];
  rejected: TermCsvRejection[];
  /** Platform codes of the source and target columns, when the header names languages. */
  sourceLanguage?: string;
  targetLanguage?: string;
}

export interface TermCsvOptions {
  /** The term base's languages (any form of the code): they pick the columns of a header that names languages. */
  sourceLanguage?: string;
  targetLanguage?: string;
}

/** A file that cannot be read as a term list at all (encoding, header, an unclosed quote). */
export class TermCsvError extends Error {
  constructor(
    message: string,
    readonly row?: number,
  ) {
    super(row === undefined ? message : `row ${row}: ${message}`);
    this.name = 'TermCsvError';
  }
}

/** A header cell as compared: NFKC, lower case, without spaces, `_`, `-` or a part in brackets (`Part of Speech`, `part_of_speech`, `源术语（英）`). */
const headerKey = (cell: string) =>
  cell
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\(.*?\)/g, '')
    .replace(/[\s_\-.:]+/g, '');
const names = (...list: string[]) => new Set(list.map(headerKey));
const SOURCE_NAMES = names('source', 'source term', 'source text', 'src', 'term', 'original', '原文', '源文', '术语', '源术语', '原文术语', '源语言');
const TARGET_NAMES = names('target', 'target term', 'target text', 'tgt', 'translation', 'translated', '译文', '翻译', '目标', '目标术语', '译文术语', '目标语言');
const NOTE_NAMES = names('note', 'notes', 'comment', 'comments', 'remark', 'remarks', 'description', '备注', '注释', '说明');
const POS_NAMES = names('part of speech', 'pos', '词性');
const DOMAIN_NAMES = names('domain', 'subject', 'subject field', 'field', '领域', '专业领域', '学科');
const FORBIDDEN_NAMES = names('forbidden', 'deprecated', 'do not use', '禁用', '禁用术语', '禁止', '是否禁用', '禁用词');
export type TermColumnRole = 'source' | 'target' | 'note' | 'partOfSpeech' | 'domain' | 'forbidden';
/** The field a header cell names (`Source`, `Part of speech`, `禁用`...; case and spacing ignored), for term spreadsheets too; undefined for others. */
export function termColumnRole(cell: string): TermColumnRole | undefined {
  const c = headerKey(cell);
  if (!c) return undefined;
  if (SOURCE_NAMES.has(c)) return 'source';
  if (TARGET_NAMES.has(c)) return 'target';
  if (NOTE_NAMES.has(c)) return 'note';
  if (POS_NAMES.has(c)) return 'partOfSpeech';
  if (DOMAIN_NAMES.has(c)) return 'domain';
  if (FORBIDDEN_NAMES.has(c)) return 'forbidden';
  return undefined;
}

/** A forbidden cell that says yes (what `writeTermCsv` writes is `yes`); `x`, `禁用`, `forbidden` and `deprecated` are read as yes too. */
export const FORBIDDEN_YES = /^(1|true|yes|y|x|是|禁用|forbidden|deprecated)$/i;
const FORBIDDEN_NO = /^(0|false|no|n|否)$/i;
/**
 * What a forbidden cell says: true, false (an empty cell too), or undefined when it is no clear yes or no
 * (`maybe`, `2`): such a row is reported, never taken as forbidden or allowed by guess.
 */
export function forbiddenValue(cell: string): boolean | undefined {
  const c = cell.trim();
  if (!c || FORBIDDEN_NO.test(c)) return false;
  return FORBIDDEN_YES.test(c) ? true : undefined;
}

/** Without a header row the columns are in this order (a spreadsheet's, and a CSV's without a header). */
export const TERM_POSITIONAL_COLUMNS: readonly TermColumnRole[] = ['source', 'target', 'partOfSpeech', 'note', 'domain', 'forbidden'];

const LANGUAGE_NAMES: Record<string, string> = {
  english: 'en',
  chinese: 'zh-CN',
  'simplified chinese': 'zh-CN',
  'chinese (simplified)': 'zh-CN',
  'traditional chinese': 'zh-TW',
  'chinese (traditional)': 'zh-TW',
  french: 'fr',
  german: 'de',
  spanish: 'es',
  portuguese: 'pt',
  italian: 'it',
  russian: 'ru',
  japanese: 'ja',
  korean: 'ko',
  arabic: 'ar',
  英文: 'en',
  英语: 'en',
  中文: 'zh-CN',
  简体中文: 'zh-CN',
  繁体中文: 'zh-TW',
  繁體中文: 'zh-TW',
  法语: 'fr',
  德语: 'de',
  西班牙语: 'es',
  俄语: 'ru',
  日语: 'ja',
  日文: 'ja',
  韩语: 'ko',
  韩文: 'ko',
};
const LANGUAGE_CODE = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i;
const KNOWN_LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The platform language a header cell names (a code the language data knows, or a common name), or undefined. */
function headerLanguage(cell: string): string | undefined {
  const named = LANGUAGE_NAMES[cell.toLowerCase()];
  if (named) return named;
  if (!LANGUAGE_CODE.test(cell)) return undefined;
  try {
    return KNOWN_LANGUAGES.of(cell.split(/[-_]/)[0]!.toLowerCase()) ? platformLanguage(cell) : undefined;
  } catch {
    return undefined;
  }
}

/** Text of UTF-8 bytes: a byte-order mark or bytes that are no UTF-8 are refused, with where they are. */
function utf8Text(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new TermCsvError('the file starts with a byte-order mark: save it as UTF-8 without BOM');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new TermCsvError('the file is UTF-16: save it as UTF-8 without BOM');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const at = invalidUtf8At(bytes);
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
    throw new TermCsvError(`the file is not UTF-8 (byte ${at + 1}, line ${line}): save it as UTF-8 without BOM`);
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function invalidUtf8At(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    const size = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!size) return i;
    for (let k = 1; k < size; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
    }
    // Overlong forms, surrogates and code points past U+10FFFF.
    const d = b[i + 1]!;
    if ((c === 0xe0 && d < 0xa0) || (c === 0xed && d > 0x9f) || (c === 0xf0 && d < 0x90) || (c === 0xf4 && d > 0x8f)) return i;
    i += size;
  }
  return b.length;
}

/** The separator the first line uses most (outside quotes): tab, `;` or `,`. */
function detectSeparator(text: string): string {
  const counts: Record<string, number> = { '\t': 0, ';': 0, ',': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c in counts) counts[c]!++;
  }
  let best = ',';
  for (const sep of ['\t', ';', ',']) if (counts[sep]! > counts[best]!) best = sep;
  return best;
}

interface CsvRecord {
  cells: string[];
  /** The problem with the record's quoting, if any. */
  malformed?: string;
}

/** RFC 4180 records: quoted cells hold separators, doubled quotes and line ends; CRLF, LF or CR ends a record. */
function* records(text: string, sep: string): Generator<CsvRecord> {
  let i = 0;
  const n = text.length;
  let record = 1;
  while (i < n) {
    const cells: string[] = [];
    let malformed: string | undefined;
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) throw new TermCsvError('a quoted cell is never closed (a quote is missing)', record);
          cell += text.slice(j, q);
          if (text[q + 1] === '"') {
            cell += '"';
            j = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        // RFC 4180 allows nothing between a closing quote and the separator; what is there is kept.
        let k = i;
        while (k < n && text[k] !== sep && text[k] !== '\n' && text[k] !== '\r') k++;
        if (k > i) {
          malformed ??= 'text after a closing quote: a quote inside a cell must be doubled';
          cell += text.slice(i, k);
        }
        i = k;
      } else {
        let k = i;
        while (k < n && text[k] !== sep && text[k] !== '\n' && text[k] !== '\r') k++;
        cell = text.slice(i, k);
        i = k;
      }
      cells.push(cell);
      if (text[i] === sep) {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    yield malformed ? { cells, malformed } : { cells };
    record++;
  }
}

/** The formula guard undone: `'=SUM` as written by `writeTermCsv` reads as `=SUM` (and `''=SUM` as `'=SUM`). */
const unguard = (cell: string) => (GUARDED.test(cell) ? cell.slice(1) : cell);

/**
 * Reads a term list. Throws TermCsvError for what makes the whole file unreadable (not UTF-8, a
 * byte-order mark, a header without source and target columns, languages other than the term base's,
 * an unclosed quote); a row that cannot be a term is rejected with its row number and the reason.
 */
export function readTermCsv(input: string | Uint8Array, options: TermCsvOptions = {}): TermCsvReading {
  const text = typeof input === 'string' ? input : utf8Text(input);
  if (text.charCodeAt(0) === 0xfeff) throw new TermCsvError('the file starts with a byte-order mark: save it as UTF-8 without BOM');
  if (!text.trim()) throw new TermCsvError('the file is empty');
  const sep = detectSeparator(text);
  const all = records(text, sep);
  const first = all.next();
  const header = first.done ? [] : first.value.cells.map((c) => c.trim());
  const named = termHeaderColumns(header, options);
  // A first row that names nothing is data: the columns are then in the positional order.
  const columns: TermColumns = named ?? positionalColumns();
  const width = named ? header.length : TERM_POSITIONAL_COLUMNS.length;
  const body = named || first.done ? all : (function* () {
    yield first.value;
    yield* all;
  })();

  const rows: TermCsvRow[] = [];
  const rejected: TermCsvReading['rejected'] = [];
  let row = named ? 1 : 0;
  for (const rec of body) {
    row++;
    const cells = rec.cells;
    // A blank line is no row of terms.
    if (cells.length === 1 && cells[0] === '') continue;
    if (rec.malformed) {
      rejected.push({ row, code: 'textAfterQuote', reason: rec.malformed });
      continue;
    }
    // Spreadsheets pad rows with empty cells; a filled cell past the header is a separator inside an unquoted term.
    const filled = cells.reduce((last, c, i) => (c.trim() ? i + 1 : last), 0);
    if (filled > width) {
      rejected.push({ row, code: 'extraCells', reason: `${cells.length} cells where the ${named ? 'header has' : 'columns are'} ${width}: a term holding "${sep === '\t' ? '\\t' : sep}" must be quoted` });
      continue;
    }
    const source = unguard((cells[columns.source] ?? '').trim());
    const target = unguard((cells[columns.target] ?? '').trim());
    if (!source || !target) {
      if (!source && !target) rejected.push({ row, code: 'emptySourceAndTarget', reason: 'the source and the target are empty' });
      else if (!source) rejected.push({ row, code: 'emptySource', reason: 'the source is empty' });
      else rejected.push({ row, code: 'emptyTarget', reason: 'the target is empty' });
      continue;
    }
    const entry: TermCsvRow = { row, source, target };
    const cell = (at: number | undefined) => (at === undefined ? '' : unguard((cells[at] ?? '').trim()));
    const note = cell(columns.note);
    if (note) entry.note = note;
    const pos = cell(columns.partOfSpeech);
    if (pos) entry.partOfSpeech = pos;
    const domain = cell(columns.domain);
    if (domain) entry.domain = domain;
    const forbidden = cell(columns.forbidden);
    const said = forbiddenValue(forbidden);
    if (said === undefined) {
      rejected.push({ row, code: 'unclearForbidden', value: forbidden, reason: `the forbidden column says "${forbidden}": write yes or no` });
      continue;
    }
    if (said) entry.forbidden = true;
    rows.push(entry);
  }
  const reading: TermCsvReading = { rows, rejected };
  if (columns.sourceLanguage) reading.sourceLanguage = columns.sourceLanguage;
  if (columns.targetLanguage) reading.targetLanguage = columns.targetLanguage;
  return reading;
}

/** Where each field is: a column index. */
export interface TermColumns {
  source: number;
  target: number;
  note?: number;
  partOfSpeech?: number;
  domain?: number;
  forbidden?: number;
  sourceLanguage?: string;
  targetLanguage?: string;
}

function positionalColumns(): TermColumns {
  return Object.fromEntries(TERM_POSITIONAL_COLUMNS.map((role, i) => [role, i])) as unknown as TermColumns;
}

/**
 * The columns a header row names, by role (in English or Chinese, case and spacing ignored, any order)
 * or by language; null when the row names no role and fewer than two languages (the row is data). Throws TermCsvError for
 * a header without a source or target column, or with other languages than the term base's.
 */
export function termHeaderColumns(header: string[], options: TermCsvOptions = {}): TermColumns | null {
  // Two languages at least: one cell such as `no` or `de` in a first row of terms is a word, not a header.
  if (!header.some((h) => termColumnRole(h)) && header.filter((h) => headerLanguage(h.trim())).length < 2) return null;
  const find = (names: Set<string>) => header.findIndex((h) => names.has(headerKey(h)));
  const note = find(NOTE_NAMES);
  const extra = { partOfSpeech: find(POS_NAMES), domain: find(DOMAIN_NAMES), forbidden: find(FORBIDDEN_NAMES) };
  const found = { source: find(SOURCE_NAMES), target: find(TARGET_NAMES) };
  const out: TermColumns = { source: found.source, target: found.target };
  if (note !== -1) out.note = note;
  for (const [k, i] of Object.entries(extra)) if (i !== -1) out[k as keyof typeof extra] = i;
  const used = new Set([found.source, found.target, note, ...Object.values(extra)].filter((i) => i !== -1));
  // Columns named by language: the term base's language picks its column; a side the options leave open takes the first one left.
  const languages = header.map((h, i) => ({ i, lang: used.has(i) ? undefined : headerLanguage(h) })).filter((c): c is { i: number; lang: string } => c.lang !== undefined);
  const want = { source: options.sourceLanguage && platformLanguage(options.sourceLanguage), target: options.targetLanguage && platformLanguage(options.targetLanguage) };
  const sides = (['source', 'target'] as const).filter((side) => found[side] === -1).sort((a, b) => Number(!want[a]) - Number(!want[b]));
  for (const side of sides) {
    const column = languages.find((c) => !used.has(c.i) && (!want[side] || c.lang === want[side]));
    if (!column) {
      if (want[side] && languages.length) throw new TermCsvError(`the header names ${languages.map((l) => l.lang).join(', ')}; the term base's ${side} language is ${want[side]}`, 1);
      throw new TermCsvError(`the header (${header.join(' | ')}) names no ${side} column: use source,target,note or the languages' codes (en,zh-CN)`, 1);
    }
    used.add(column.i);
    out[side] = column.i;
    out[side === 'source' ? 'sourceLanguage' : 'targetLanguage'] = column.lang;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Writing

export interface TermCsvWriteOptions {
  sourceLanguage: string;
  targetLanguage: string;
  /** `,` (default), `;` (spreadsheets with a decimal comma) or a tab. */
  separator?: ',' | ';' | '\t';
}

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection), or one that already starts with
 * the guard: both get a `'` in front, so reading takes exactly one off.
 */
const FORMULA = /^'*[=+\-@]/;
const GUARDED = /^'+[=+\-@]/;

function cellCsv(value: string, sep: string): string {
  const trimmed = value.trim();
  const cell = FORMULA.test(trimmed) ? `'${trimmed}` : trimmed;
  return cell.includes(sep) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * A term list as CSV text: a header of the two languages' codes (and `note`, `part of speech`, `domain`,
 * `forbidden` when a row has one: `yes` for a forbidden translation), then a row per term, CRLF between rows as RFC 4180 has it. Cells are trimmed (reading trims them too). A
 * cell that starts like a formula (`=`, `+`, `-`, `@`) is prefixed with `'` so a spreadsheet shows it
 * as text; `readTermCsv` takes the prefix off again. No byte-order mark: encode the text as UTF-8.
 */
export function writeTermCsv(rows: Iterable<Omit<TermCsvRow, 'row'>>, options: TermCsvWriteOptions): string {
  const sep = options.separator ?? ',';
  const list = [...rows];
  // A column only when some row has the field, so a plain list stays source,target.
  const extra = ([
    ['note', (r) => r.note ?? ''],
    ['part of speech', (r) => r.partOfSpeech ?? ''],
    ['domain', (r) => r.domain ?? ''],
    ['forbidden', (r) => (r.forbidden ? 'yes' : '')],
  ] as Array<[string, (r: Omit<TermCsvRow, 'row'>) => string]>).filter(([, get]) => list.some((r) => get(r)));
  const lines = [[options.sourceLanguage, options.targetLanguage, ...extra.map(([name]) => name)].map((c) => cellCsv(c, sep)).join(sep)];
  for (const r of list) lines.push([r.source, r.target, ...extra.map(([, get]) => get(r))].map((c) => cellCsv(c, sep)).join(sep));
  return `${lines.join('\r\n')}\r\n`;
}
