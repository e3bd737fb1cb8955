import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { sql, type Kysely, type Transaction } from 'kysely';
import * as XLSX from '@e965/xlsx';
import { ApiError, Codes, say, type ServerPluginContext } from '@linguaport/sdk/server';
import { hasReservedMarker, idSchema, isOnlySpecialOrDigits, platformLanguage } from '@linguaport/sdk/shared';
import { forbiddenValue, readTbx, readTermCsv, TermCsvError, termHeaderColumns, TERM_POSITIONAL_COLUMNS, writeTbx, writeTermCsv, type TbxConcept } from '@linguaport/interchange';
import { XmlError } from '@linguaport/sdk/interchange';
import { defineResourceImport, IMPORT_STREAMED_MAX_BYTES, readSpreadsheet, spreadsheetLimits, type ImportSource, type LibraryAccess, type SpreadsheetLimits } from '@linguaport/sdk/resources';
import { TERM_MAX_LENGTH } from './entries.js';
import type { TermDatabase } from './tables.js';

/**
 * Import and export of a term base's entries. In: TXT with a tab between source and translation and
 * CSV term lists (UTF-8 without BOM, at most 2 MB a file: spec 02 sections 5 and 9), XLS and XLSX
 * (columns named by a header row in English or Chinese, in any order; without one source, translation,
 * part of speech, note, domain and forbidden; a forbidden cell that is no clear yes/no is a rejected row) and TBX (v2 or v3, any dialect: each source term of a concept paired with each target
 * term; up to 1 GB, imported by a task over 2 MB: see `defineResourceImport`), at most 5 files a call. Each row is checked as an added term would be; rejected rows are
 * reported with their file, row number (a TBX's concept number) and reason, and the accepted ones
 * land in batches (a failed import takes them out again). Out: the checked entries only (spec 02 section 4), as TBX-Basic, CSV or XLSX.
 */

export const TXT_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 20 * 1024 * 1024;
export const TBX_MAX_BYTES = IMPORT_STREAMED_MAX_BYTES;
export const MAX_FILES = 5;

export interface TermRow {
  file: string;
  row: number;
  source: string;
  target: string;
  partOfSpeech?: string | null;
  note?: string | null;
  domain?: string | null;
  forbidden?: boolean;
}
export interface Rejection {
  file: string;
  row: number;
  reason: string;
}

type Say = (zh: string, en: string) => string;

async function readAll(path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of createReadStream(path)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** UTF-8 without a byte-order mark, or a 400 naming the file. */
export function utf8Text(bytes: Buffer, file: string, t: Say): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：文件带有 BOM，请保存为不带 BOM 的 UTF-8`, `${file}: the file starts with a byte-order mark; save it as UTF-8 without BOM`));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(Codes.BAD_REQUEST, t(`${file}：文件不是 UTF-8 编码`, `${file}: the file is not UTF-8 encoded`));
  }
}

function* txtRows(text: string, file: string, t: Say): Generator<TermRow | Rejection> {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const cells = line.split('\t');
    if (cells.length < 2) yield { file, row: i + 1, reason: t('没有制表符分隔原文和译文', 'no tab between the source and the translation') };
    else yield { file, row: i + 1, source: cells[0]!.trim(), target: cells[1]!.trim() };
  }
}

function csvRows(text: string, file: string, sourceLang: string, targetLang: string, t: Say): Array<TermRow | Rejection> {
  let reading;
  try {
    reading = readTermCsv(text, { sourceLanguage: sourceLang, targetLanguage: targetLang });
  } catch (err) {
    if (err instanceof TermCsvError) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：无法读取该 CSV 文件（${err.message}）`, `${file}: the CSV file cannot be read (${err.message})`));
    throw err;
  }
  const reasons: Record<string, [string, string]> = {
    emptySource: ['原文为空', 'the source is empty'],
    emptyTarget: ['译文为空', 'the translation is empty'],
    emptySourceAndTarget: ['原文和译文为空', 'the source and the translation are empty'],
  };
  const out: Array<TermRow | Rejection> = reading.rows.map((r) => ({ file, row: r.row, source: r.source, target: r.target, note: r.note || null, partOfSpeech: r.partOfSpeech || null, domain: r.domain || null, forbidden: !!r.forbidden }));
  for (const r of reading.rejected) {
    if (r.code === 'unclearForbidden') {
      out.push({ file, row: r.row, reason: unclearForbidden(r.value, t) });
      continue;
    }
    const known = reasons[r.code];
    out.push({ file, row: r.row, reason: known ? t(...known) : t(`格式错误（${r.reason}）`, r.reason) });
  }
  return out.sort((a, b) => a.row - b.row);
}

