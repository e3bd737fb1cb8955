import { Readable } from 'node:stream';
import { ApiError, Codes, type ServerPluginContext } from '@linguaport/sdk/server';
import { writeXliff, type XliffUnit } from '@linguaport/sdk/interchange';
import { messages } from './messages.js';
import { readUnits, resultName, stateOfOrigin } from './result.js';
import type { File } from './store.js';
import type { Db } from './tables.js';

/**
 * A translated document's units as XLIFF (1.2 or 2.1), whatever its format: the original is parsed
 * again for each unit's inline codes and notes (as the result is written), and each stored translation
 * goes out with the state of its origin (machine output and fuzzy matches for review, an edit or an
 * exact match translated, a target kept from a bilingual file with the state it was read with).
 */
export async function xliffOf(ctx: ServerPluginContext, db: Db, file: File, version: '1.2' | '2.1'): Promise<{ name: string; body: Readable }> {
  const format = ctx.formats.byId(file.format);
  if (!format) throw new ApiError(Codes.FILE_NOT_FOUND, messages.notFound(file.name));
  const parsed = await format.parse(await ctx.storage.get(file.source_key), { fileName: file.name, sourceLanguage: file.source_lang });
  const stored = await readUnits(db, file.id);
  const units: XliffUnit[] = parsed.units.map((u) => {
    const row = stored.get(u.id);
    const kept = u.state && (!row || row.target === null || row.origin === 'file' || row.origin === 'unchanged');
    const target = kept ? (u.target ?? null) : (row?.target ?? null);
    const state = kept ? u.state : target !== null ? stateOfOrigin(row!.origin) : undefined;
    const note = u.context?.note;
    return { id: u.id, source: u.source, target, tags: u.tags, ...(state ? { state } : {}), ...(note ? { notes: [note] } : {}) };
  });
  const name = resultName(file.name, `${file.source_lang}_${file.target_lang}`, version === '2.1' ? '.xliff2.xlf' : '.xlf');
  return { name, body: Readable.from(writeXliff(units, { version, sourceLanguage: file.source_lang, targetLanguage: file.target_lang, original: file.name })) };
}
