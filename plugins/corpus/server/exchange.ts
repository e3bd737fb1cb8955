import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Kysely, Transaction } from 'kysely';
import { BILINGUAL_FORMATS, bilingualRows, commitInBatches, removeInBatches, spreadsheetLimits, spreadsheetPairs, yieldToEventLoop, type SpreadsheetLimits } from '@linguaport/sdk/resources';
import { ApiError, Codes, say, type ServerPluginContext, uploadedFilesSchema, type UploadedFile } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { readTmx, variantIn, writeTmx, type TmxUnit } from '@linguaport/interchange';
import { XmlError } from '@linguaport/sdk/interchange';
import { KEYS, type CorpusAccess } from './corpora.js';
import type { CorpusDatabase } from './tables.js';

/**
 * Import and export of a corpus's pairs (spec 02 section 9: 20 MB a file, at most 5 files a call).
 * In: TMX, XLIFF (1.2, 2.x) and PO (read by the format registry's readers), TXT with a tab between source and target, XLSX (first two columns), or two monolingual TXT
 * files aligned line by line (`mode=parallel`: the first file the source language, the second the
 * target). Text files must be UTF-8 without a BOM. Rejected rows are reported (file, row, reason) and
 * the accepted ones land in batches (`appendPairs`). Out: TMX 1.4b or tab-separated TXT, streamed.
 */

export const FILE_MAX_BYTES = 20 * 1024 * 1024;
export const MAX_FILES = 5;
export const TEXT_MAX_CHARS = 10_000;

export type Uploaded = UploadedFile;

export interface Row {
  file: string;
  row: number;
  source: string;
  target: string;
}
export interface Rejection {
  file: string;
  row: number;
  reason: string;
}
type Say = (zh: string, en: string) => string;

/** The file's text, refused when it starts with a BOM or is not UTF-8. */
export async function utf8Text(path: string, file: string, t: Say): Promise<string> {
  const bytes = await readFile(path);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：文件带有 BOM，请保存为不带 BOM 的 UTF-8`, `${file}: the file starts with a byte-order mark (BOM); save it as UTF-8 without BOM`));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(Codes.BAD_REQUEST, t(`${file}：文件不是有效的 UTF-8 编码`, `${file}: the file is not valid UTF-8`));
  }
}

/** Lines of a text file; one final line break does not make an extra empty line. */
export const linesOf = (text: string) => {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

async function* txtRows(f: Uploaded, t: Say): AsyncGenerator<Row | Rejection> {
  const lines = linesOf(await utf8Text(f.path, f.filename, t));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    const tab = line.indexOf('\t');
    if (tab === -1) yield { file: f.filename, row: i + 1, reason: t('没有制表符分隔原文和译文', 'no tab between the source and the target') };
    else yield { file: f.filename, row: i + 1, source: line.slice(0, tab).trim(), target: line.slice(tab + 1).trim() };
  }
}

async function* sheetRows(f: Uploaded, t: Say, limits: SpreadsheetLimits): AsyncGenerator<Row | Rejection> {
  for (const r of await spreadsheetPairs(f.path, f.filename, t, limits)) yield { file: f.filename, ...r };
}

async function* tmxRows(f: Uploaded, sourceLang: string, targetLang: string, t: Say): AsyncGenerator<Row | Rejection> {
  // Checked for BOM and encoding like the other text files; the XML is then read as it streams.
  const text = await utf8Text(f.path, f.filename, t);
  let n = 0;
  try {
    for await (const unit of readTmx(inPieces(text))) {
      n++;
      const s = variantIn(unit, sourceLang);
      const tv = variantIn(unit, targetLang);
      if (!s || !tv) {
        yield { file: f.filename, row: n, reason: t(`翻译单元没有 ${!s ? sourceLang : targetLang} 的文本`, `the unit has no ${!s ? sourceLang : targetLang} text`) };
        continue;
      }
      yield { file: f.filename, row: n, source: s.text.trim(), target: tv.text.trim() };
    }
  } catch (err) {
    if (err instanceof XmlError || (err as Error).name === 'TypeError') throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不是有效的 TMX 文件（${(err as Error).message}）`, `${f.filename}: not a valid TMX file (${(err as Error).message})`));
    throw err;
  }
}

/** The pairs of an XLIFF or PO file (the format registry's readers, by the SDK): texts as a TMX's are kept, placeholders and all. */
async function* pairsOf(rows: AsyncIterable<Row & { tags?: unknown } | Rejection>): AsyncGenerator<Row | Rejection> {
  for await (const r of rows) yield 'reason' in r ? r : { file: r.file, row: r.row, source: r.source, target: r.target };
}