async function* tbxRows(bytes: AsyncIterable<Buffer>, file: string, sourceLang: string, targetLang: string, t: Say): AsyncGenerator<TermRow | Rejection> {
  let n = 0;
  try {
    for await (const concept of readTbx(bytes)) {
      n++;
      const s = concept.languages.find((l) => platformLanguage(l.lang) === sourceLang);
      const g = concept.languages.find((l) => platformLanguage(l.lang) === targetLang);
      if (!s || !g) {
        const missing = !s ? sourceLang : targetLang;
        yield { file, row: n, reason: t(`概念没有 ${missing} 的术语`, `the concept has no ${missing} term`) };
        continue;
      }
      for (const st of s.terms) {
        for (const gt of g.terms) {
          // A deprecated or superseded target term is a translation not to use.
          yield { file, row: n, source: st.term.trim(), target: gt.term.trim(), forbidden: gt.forbidden, partOfSpeech: st.partOfSpeech ?? gt.partOfSpeech ?? null, note: gt.note ?? st.note ?? concept.note ?? null, domain: concept.subjectField ?? null };
        }
      }
    }
  } catch (err) {
    if (err instanceof XmlError) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：不是有效的 TBX 文件（${err.message}）`, `${file}: not a valid TBX file (${err.message})`));
    throw err;
  }
}

/** A forbidden cell that is no clear yes or no: the row is reported with what it says, not guessed. */
const unclearForbidden = (value: string, t: Say) => t(`“禁用”列的值“${value}”无法识别（请填写 是/否、yes/no）`, `the forbidden column says "${value}", which is neither yes nor no (write yes or no)`);

/**
 * A spreadsheet's terms. A first row naming the columns (by role in English or Chinese, case and spacing
 * ignored, in any order, as the platform's export does: Source, Translation, Source language, Target
 * language, Part of speech, Note, Domain, Forbidden, Review state; or by language) says where each field
 * is, the same reading as a CSV's header (`termHeaderColumns`); other columns are skipped. Without one the
 * columns are in `TERM_POSITIONAL_COLUMNS` order: source, translation, part of speech, note, domain, forbidden.
 */
async function sheetRows(path: string, file: string, langs: { sourceLang: string; targetLang: string }, t: Say, limits: SpreadsheetLimits): Promise<Array<TermRow | Rejection>> {
  const rows = await readSpreadsheet(path, file, t, { columns: 12, limits });
  const out: Array<TermRow | Rejection> = [];
  let at: Partial<Record<string, number>> = Object.fromEntries(TERM_POSITIONAL_COLUMNS.map((f, i) => [f, i]));
  for (const [i, { row, cells }] of rows.entries()) {
    if (i === 0) {
      let named;
      try {
        named = termHeaderColumns(cells, { sourceLanguage: langs.sourceLang, targetLanguage: langs.targetLang });
      } catch (err) {
        if (err instanceof TermCsvError) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：无法识别表头（${err.message}）`, `${file}: the header row cannot be read (${err.message})`));
        throw err;
      }
      // A header row naming the columns is not a term.
      if (named) {
        at = named as unknown as Record<string, number>;
        continue;
      }
    }
    const cell = (f: string) => (at[f] === undefined ? '' : (cells[at[f]!] ?? '').trim());
    const forbidden = forbiddenValue(cell('forbidden'));
    if (forbidden === undefined) {
      out.push({ file, row, reason: unclearForbidden(cell('forbidden'), t) });
      continue;
    }
    out.push({ file, row, source: cell('source'), target: cell('target'), partOfSpeech: cell('partOfSpeech') || null, note: cell('note') || null, domain: cell('domain') || null, forbidden });
  }
  return out;
}

