import { readFile } from 'node:fs/promises';
import { ApiError, Codes } from '../server/index.js';
import type { FormatRegistry, InlineTag } from '../shared/file-format.js';
import { languageBase } from '../shared/language-tags.js';
import type { ImportRejection, Say } from './imports.js';

/**
 * Bilingual files (XLIFF 1.2 and 2.x, PO) as import rows for memories and corpora. They are read by the
 * format registry's own readers (the formats-text plugin's `xliff` and `po`, the same the document area
 * uses), never by a second parser here: each unit with a target is a row, its inline codes placeholders
 * with their tags, its note kept. A unit without a target, or one marked as not started or needing work
 * (PO fuzzy, XLIFF `needs-*`, 2.x `initial`), is rejected with its reason: a memory takes finished
 * translations only. A file that is not well-formed is refused with the reader's reason and position.
 */

/** Extensions read as bilingual files, and the format that reads each. */
export const BILINGUAL_FORMATS: Readonly<Record<string, { format: string; name: string }>> = {
  xlf: { format: 'xliff', name: 'XLIFF' },
  xliff: { format: 'xliff', name: 'XLIFF' },
  po: { format: 'po', name: 'PO' },
};

export interface BilingualRow {
  file: string;
  /** The unit's number in the file, from 1. */
  row: number;
  source: string;
  target: string;
  /** The unit's placeholders (shared by source and target, as the format numbers them). */
  tags: Record<string, InlineTag>;
  note?: string;
}

/** The rows of an XLIFF or PO file lying at `path` (`ext` one of `BILINGUAL_FORMATS`). */
export async function* bilingualRows(formats: FormatRegistry, path: string, file: string, ext: string, langs: { sourceLang: string; targetLang: string }, t: Say): AsyncGenerator<BilingualRow | ImportRejection> {
  const kind = BILINGUAL_FORMATS[ext];
  const format = kind ? formats.byId(kind.format) : null;
  if (!kind || !format) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：本平台未安装读取该格式的插件`, `${file}: no installed plugin reads this format`));
  let parsed;
  try {
    parsed = await format.parse(await readFile(path), { fileName: file, sourceLanguage: langs.sourceLang });
  } catch (err) {
    const e = err as Error & { localized?: Record<'zh-CN' | 'en-US', string> };
    if (e.name === 'FormatBudgetError' && e.localized) throw new ApiError(Codes.BAD_REQUEST, t(`${file}：${e.localized['zh-CN']}`, `${file}: ${e.localized['en-US']}`));
    if (e.name === 'FormatError') throw new ApiError(Codes.BAD_REQUEST, t(`${file}：不是有效的 ${kind.name} 文件（${e.message}）`, `${file}: not a valid ${kind.name} file (${e.message})`));
    throw err;
  }
  // A file of other languages would land its texts on the wrong side: refused, saying which it holds.
  for (const [said, asked] of [[parsed.sourceLanguage, langs.sourceLang], [parsed.targetLanguage, langs.targetLang]] as const) {
    if (said && languageBase(said).toLowerCase() !== languageBase(asked).toLowerCase()) {
      throw new ApiError(Codes.BAD_REQUEST, t(`${file}：文件的语言是 ${parsed.sourceLanguage ?? '?'} → ${parsed.targetLanguage ?? '?'}，不是 ${langs.sourceLang} → ${langs.targetLang}`, `${file}: the file is ${parsed.sourceLanguage ?? '?'} → ${parsed.targetLanguage ?? '?'}, not ${langs.sourceLang} → ${langs.targetLang}`));
    }
  }
  for (const [k, u] of parsed.units.entries()) {
    const row = k + 1;
    const stage = u.state?.stage ?? (u.target ? 'translated' : 'new');
    if (!u.target || stage === 'new') yield { file, row, reason: t('没有译文', 'the unit has no translation') };
    else if (stage === 'draft') yield { file, row, reason: t(`译文标记为待修改（${u.state?.native ?? 'draft'}）`, `the translation is marked as needing work (${u.state?.native ?? 'draft'})`) };
    else yield { file, row, source: u.source.trim(), target: u.target.trim(), tags: u.tags, ...(u.context?.note ? { note: u.context.note } : {}) };
  }
}