/** A text handed to a streaming reader in pieces, with a turn of the event loop between them. */
async function* inPieces(text: string, size = 256 * 1024): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) {
    yield text.slice(i, i + size);
    await yieldToEventLoop();
  }
}

/** Two monolingual files, line i of one the translation of line i of the other. */
export async function* parallelRows(source: Uploaded, target: Uploaded, t: Say): AsyncGenerator<Row | Rejection> {
  for (const f of [source, target]) if (!f.filename.toLowerCase().endsWith('.txt')) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：对齐的单语文件必须是 TXT`, `${f.filename}: aligned monolingual files must be TXT`));
  const a = linesOf(await utf8Text(source.path, source.filename, t));
  const b = linesOf(await utf8Text(target.path, target.filename, t));
  if (a.length !== b.length) {
    throw new ApiError(
      Codes.BAD_REQUEST,
      t(
        `${source.filename} 有 ${a.length} 行，${target.filename} 有 ${b.length} 行：行数不同，无法逐行配对。请改用“句子对齐”。`,
        `${source.filename} has ${a.length} lines and ${target.filename} has ${b.length}: the line counts differ, so the lines cannot be paired one by one. Use sentence alignment instead.`,
      ),
    );
  }
  const name = `${source.filename} + ${target.filename}`;
  for (let i = 0; i < a.length; i++) {
    const s = a[i]!.trim();
    const tt = b[i]!.trim();
    if (!s && !tt) continue;
    yield { file: name, row: i + 1, source: s, target: tt };
  }
}

export function rejectionOf(r: Row, t: Say): string | null {
  if (!r.source) return t('原文为空', 'the source is empty');
  if (!r.target) return t('译文为空', 'the target is empty');
  if (r.source.length > TEXT_MAX_CHARS || r.target.length > TEXT_MAX_CHARS) return t('文本超过 10000 个字符', 'a text is longer than 10,000 characters');
  return null;
}

/**
 * Appends pairs after the corpus's last position and updates its count. Committed in small batches with
 * a turn of the event loop between them (one transaction of a large import held the embedded database,
 * and every request with it); each batch takes the corpus's row lock, so positions stay unique. A
 * failure takes out the pairs already written: the corpus is left as it was.
 */
export async function appendPairs(db: Kysely<CorpusDatabase>, access: CorpusAccess, corpusId: number, pairs: Array<{ source: string; target: string }>) {
  const ids: number[] = [];
  try {
    await commitInBatches(db, pairs, async (trx: Transaction<CorpusDatabase>, batch) => {
      await trx.selectFrom('corpus_corpora').select('id').where('id', '=', corpusId).forUpdate().execute();
      const last = await trx.selectFrom('corpus_pairs').select((eb) => eb.fn.max<number>('position').as('p')).where('corpus_id', '=', corpusId).executeTakeFirst();
      let position = Number(last?.p ?? 0);
      const rows = await trx.insertInto('corpus_pairs').values(batch.map((p) => ({ corpus_id: corpusId, source: p.source, target: p.target, position: ++position }))).returning('id').execute();
      for (const r of rows) ids.push(r.id);
    });
  } catch (err) {
    await removeInBatches(db, async (trx, limit) => {
      const some = ids.splice(0, limit);
      if (some.length) await trx.deleteFrom('corpus_pairs').where('id', 'in', some).execute();
      return some.length;
    }).catch(() => undefined);
    throw err;
  } finally {
    await access.recount(corpusId);
  }
}

export function exchangeRoutes(ctx: ServerPluginContext, db: Kysely<CorpusDatabase>, access: CorpusAccess) {
  ctx.route({
    method: 'POST',
    url: '/corpus/import',
    access: { permission: KEYS.edit },
    summary: 'Import TMX, XLIFF (1.2, 2.x), PO, TXT (tab-separated), XLSX, or two line-aligned monolingual TXT files into a corpus',
    upload: { maxBytes: MAX_FILES * FILE_MAX_BYTES + 1024 * 1024 },
    schema: {
      body: z.object({
        corpusId: idSchema,
        mode: z.enum(['bilingual', 'parallel']).default('bilingual'),
        files: uploadedFilesSchema,
      }),
    },
    response: {
      data: z.object({ imported: z.number().int(), rejected: z.number().int(), rejections: z.array(z.object({ file: z.string(), row: z.number().int(), reason: z.string() })).describe('The first 1,000 rejected rows') }),
      errors: [404, 413],
    },
    async handler({ body, caller, headers }) {
      const t: Say = (zh, en) => say(headers, zh, en);
      const corpus = await access.get(caller!, body.corpusId, headers);
      if (body.files.length > MAX_FILES) throw new ApiError(Codes.BAD_REQUEST, t(`一次最多导入 ${MAX_FILES} 个文件`, `At most ${MAX_FILES} files at a time`));
      for (const f of body.files) {
        if (f.size === 0) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不能上传空文件`, `${f.filename}: cannot upload an empty file`));
        if (f.size > FILE_MAX_BYTES) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：文件超过 20 MB`, `${f.filename}: the file is over 20 MB`));
      }
      const sources: AsyncGenerator<Row | Rejection>[] = [];
      if (body.mode === 'parallel') {
        if (body.files.length !== 2) throw new ApiError(Codes.BAD_REQUEST, t('逐行对齐导入需要两个 TXT 文件：先原文，后译文', 'A line-aligned import takes two TXT files: the source first, then the target'));
        sources.push(parallelRows(body.files[0]!, body.files[1]!, t));
      } else {
        for (const f of body.files) {
          const ext = f.filename.toLowerCase().split('.').pop() ?? '';
          const rows =
            ext === 'tmx' ? tmxRows(f, corpus.source_lang, corpus.target_lang, t)
            : ext === 'txt' ? txtRows(f, t)
            : ext === 'xlsx' ? sheetRows(f, t, spreadsheetLimits(ctx.config))
            : BILINGUAL_FORMATS[ext] ? pairsOf(bilingualRows(ctx.formats, f.path, f.filename, ext, { sourceLang: corpus.source_lang, targetLang: corpus.target_lang }, t))
            : null;
          if (!rows) throw new ApiError(Codes.BAD_REQUEST, t(`${f.filename}：不支持的格式（可导入 TMX、XLIFF、PO、TXT、XLSX）`, `${f.filename}: not a supported format (TMX, XLIFF, PO, TXT and XLSX can be imported)`));
          sources.push(rows);
        }
      }
      const accepted: Row[] = [];
      const rejected: Rejection[] = [];
      // Every file is read before anything is written: a refused file leaves the corpus as it was.
      let read = 0;
      for (const rows of sources) {
        for await (const r of rows) {
          // Rows read from memory would otherwise hold the event loop for a whole 20 MB file.
          if (++read % 1000 === 0) await yieldToEventLoop();
          if ('reason' in r) rejected.push(r);
          else {
            const reason = rejectionOf(r, t);
            if (reason) rejected.push({ file: r.file, row: r.row, reason });
            else accepted.push(r);
          }
        }
      }
      await appendPairs(db, access, corpus.id, accepted);
      return { imported: accepted.length, rejected: rejected.length, rejections: rejected.slice(0, 1000) };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/corpus/export',
    access: { permission: KEYS.view },
    summary: 'Export a corpus as TMX 1.4b or tab-separated TXT',
    schema: { query: z.object({ corpusId: idSchema, format: z.enum(['tmx', 'txt']).default('tmx') }) },
    response: { envelope: false, contentType: 'application/x-tmx+xml', errors: [404] },
    async handler({ query, caller, headers }) {
      const corpus = await access.get(caller!, query.corpusId, headers);
      const safe = corpus.name.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'corpus';
      const pairs = async function* () {
        let after = -1;
        for (;;) {
          const page = await db.selectFrom('corpus_pairs').select(['id', 'source', 'target', 'position']).where('corpus_id', '=', corpus.id).where('position', '>', after).orderBy('position').limit(1000).execute();
          if (!page.length) return;
          yield* page;
          after = page[page.length - 1]!.position;
        }
      };
      const disposition = (ext: string) => `attachment; filename*=UTF-8''${encodeURIComponent(safe)}.${ext}`;
      if (query.format === 'txt') {
        const lines = async function* () {
          // A tab or a line break inside a text would break the format: they become spaces.
          for await (const p of pairs()) yield `${p.source.replace(/[\t\r\n]+/g, ' ')}\t${p.target.replace(/[\t\r\n]+/g, ' ')}\n`;
        };
        return { raw: true, contentType: 'text/plain; charset=utf-8', body: Readable.from(lines()), headers: { 'content-disposition': disposition('txt') } };
      }
      const units = async function* (): AsyncGenerator<TmxUnit> {
        for await (const p of pairs()) {
          yield { tuid: String(p.id), variants: [{ lang: corpus.source_lang, text: p.source, tags: {} }, { lang: corpus.target_lang, text: p.target, tags: {} }], props: [], notes: [] };
        }
      };
      return {
        raw: true,
        contentType: 'application/x-tmx+xml; charset=utf-8',
        body: Readable.from(writeTmx(units(), { srclang: corpus.source_lang, tool: 'LinguaPort corpus', segtype: 'sentence' })),
        headers: { 'content-disposition': disposition('tmx') },
      };
    },
  });
}