/** The same term: source and target equal once NFKC-folded, lower-cased and white space collapsed, in the same language pair. */
const termText = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const termKey = (source: string, target: string, sourceLang: string, targetLang: string) => [sourceLang.toLowerCase(), targetLang.toLowerCase(), termText(source), termText(target)].join('\u0000');
/** What the candidate query compares (the same expression as its SQL): ASCII white space removed, ASCII lower case. */
const coarseKey = (text: string) => text.replace(/[ \t\n\r\f\v]+/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Why a row cannot be a term (as the add form would say), or null. */
export function rejectionOf(r: TermRow, t: Say): string | null {
  if (!r.source) return t('原文为空', 'the source is empty');
  if (isOnlySpecialOrDigits(r.source)) return t('原文不能只包含特殊字符、数字或二者的组合', 'the source is only special characters, digits or a mix of the two');
  if (!r.target) return t('译文为空', 'the translation is empty');
  if (hasReservedMarker(r.target)) return t('译文包含保留标记', 'the translation contains a reserved marker');
  if (r.source.length > TERM_MAX_LENGTH || r.target.length > TERM_MAX_LENGTH) return t(`文本超过 ${TERM_MAX_LENGTH} 个字符`, `a text is longer than ${TERM_MAX_LENGTH} characters`);
  return null;
}

export function exchangeRoutes(ctx: ServerPluginContext, db: Kysely<TermDatabase>, access: LibraryAccess, keys: { import: string; export: string }, changed: (libraryId: number) => void) {
  const text = async (f: ImportSource, t: Say) => utf8Text(await readAll(f.path), f.file, t);
  void defineResourceImport<TermRow>({
    ctx,
    db,
    access,
    route: '/term/import',
    permission: keys.import,
    summary: 'Import TBX, CSV, TXT (tab-separated), XLS or XLSX files into a term base',
    task: 'import-terms',
    formats: {
      tbx: { maxBytes: TBX_MAX_BYTES, streamed: true },
      xml: { maxBytes: TBX_MAX_BYTES, streamed: true },
      txt: { maxBytes: TXT_MAX_BYTES },
      csv: { maxBytes: TXT_MAX_BYTES },
      xlsx: { maxBytes: FILE_MAX_BYTES },
      xls: { maxBytes: FILE_MAX_BYTES },
    },
    unsupported: (file, t) => t(`${file}：不支持的格式（可导入 TBX、CSV、TXT、XLS、XLSX）`, `${file}: not a supported format (TBX, CSV, TXT, XLS and XLSX can be imported)`),
    async *rows(f, langs, t) {
      if (f.ext === 'tbx' || f.ext === 'xml') yield* tbxRows(f.stream(), f.file, langs.sourceLang, langs.targetLang, t);
      else if (f.ext === 'txt') yield* txtRows(await text(f, t), f.file, t);
      else if (f.ext === 'csv') yield* csvRows(await text(f, t), f.file, langs.sourceLang, langs.targetLang, t);
      else yield* await sheetRows(f.path, f.file, langs, t, spreadsheetLimits(ctx.config));
    },
    reject: rejectionOf,
    async insert(trx, rows, to) {
      await (trx as Transaction<TermDatabase>)
        .insertInto('term_entries')
        .values(
          rows.map((r) => ({
            library_id: to.libraryId,
            source: r.source,
            target: r.target,
            source_lang: to.sourceLang,
            target_lang: to.targetLang,
            forbidden: !!r.forbidden,
            part_of_speech: r.partOfSpeech ?? null,
            note: r.note ?? null,
            domain: r.domain ?? null,
            creator_id: to.userId,
            created_at: to.stamp,
          })),
        )
        .execute();
    },
    duplicates: {
      key: (r, to) => termKey(r.source, r.target, to.sourceLang, to.targetLang),
      async stored(trx, rows, to) {
        // Candidates by a key SQL computes the same everywhere (white space out, ASCII lower case); the exact key is compared here.
        const coarse = [...new Set(rows.map((r) => coarseKey(r.source)))];
        const found = await (trx as Transaction<TermDatabase>)
          .selectFrom('term_entries')
          .select(['id', 'source', 'target'])
          .where('library_id', '=', to.libraryId)
          .where('source_lang', '=', to.sourceLang)
          .where('target_lang', '=', to.targetLang)
          .where(sql<string>`translate(regexp_replace(source, '[ \t\n\r\f\v]+', '', 'g'), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`, 'in', coarse)
          .execute();
        return found.map((e) => ({ id: e.id, key: termKey(e.source, e.target, to.sourceLang, to.targetLang) }));
      },
      async overwrite(trx, id, r) {
        // The imported term's fields replace the stored ones; it is reviewed again.
        await (trx as Transaction<TermDatabase>)
          .updateTable('term_entries')
          .set({ source: r.source, target: r.target, forbidden: !!r.forbidden, part_of_speech: r.partOfSpeech ?? null, note: r.note ?? null, domain: r.domain ?? null, status: 'unchecked', updated_at: new Date() })
          .where('id', '=', id)
          .execute();
      },
    },
    async discard(trx, to, limit) {
      const t = trx as Transaction<TermDatabase>;
      const ids = t.selectFrom('term_entries').select('id').where('library_id', '=', to.libraryId).where('creator_id', '=', to.userId).where('created_at', '=', to.stamp).limit(limit);
      const gone = await t.deleteFrom('term_entries').where('id', 'in', ids).executeTakeFirst();
      return Number(gone.numDeletedRows);
    },
    changed,
  });

  const selection = z.object({
    libraryId: idSchema,
    sourceLang: z.string().trim().max(20).optional(),
    targetLang: z.string().trim().max(20).optional(),
  });
  const counts = async (q: z.infer<typeof selection>) => {
    let base = db.selectFrom('term_entries').where('library_id', '=', q.libraryId);
    if (q.sourceLang) base = base.where('source_lang', '=', q.sourceLang);
    if (q.targetLang) base = base.where('target_lang', '=', q.targetLang);
    const rows = await base.select(['status', (eb) => eb.fn.countAll<string>().as('n')]).groupBy('status').execute();
    return { checked: Number(rows.find((r) => r.status === 'checked')?.n ?? 0), all: rows.reduce((sum, r) => sum + Number(r.n), 0) };
  };

  // The export dialog says what each scope holds before anything is downloaded.
  ctx.route({
    method: 'GET',
    url: '/term/export/count',
    access: { permission: keys.export },
    summary: 'How many entries of a term base an export holds, checked only and all',
    schema: { query: selection },
    response: { data: z.object({ checked: z.number().int(), all: z.number().int() }), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.assert(caller!, query.libraryId, 'use', headers);
      return counts(query);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/term/export',
    access: { permission: keys.export },
    summary: 'Export the entries of a term base (checked only, or all with their review state) as TBX-Basic (v2 or v3), CSV or XLSX',
    schema: {
      query: selection.extend({
        format: z.enum(['tbx', 'csv', 'xlsx']).default('tbx'),
        version: z.coerce.number().pipe(z.union([z.literal(2), z.literal(3)])).default(2),
        /** `checked` (the default, spec 02 section 4): reviewed entries only; `all`: every entry, its review state written beside it. */
        scope: z.enum(['checked', 'all']).default('checked'),
      }),
    },
    response: { envelope: false, contentType: 'application/x-tbx+xml', errors: [400, 404] },
    async handler({ query, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      await access.assert(caller!, query.libraryId, 'use', headers);
      // An empty file is refused with its reason, never downloaded silently.
      const n = await counts(query);
      if ((query.scope === 'checked' ? n.checked : n.all) === 0) {
        throw new ApiError(
          Codes.BAD_REQUEST,
          query.scope === 'checked' && n.all > 0
            ? t(`没有可导出的术语：该术语库的 ${n.all} 个术语都未审核通过（可选择导出全部术语及其审核状态）`, `Nothing to export: none of the term base's ${n.all} entries is checked (choose all entries to export them with their review state)`)
            : t('没有可导出的术语：该术语库（所选语言方向）是空的', 'Nothing to export: the term base holds no entries (in the chosen languages)'),
        );
      }
      const all = query.scope === 'all';
      const lib = await db.selectFrom('term_libraries').select('name').where('id', '=', query.libraryId).executeTakeFirstOrThrow();
      const safe = lib.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'terms';
      const attachment = (ext: string) => ({ 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(safe)}.${ext}` });
      let base = db.selectFrom('term_entries').where('library_id', '=', query.libraryId);
      if (!all) base = base.where('status', '=', 'checked');
      if (query.sourceLang) base = base.where('source_lang', '=', query.sourceLang);
      if (query.targetLang) base = base.where('target_lang', '=', query.targetLang);
      const checked = async function* () {
        let after = 0;
        for (;;) {
          const page = await base.selectAll().where('id', '>', after).orderBy('id').limit(1000).execute();
          if (!page.length) return;
          yield* page;
          after = page[page.length - 1]!.id;
        }
      };
      const directions = await base.select(['source_lang', 'target_lang']).groupBy(['source_lang', 'target_lang']).orderBy('source_lang').execute();

      if (query.format === 'csv') {
        // A CSV names one direction in its header.
        if (directions.length > 1) throw new ApiError(Codes.BAD_REQUEST, t('该术语库有多个语言方向，请选择要导出为 CSV 的源语言和目标语言', 'The term base holds several language directions: choose the source and target language to export as CSV'));
        // Every field of a term, so the file imports back to the same base (the review state stays out: an import is reviewed again).
        const rows: Array<{ source: string; target: string; note?: string; partOfSpeech?: string; domain?: string; forbidden?: boolean }> = [];
        for await (const e of checked()) rows.push({ source: e.source, target: e.target, ...(e.note ? { note: e.note } : {}), ...(e.part_of_speech ? { partOfSpeech: e.part_of_speech } : {}), ...(e.domain ? { domain: e.domain } : {}), ...(e.forbidden ? { forbidden: true } : {}) });
        const dir = directions[0] ?? { source_lang: query.sourceLang ?? 'source', target_lang: query.targetLang ?? 'target' };
        const body = Buffer.from(writeTermCsv(rows, { sourceLanguage: dir.source_lang, targetLanguage: dir.target_lang }), 'utf8');
        return { raw: true, contentType: 'text/csv; charset=utf-8', body, headers: attachment('csv') };
      }
      if (query.format === 'xlsx') {
        const rows: string[][] = [['Source', 'Translation', 'Source language', 'Target language', 'Part of speech', 'Note', 'Domain', 'Forbidden', ...(all ? ['Review state'] : [])]];
        for await (const e of checked()) rows.push([e.source, e.target, e.source_lang, e.target_lang, e.part_of_speech ?? '', e.note ?? '', e.domain ?? '', e.forbidden ? 'yes' : '', ...(all ? [e.status] : [])]);
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Terms');
        const body = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
        return { raw: true, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body, headers: attachment('xlsx') };
      }
      // A concept per entry: its source term, and its translation (deprecated when forbidden).
      const concepts = async function* (): AsyncGenerator<TbxConcept> {
        for await (const e of checked()) {
          yield {
            id: `t${e.id}`,
            ...(e.domain ? { subjectField: e.domain } : {}),
            // TBX-Basic has no review-state category: with every entry, the concept's note says it (as TMX's x-review-state).
            ...(all ? { note: `x-review-state: ${e.status}` } : {}),
            languages: [
              { lang: e.source_lang, terms: [{ term: e.source, forbidden: false, ...(e.part_of_speech ? { partOfSpeech: e.part_of_speech } : {}) }] },
              { lang: e.target_lang, terms: [{ term: e.target, forbidden: e.forbidden, ...(e.part_of_speech ? { partOfSpeech: e.part_of_speech } : {}), ...(e.note ? { note: e.note } : {}) }] },
            ],
          };
        }
      };
      return {
        raw: true,
        contentType: 'application/x-tbx+xml; charset=utf-8',
        body: Readable.from(writeTbx(concepts(), { version: query.version as 2 | 3, title: lib.name, sourceLanguage: directions[0]?.source_lang ?? 'en' })),
        headers: attachment('tbx'),
      };
    },
  });
}
