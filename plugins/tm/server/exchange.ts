import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { sql, type Kysely, type Transaction } from 'kysely';
import * as XLSX from '@e965/xlsx';
import { ApiError, Codes, say, type ServerPluginContext } from '@linguaport/sdk/server';
import { hasReservedMarker, idSchema, isOnlySpecialOrDigits, languageBase, variantMatch, type InlineTag } from '@linguaport/sdk/shared';
import { readTmx, TmxDatatype, tmxProblemReason, variantsFor, writeTmx, type TmxHeader, type TmxUnit, type TmxVariant } from '@linguaport/interchange';
import { writeXliff, XmlError } from '@linguaport/sdk/interchange';
import { BILINGUAL_FORMATS, defineResourceImport, IMPORT_STREAMED_MAX_BYTES, spreadsheetLimits, spreadsheetPairs, type ImportRejection, type SpreadsheetLimits } from '@linguaport/sdk/resources';
import type { Libraries } from './libraries.js';
import { exactKey, normalise } from './match/text.js';
import { metaOf, unitOf, type EntryMeta } from './metadata.js';
import type { TmDatabase } from './tables.js';
import { bilingualMemoryRows, xliffUnitOf } from './xliff.js';

/**
 * Import and export of a memory's entries. In: TMX 1.4b (any tool's, levels 1 and 2), TXT with a tab
 * between source and translation, XLS and XLSX (source and translation in the first two columns).
 * TXT must be UTF-8 without a BOM (spec 02 section 5), at most 2 MB a file and 5 files a call
 * (section 9); spreadsheets up to 50 MB, TMX up to 1 GB (over 2 MB it is imported by a task: see
 * `defineResourceImport`). Each row is checked as an added entry would be; rejected rows are reported
 * with their file, row (a TMX's unit) number and reason, and the accepted ones land in batches:
 * a failed import takes them out again. Spreadsheets within `spreadsheetLimits` (area config). Out: the checked entries only (spec 02
 * section 4) or, by choice, all with their review state, as TMX 1.4b or XLSX, streamed; an empty export is refused.
 */

export const TXT_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 50 * 1024 * 1024;
export const TMX_MAX_BYTES = IMPORT_STREAMED_MAX_BYTES;
export const MAX_FILES = 5;

interface Row {
  file: string;
  row: number;
  source: string;
  target: string;
  tags: Record<string, InlineTag>;
  /** The unit's own language tags (a TMX's variants); the import's when absent (TXT, spreadsheets). */
  sourceLang?: string;
  targetLang?: string;
  notice?: string;
  /** A TMX unit's tuid, dates, usage, props and notes (`metadata.ts`). */
  meta?: EntryMeta;
  /** The TMX header's datatype and o-tmf, kept on the memory. */
  header?: MemoryTmxHeader;
}
type Rejection = ImportRejection;

type Say = (zh: string, en: string) => string;

/** What a memory keeps of the last TMX header imported into it, and writes back on export. */
export interface MemoryTmxHeader {
  datatype?: string;
  otmf?: string;
}

async function* txtRows(path: string, file: string, say: Say): AsyncGenerator<Row | Rejection> {
  const bytes = await readAll(path);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new ApiError(Codes.BAD_REQUEST, say(`${file}：文件带有 BOM，请保存为不带 BOM 的 UTF-8`, `${file}: the file starts with a byte-order mark; save it as UTF-8 without BOM`));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(Codes.BAD_REQUEST, say(`${file}：文件不是 UTF-8 编码`, `${file}: the file is not UTF-8 encoded`));
  }
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const tab = line.indexOf('\t');
    if (tab === -1) yield { file, row: i + 1, reason: say('没有制表符分隔原文和译文', 'no tab between the source and the translation') };
    else yield { file, row: i + 1, source: line.slice(0, tab).trim(), target: line.slice(tab + 1).trim(), tags: {} };
  }
}

