import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import * as XLSX from '@e965/xlsx';
import { ApiError, Codes, say, type ServerPluginContext } from '@linguaport/sdk/server';
import { hasReservedMarker, idSchema, isOnlySpecialOrDigits, type InlineTag } from '@linguaport/sdk/shared';
import { platformLanguage, readTmx, variantIn, writeTmx, XmlError, type TmxUnit } from '@linguaport/sdk/interchange';
import type { Libraries } from './libraries.js';
import { exactKey } from './match/text.js';
import type { TmDatabase } from './tables.js';

/**
 * Import and export of a memory's entries. In: TMX 1.4b (any tool's, levels 1 and 2), TXT with a tab
 * between source and translation, XLS and XLSX (source and translation in the first two columns).
 * TXT must be UTF-8 without a BOM (spec 02 section 5), at most 2 MB a file and 5 files a call
 * (section 9); TMX and spreadsheets up to 50 MB. Each row is checked as an added entry would be;
 * rejected rows are reported with their file, row number and reason, and the accepted ones land in
 * one transaction: a failed import leaves nothing behind. Out: the checked entries only (spec 02
 * section 4), as TMX 1.4b or XLSX, streamed.
 */

export const TXT_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 50 * 1024 * 1024;
export const MAX_FILES = 5;

const uploaded = z.object({ filename: z.string(), size: z.number(), path: z.string() });

interface Row {
  file: string;
  row: number;
  source: string;
  target: string;
  tags: Record<string, InlineTag>;
}
interface Rejection {
  file: string;
  row: number;
  reason: string;
}

type Say = (zh: string, en: string) => string;

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

async function* sheetRows(path: string, file: string, say: Say): AsyncGenerator<Row | Rejection> {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(await readAll(path), { type: 'buffer', dense: true });
  } catch {
    throw new ApiError(Codes.BAD_REQUEST, say(`${file}：无法读取该电子表格`, `${file}: the spreadsheet cannot be read`));
  }
  const sheet = book.Sheets[book.SheetNames[0]!];
  if (!sheet) return;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false, defval: '' });
  for (let i = 0; i < rows.length; i++) {
    const [a, b] = rows[i]!;
    const source = String(a ?? '').trim();
    const target = String(b ?? '').trim();
    // A header row naming the columns is not an entry.
    if (i === 0 && /^(source|原文|源文)/i.test(source) && /^(translation|target|译文|目标)/i.test(target)) continue;
    yield { file, row: i + 1, source, target, tags: {} };
  }
}

async function* tmxRows(path: string, file: string, sourceLang: string, targetLang: string, say: Say): AsyncGenerator<Row | Rejection> {
  let n = 0;
  try {
    for await (const unit of readTmx(createReadStream(path))) {
      n++;
      const s = variantIn(unit, sourceLang);
      const t = variantIn(unit, targetLang);
      if (!s || !t) {
        yield { file, row: n, reason: say(`翻译单元没有 ${sourceLang} 或 ${targetLang} 的文本`, `the unit has no ${!s ? sourceLang : targetLang} text`) };
        continue;
      }
      // The target's placeholders are numbered in its own segment: kept apart from the source's.
      const tags: Record<string, InlineTag> = {};
      for (const [k, v] of Object.entries(s.tags)) tags[`s${k}`] = v;
      for (const [k, v] of Object.entries(t.tags)) tags[`t${k}`] = v;
      yield { file, row: n, source: s.text, target: t.text, tags };
    }
  } catch (err) {
    if (err instanceof XmlError || (err as Error).name === 'TypeError') throw new ApiError(Codes.BAD_REQUEST, say(`${file}：不是有效的 TMX 文件（${(err as Error).message}）`, `${file}: not a valid TMX file (${(err as Error).message})`));
    throw err;
  }
}

function rejectionOf(r: Row, say: Say): string | null {
  if (!r.source) return say('原文为空', 'the source is empty');
  if (isOnlySpecialOrDigits(r.source)) return say('原文不能只包含特殊字符、数字或二者的组合', 'the source is only special characters, digits or a mix of the two');
  if (!r.target) return say('译文为空', 'the translation is empty');
  if (hasReservedMarker(r.target)) return say('译文包含保留标记', 'the translation contains a reserved marker');
  if (r.source.length > 10_000 || r.target.length > 10_000) return say('文本超过 10000 个字符', 'a text is longer than 10,000 characters');
  return null;
}

export function exchangeRoutes(ctx: ServerPluginContext, db: Kysely<TmDatabase>, libraries: Libraries, keys: { import: string; export: string }, changed: (libraryId: number) => void) {
  ctx.route({
    method: 'POST',
    url: '/TM/import',
    access: { permission: keys.import },
    summary: 'Import TMX, TXT (tab-separated), XLS or XLSX files into a memory',
    upload: { maxBytes: MAX_FILES * FILE_MAX_BYTES },
    schema: {
      body: z.object({
        libraryId: idSchema,
        sourceLang: z.string().trim().min(2, 'validation.required').max(20),
        targetLang: z.string().trim().min(2, 'validation.required').max(20),
        files: z.union([uploaded, z.array(uploaded)]).transform((f) => (Array.isArray(f) ? f : [f])),
      }),
    },
    response: { errors: [404, 413] },
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      await libraries.assert(caller!, body.libraryId, 'edit', headers);
      const sourceLang = platformLanguage(body.sourceLang);
      const targetLang = platformLanguage(body.targetLang);
      if (sourceLang === targetLang) throw new ApiError(Codes.BAD_REQUEST, t('源语言和目标语言不能相同', 'The source and target languages must differ'));
      if (body.files.length > MAX_FILES) throw new ApiError(Codes.BAD_REQUEST, t(`一次最多导入 ${MAX_FILES} 个文件`, `At most ${MAX_FILES} files at a time`));
      const accepted: Row[] = [];
      const rejected: Rejection[] = [];
      for (const f of body.files) {
        const ext = f.filename.toLowerCase().split('.').pop() ?? '';
        if (f.size === 0) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不能上传空文件`, `${f.filename}: cannot upload an empty file`));
        const limit = ext === 'txt' ? TXT_MAX_BYTES : FILE_MAX_BYTES;
        if (f.size > limit) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：文件超过 ${limit / 1024 / 1024} MB`, `${f.filename}: the file is over ${limit / 1024 / 1024} MB`));
        const rows =
          ext === 'tmx' ? tmxRows(f.path, f.filename, sourceLang, targetLang, t)
          : ext === 'txt' ? txtRows(f.path, f.filename, t)
          : ext === 'xlsx' || ext === 'xls' ? sheetRows(f.path, f.filename, t)
          : null;
        if (!rows) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不支持的格式（可导入 TMX、TXT、XLS、XLSX）`, `${f.filename}: not a supported format (TMX, TXT, XLS and XLSX can be imported)`));
        for await (const r of rows) {
          if ('reason' in r) rejected.push(r);
          else {
            const reason = rejectionOf(r, t);
            if (reason) rejected.push({ file: r.file, row: r.row, reason });
            else accepted.push(r);
          }
        }
      }
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < accepted.length; i += 1000) {
          await trx
            .insertInto('tm_entries')
            .values(
              accepted.slice(i, i + 1000).map((r) => ({
                library_id: body.libraryId,
                source: r.source,
                target: r.target,
                source_lang: sourceLang,
                target_lang: targetLang,
                source_hash: exactKey(r.source),
                tags: JSON.stringify(r.tags),
                creator_id: caller!.userId,
              })),
            )
            .execute();
        }
      });
      if (accepted.length) changed(body.libraryId);
      return { imported: accepted.length, rejected: rejected.length, rejections: rejected.slice(0, 1000) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/TM/export',
    access: { permission: keys.export },
    summary: 'Export the checked entries of a memory as TMX or XLSX',
    schema: { query: z.object({ libraryId: idSchema, format: z.enum(['tmx', 'xlsx']).default('tmx') }) },
    response: { envelope: false, contentType: 'application/x-tmx+xml', errors: [404] },
    async handler({ query, caller, headers }) {
      await libraries.assert(caller!, query.libraryId, 'use', headers);
      const lib = await db.selectFrom('tm_libraries').select('name').where('id', '=', query.libraryId).executeTakeFirstOrThrow();
      const safe = lib.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'memory';
      const checked = async function* () {
        let after = 0;
        for (;;) {
          const page = await db.selectFrom('tm_entries').selectAll().where('library_id', '=', query.libraryId).where('status', '=', 'checked').where('id', '>', after).orderBy('id').limit(1000).execute();
          if (!page.length) return;
          yield* page;
          after = page[page.length - 1]!.id;
        }
      };
      if (query.format === 'xlsx') {
        const rows: string[][] = [['Source', 'Translation', 'Source language', 'Target language']];
        for await (const e of checked()) rows.push([e.source, e.target, e.source_lang, e.target_lang]);
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Memory');
        const body = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
        return { raw: true, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body, headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(safe)}.xlsx` } };
      }
      let srclang = 'en';
      const units = async function* (): AsyncGenerator<TmxUnit> {
        for await (const e of checked()) {
          const tags = (e.tags ?? {}) as Record<string, InlineTag>;
          const side = (prefix: string) => Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(1), v]));
          srclang = e.source_lang;
          yield { tuid: String(e.id), variants: [{ lang: e.source_lang, text: e.source, tags: side('s') }, { lang: e.target_lang, text: e.target, tags: side('t') }], props: [], notes: [] };
        }
      };
      const first = await db.selectFrom('tm_entries').select('source_lang').where('library_id', '=', query.libraryId).where('status', '=', 'checked').limit(1).executeTakeFirst();
      srclang = first?.source_lang ?? srclang;
      return {
        raw: true,
        contentType: 'application/x-tmx+xml; charset=utf-8',
        body: Readable.from(writeTmx(units(), { srclang })),
        headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(safe)}.tmx` },
      };
    },
  });
}