async function readAll(path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of createReadStream(path)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function* sheetRows(path: string, file: string, say: Say, limits: SpreadsheetLimits): AsyncGenerator<Row | Rejection> {
  for (const r of await spreadsheetPairs(path, file, say, limits)) yield { file, ...r, tags: {} };
}

/**
 * A unit's rows for the languages asked. Each side takes the exact tag, else the language's generic tag,
 * else (said in the report for that unit) another variant of the language (`variantsFor`); every target
 * variant so chosen becomes its own entry (a unit with two fr-CA translations gives two, as OmegaT reads
 * it), each entry with the tags of the variants it came from. `srclang` (`*all*` included) is not needed:
 * the languages asked say which side is which.
 */
async function* tmxRows(bytes: AsyncIterable<Buffer>, file: string, sourceLang: string, targetLang: string, say: Say): AsyncGenerator<Row | Rejection> {
  let n = 0;
  const tagOf = (v: TmxVariant) => v.tag ?? v.lang;
  let header: MemoryTmxHeader | undefined;
  const onHeader = (h: TmxHeader) => {
    const kept: MemoryTmxHeader = {};
    if (h.attrs.datatype) kept.datatype = h.attrs.datatype;
    if (h.attrs['o-tmf']) kept.otmf = h.attrs['o-tmf'];
    if (Object.keys(kept).length) header = kept;
  };
  // A broken bpt/ept pairing refuses the side's unit with the reason (the other units go on).
  const broken = (v: TmxVariant) => {
    const r = tmxProblemReason(v.problem!);
    return say(`${r['zh-CN']}（${tagOf(v)}）`, `${r['en-US']} (${tagOf(v)})`);
  };
  try {
    for await (const unit of readTmx(bytes, onHeader)) {
      n++;
      const s = variantsFor(unit, sourceLang);
      // Two variants of one language (en-US to en-GB): the source is never taken as its own translation.
      const source = s && (s.variants.find((v) => variantMatch(targetLang, tagOf(v)) !== 'exact') ?? s.variants[0]!);
      const t = source ? variantsFor({ ...unit, variants: unit.variants.filter((v) => v !== source) }, targetLang) : null;
      if (!s || !source || !t) {
        const missing = !s ? sourceLang : targetLang;
        yield { file, row: n, reason: say(`翻译单元没有 ${missing} 的文本`, `the unit has no ${missing} text`) };
        continue;
      }
      // Another variant is taken only when the language asked has neither the tag nor its generic tag: said per unit.
      const taken: Array<[string, string]> = [];
      if (s.match === 'variant') taken.push([sourceLang, tagOf(source)]);
      if (t.match === 'variant') taken.push([targetLang, [...new Set(t.variants.map(tagOf))].join(', ')]);
      const notice = taken.length ? say(taken.map(([w, u]) => `没有 ${w} 的文本，改用 ${u}`).join('；'), taken.map(([w, u]) => `no ${w} text: ${u} used`).join('; ')) : undefined;
      if (source.problem) {
        yield { file, row: n, reason: broken(source) };
        continue;
      }
      for (const target of t.variants) {
        if (target.problem) {
          yield { file, row: n, reason: broken(target) };
          continue;
        }
        // The target's placeholders are numbered in its own segment: kept apart from the source's.
        const tags: Record<string, InlineTag> = {};
        for (const [k, v] of Object.entries(source.tags)) tags[`s${k}`] = v;
        for (const [k, v] of Object.entries(target.tags)) tags[`t${k}`] = v;
        const meta = metaOf(unit, source, target);
        yield { file, row: n, source: source.text, target: target.text, tags, sourceLang: tagOf(source), targetLang: tagOf(target), ...(notice ? { notice } : {}), ...(Object.keys(meta).length ? { meta } : {}), ...(header ? { header } : {}) };
      }
    }
  } catch (err) {
    if (err instanceof XmlError || (err as Error).name === 'TypeError') throw new ApiError(Codes.BAD_REQUEST, say(`${file}：不是有效的 TMX 文件（${(err as Error).message}）`, `${file}: not a valid TMX file (${(err as Error).message})`));
    throw err;
  }
}

const memoryKey = (source: string, target: string, sourceLang: string, targetLang: string) => [sourceLang.toLowerCase(), targetLang.toLowerCase(), normalise(source), normalise(target)].join('\u0000');

function rejectionOf(r: Row, say: Say): string | null {
  if (!r.source) return say('原文为空', 'the source is empty');
  if (isOnlySpecialOrDigits(r.source)) return say('原文不能只包含特殊字符、数字或二者的组合', 'the source is only special characters, digits or a mix of the two');
  if (!r.target) return say('译文为空', 'the translation is empty');
  if (hasReservedMarker(r.target)) return say('译文包含保留标记', 'the translation contains a reserved marker');
  if (r.source.length > 10_000 || r.target.length > 10_000) return say('文本超过 10000 个字符', 'a text is longer than 10,000 characters');
  return null;
}

export function exchangeRoutes(ctx: ServerPluginContext, db: Kysely<TmDatabase>, libraries: Libraries, keys: { import: string; export: string }, changed: (libraryId: number) => void) {
  void defineResourceImport<Row>({
    ctx,
    db,
    access: libraries,
    route: '/TM/import',
    permission: keys.import,
    summary: 'Import TMX, XLIFF (1.2, 2.x), PO, TXT (tab-separated), XLS or XLSX files into a memory',
    task: 'import-memory',
    languages: 'tags',
    formats: { tmx: { maxBytes: TMX_MAX_BYTES, streamed: true }, txt: { maxBytes: TXT_MAX_BYTES }, xlsx: { maxBytes: FILE_MAX_BYTES }, xls: { maxBytes: FILE_MAX_BYTES }, xlf: { maxBytes: FILE_MAX_BYTES }, xliff: { maxBytes: FILE_MAX_BYTES }, po: { maxBytes: FILE_MAX_BYTES } },
    unsupported: (file, t) => t(`${file}：不支持的格式（可导入 TMX、XLIFF、PO、TXT、XLS、XLSX）`, `${file}: not a supported format (TMX, XLIFF, PO, TXT, XLS and XLSX can be imported)`),
    rows: (f, langs, t) => (BILINGUAL_FORMATS[f.ext] ? bilingualMemoryRows(ctx, f.path, f.file, f.ext, langs, t) : f.ext === 'tmx' ? tmxRows(f.stream(), f.file, langs.sourceLang, langs.targetLang, t) : f.ext === 'txt' ? txtRows(f.path, f.file, t) : sheetRows(f.path, f.file, t, spreadsheetLimits(ctx.config))),
    reject: rejectionOf,
    async insert(trx, rows, to) {
      await (trx as Transaction<TmDatabase>)
        .insertInto('tm_entries')
        .values(
          rows.map((r) => ({
            library_id: to.libraryId,
            source: r.source,
            target: r.target,
            source_lang: r.sourceLang ?? to.sourceLang,
            target_lang: r.targetLang ?? to.targetLang,
            source_base: languageBase(r.sourceLang ?? to.sourceLang),
            target_base: languageBase(r.targetLang ?? to.targetLang),
            source_hash: exactKey(r.source),
            tags: JSON.stringify(r.tags),
            ...(r.meta ? { meta: JSON.stringify(r.meta) } : {}),
            creator_id: to.userId,
            created_at: to.stamp,
          })),
        )
        .execute();
      // The file's header (its datatype and o-tmf) is the memory's from now on: written back on export.
      const header = rows.findLast((r) => r.header)?.header;
      if (header) await (trx as Transaction<TmDatabase>).updateTable('tm_libraries').set({ tmx_header: JSON.stringify(header) }).where('id', '=', to.libraryId).execute();
    },
    // The same entry: the exact tier's normalised texts (`normalise`) in the same language pair (the tags, case folded).
    duplicates: {
      key: (r, to) => memoryKey(r.source, r.target, r.sourceLang ?? to.sourceLang, r.targetLang ?? to.targetLang),
      async stored(trx, rows, to) {
        const hashes = [...new Set(rows.map((r) => exactKey(r.source)))];
        const found = await (trx as Transaction<TmDatabase>).selectFrom('tm_entries').select(['id', 'source', 'target', 'source_lang', 'target_lang']).where('library_id', '=', to.libraryId).where('source_hash', 'in', hashes).execute();
        return found.map((e) => ({ id: e.id, key: memoryKey(e.source, e.target, e.source_lang, e.target_lang) }));
      },
      async overwrite(trx, id, r) {
        // The imported unit's texts, tags and metadata replace the stored ones; it is reviewed again.
        await (trx as Transaction<TmDatabase>)
          .updateTable('tm_entries')
          .set({ source: r.source, target: r.target, source_hash: exactKey(r.source), tags: JSON.stringify(r.tags), meta: JSON.stringify(r.meta ?? {}), status: 'unchecked', updated_at: new Date() })
          .where('id', '=', id)
          .execute();
      },
    },
    async discard(trx, to, limit) {
      const t = trx as Transaction<TmDatabase>;
      const ids = t.selectFrom('tm_entries').select('id').where('library_id', '=', to.libraryId).where('creator_id', '=', to.userId).where('created_at', '=', to.stamp).limit(limit);
      const gone = await t.deleteFrom('tm_entries').where('id', 'in', ids).executeTakeFirst();
      return Number(gone.numDeletedRows);
    },
    changed,
  });

  const exportQuery = z.object({
    libraryId: idSchema,
    /** `checked` (the default, spec 02 section 4): reviewed entries only; `all`: every entry, its review state written beside it. */
    scope: z.enum(['checked', 'all']).default('checked'),
  });
  const entriesOf = (libraryId: number, scope: 'checked' | 'all') => {
    const q = db.selectFrom('tm_entries').where('library_id', '=', libraryId);
    return scope === 'checked' ? q.where('status', '=', 'checked') : q;
  };
  /**
   * The header's datatype: the memory's kept one (its TMX file's), unless it says `plaintext` (or there is
   * none) while segments carry codes: then what the codes are (`html`, `rtf`, `xml`, `unknown` when mixed).
   * Read before the file is written, from the tags of the entries exported.
   */
  const honestDatatype = async (libraryId: number, scope: 'checked' | 'all', kept: string | undefined) => {
    const seen = new TmxDatatype();
    let after = 0;
    for (;;) {
      const page = await entriesOf(libraryId, scope).select(['id', 'tags']).where('id', '>', after).where(sql<boolean>`tags <> '{}'::jsonb`).orderBy('id').limit(1000).execute();
      if (!page.length) break;
      for (const r of page) seen.add(r.tags as Record<string, InlineTag>);
      after = page[page.length - 1]!.id;
      if (seen.value === 'unknown') break;
    }
    if (!seen.codes) return kept ?? 'plaintext';
    return kept && kept !== 'plaintext' ? kept : seen.value;
  };
  const counts = async (libraryId: number) => {
    const rows = await db.selectFrom('tm_entries').select(['status', (eb) => eb.fn.countAll<string>().as('n')]).where('library_id', '=', libraryId).groupBy('status').execute();
    const checked = Number(rows.find((r) => r.status === 'checked')?.n ?? 0);
    return { checked, all: rows.reduce((sum, r) => sum + Number(r.n), 0) };
  };

  // The export dialog says what each scope holds before anything is downloaded.
  ctx.route({
    method: 'GET',
    url: '/TM/export/count',
    access: { permission: keys.export },
    summary: 'How many entries of a memory an export holds, checked only and all',
    schema: { query: z.object({ libraryId: idSchema }) },
    response: { data: z.object({ checked: z.number().int(), all: z.number().int() }), errors: [404] },
    async handler({ query, caller, headers }) {
      await libraries.assert(caller!, query.libraryId, 'use', headers);
      return counts(query.libraryId);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/TM/export',
    access: { permission: keys.export },
    summary: 'Export the entries of a memory (checked only, or all with their review state) as TMX, XLIFF 1.2, XLIFF 2.1 or XLSX',
    schema: { query: exportQuery.extend({ format: z.enum(['tmx', 'xlsx', 'xliff12', 'xliff21']).default('tmx') }) },
    response: { envelope: false, contentType: 'application/x-tmx+xml', errors: [400, 404] },
    async handler({ query, caller, headers }) {
      await libraries.assert(caller!, query.libraryId, 'use', headers);
      // An empty file is refused with its reason, never downloaded silently.
      const n = await counts(query.libraryId);
      if ((query.scope === 'checked' ? n.checked : n.all) === 0) {
        throw new ApiError(
          Codes.BAD_REQUEST,
          query.scope === 'checked' && n.all > 0
            ? say(headers, `没有可导出的条目：该记忆库的 ${n.all} 个条目都未审核通过（可选择导出全部条目及其审核状态）`, `Nothing to export: none of the memory's ${n.all} entries is checked (choose all entries to export them with their review state)`)
            : say(headers, '没有可导出的条目：该记忆库是空的', 'Nothing to export: the memory holds no entries'),
        );
      }
      const lib = await db.selectFrom('tm_libraries').select('name').where('id', '=', query.libraryId).executeTakeFirstOrThrow();
      const safe = lib.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'memory';
      const all = query.scope === 'all';
      const checked = async function* () {
        let after = 0;
        for (;;) {
          const page = await entriesOf(query.libraryId, query.scope).selectAll().where('id', '>', after).orderBy('id').limit(1000).execute();
          if (!page.length) return;
          yield* page;
          after = page[page.length - 1]!.id;
        }
      };
      if (query.format === 'xlsx') {
        const rows: string[][] = [['Source', 'Translation', 'Source language', 'Target language', ...(all ? ['Review state'] : [])]];
        for await (const e of checked()) rows.push([e.source, e.target, e.source_lang, e.target_lang, ...(all ? [e.status] : [])]);
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Memory');
        const body = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
        return { raw: true, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body, headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(safe)}.xlsx` } };
      }
      if (query.format === 'xliff12' || query.format === 'xliff21') {
        // One language pair per file: the memory's, as its first entry has it (TMX's srclang likewise).
        const first = await entriesOf(query.libraryId, query.scope).select(['source_lang', 'target_lang']).orderBy('id').limit(1).executeTakeFirstOrThrow();
        const units = async function* () {
          for await (const e of checked()) yield xliffUnitOf(e, (e.tags ?? {}) as Record<string, InlineTag>);
        };
        const version = query.format === 'xliff21' ? '2.1' : '1.2';
        return {
          raw: true,
          contentType: 'application/xliff+xml; charset=utf-8',
          body: Readable.from(writeXliff(units(), { version, sourceLanguage: first.source_lang, targetLanguage: first.target_lang, original: lib.name })),
          headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(safe)}${version === '2.1' ? '.xliff2' : ''}.xlf` },
        };
      }
      let srclang = 'en';
      const sideTags = (tags: Record<string, InlineTag>, prefix: string) => Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(1), v]));
      const units = async function* (): AsyncGenerator<TmxUnit> {
        for await (const e of checked()) {
          const tags = (e.tags ?? {}) as Record<string, InlineTag>;
          // Each unit keeps its file's tuid, dates, usage, props and notes; with every entry it says its review state (x-review-state).
          yield unitOf(e, { source: sideTags(tags, 's'), target: sideTags(tags, 't') }, all);
        }
      };
      const first = await entriesOf(query.libraryId, query.scope).select('source_lang').limit(1).executeTakeFirst();
      srclang = first?.source_lang ?? srclang;
      const kept = ((await db.selectFrom('tm_libraries').select('tmx_header').where('id', '=', query.libraryId).executeTakeFirst())?.tmx_header ?? {}) as MemoryTmxHeader;
      return {
        raw: true,
        contentType: 'application/x-tmx+xml; charset=utf-8',
        body: Readable.from(writeTmx(units(), { srclang, datatype: await honestDatatype(query.libraryId, query.scope, kept.datatype), ...(kept.otmf ? { otmf: kept.otmf } : {}) })),
        headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(safe)}.tmx` },
      };
    },
  });
}
