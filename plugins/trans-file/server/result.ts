import { extname } from 'node:path';
import { restoreTags, type FileFormat, type ParsedFile, type TargetState, type TranslationUnit } from '@linguaport/sdk/shared';
import type { FileStorage } from '@linguaport/sdk/server';
import type { ResultType } from '../shared/schemas.js';
import { bilingualParagraphsDocx, bilingualTableDocx, type BilingualPair } from './docx-writer.js';
import { plainText } from './tags.js';
import type { Db } from './tables.js';
import type { File } from './store.js';

/**
 * The result of a translated file, built from the original and the stored translations:
 * - `translated`: the same format, each unit's translation in place (the format module writes it);
 * - `bilingual`: each paragraph followed by its translation: the format's own bilingual mode where it
 *   has one, plain text interleaved for txt, otherwise a docx of paragraph pairs;
 * - `table`: a docx with a two-column table, source beside translation.
 */

export interface BuiltResult {
  name: string;
  bytes: Uint8Array;
}

const DOCX = '.docx';

/**
 * `report.docx` -> `report_es.docx`. A result in another format keeps the original's extension before
 * its own (`report.pdf` -> `report_es.pdf.docx`), so it says where it came from and never takes the name
 * of the result of `report.docx`. Two uploads of the same file are told apart by `uniqueResultName`.
 */
export function resultName(original: string, target: string, ext?: string): string {
  const own = extname(original);
  const base = own ? original.slice(0, -own.length) : original;
  if (ext && own && ext.toLowerCase() !== own.toLowerCase()) return `${base}_${target}${own}${ext}`;
  return `${base}_${target}${ext ?? own}`;
}

/**
 * `name`, or `name` with ` (2)`, ` (3)` … before its extensions when another of the owner's files
 * already has that result name (two uploads of `report.pdf` to Spanish: `report_es.pdf.docx`,
 * `report_es (2).pdf.docx`), so two results in one download folder never share a name.
 */
export async function uniqueResultName(db: Db, ownerId: number, fileId: number, name: string): Promise<string> {
  const rows = await db.selectFrom('trans_file_files').select('result_name').where('owner_id', '=', ownerId).where('id', '!=', fileId).where('result_name', 'is not', null).execute();
  const taken = new Set(rows.map((r) => r.result_name!.toLowerCase()));
  const cut = /^(.*?_[^._]+(?:_[^._]+)*)((?:\.[^.]+)*)$/.exec(name);
  const [stem, exts] = cut ? [cut[1]!, cut[2]!] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${exts}`;
  return candidate;
}

/** The name of a result's PDF: `report_es.docx` -> `report_es.pdf`, `report_es.pdf.docx` -> `report_es.pdf` (not `.pdf.pdf`). */
export const pdfNameOf = (resultName: string): string => `${resultName.replace(/(\.pdf)?\.[^.]+$/i, '')}.pdf`;

export interface StoredTarget {
  target: string | null;
  origin: string | null;
}

export async function readUnits(db: Db, fileId: number): Promise<Map<string, StoredTarget>> {
  const rows = await db.selectFrom('trans_file_units').select(['unit_id', 'target', 'origin']).where('file_id', '=', fileId).orderBy('idx').execute();
  return new Map(rows.map((r) => [r.unit_id, { target: r.target, origin: r.origin }]));
}

/**
 * The state a stored translation is written with: machine output and fuzzy memory matches are drafts
 * (the format marks them for review), an exact memory match or an edit here is translated.
 */
export function stateOfOrigin(origin: string | null): TargetState {
  const at = origin?.indexOf(':') ?? -1;
  const kind = at === -1 ? (origin ?? '') : origin!.slice(0, at);
  const detail = at === -1 ? undefined : origin!.slice(at + 1);
  if (kind === 'engine') return { stage: 'draft', origin: 'mt', ...(detail ? { detail } : {}) };
  if (kind === 'tm') return { stage: detail === '100' ? 'translated' : 'draft', origin: 'tm', ...(detail ? { detail } : {}) };
  if (kind === 'edited') return { stage: 'translated', origin: 'human' };
  return { stage: 'draft' };
}

/**
 * The units of the original with their translations. A bilingual file's unit (its format gives it a
 * state) that was not translated here (kept from the file, or nothing to translate in it) is written
 * as the file had it; elsewhere a unit without a translation keeps its source.
 */
export function withTargets(parsed: ParsedFile, stored: Map<string, StoredTarget>): TranslationUnit[] {
  return parsed.units.map((u) => {
    const row = stored.get(u.id);
    const target = row?.target ?? null;
    if (u.state && (target === null || row!.origin === 'file' || row!.origin === 'unchanged')) return u;
    if (target === null) return { ...u, target: u.source };
    return { ...u, target, ...(u.state ? { state: stateOfOrigin(row!.origin) } : {}) };
  });
}

/** A paragraph as a reader sees it, for the documents this area writes itself. */
function readable(text: string, unit: TranslationUnit, format: FileFormat): string {
  // Plain text's placeholders stand for its own line breaks: put them back. Elsewhere they stand for markup.
  return format.id === 'txt' ? restoreTags(text, unit.tags) : plainText(text);
}

function txtBilingual(units: TranslationUnit[], format: FileFormat): Uint8Array {
  const text = units.map((u) => `${readable(u.source, u, format)}\n${readable(u.target ?? u.source, u, format)}`).join('\n\n');
  return Buffer.from(`${text}\n`, 'utf8');
}

export async function buildResult(
  input: { file: Pick<File, 'name' | 'target_lang' | 'source_lang' | 'result_type'>; format: FileFormat; parsed: ParsedFile; units: TranslationUnit[] },
  languageName: (code: string) => string,
): Promise<BuiltResult> {
  const { file, format, parsed, units } = input;
  const type: ResultType = file.result_type;
  const pairs = (): BilingualPair[] => units.map((u) => ({ source: readable(u.source, u, format), target: readable(u.target ?? u.source, u, format) }));
  if (type === 'translated') {
    const ext = format.outputExtension ? `.${format.outputExtension}` : undefined;
    return { name: resultName(file.name, file.target_lang, ext), bytes: await format.write(parsed, units, { targetLanguage: file.target_lang, mode: 'translated' }) };
  }
  if (type === 'table') {
    const header = { source: languageName(file.source_lang), target: languageName(file.target_lang) };
    return { name: resultName(file.name, `${file.target_lang}_table`, DOCX), bytes: bilingualTableDocx(pairs(), header, file.name, { source: file.source_lang, target: file.target_lang }) };
  }
  if (format.id === 'txt') return { name: resultName(file.name, `${file.source_lang}_${file.target_lang}`), bytes: txtBilingual(units, format) };
  // A format that can hold both languages writes them itself; one that ignores the mode writes the
  // same bytes as a translated file, and then the paragraph pairs go into a docx instead.
  const bilingual = await format.write(parsed, units, { targetLanguage: file.target_lang, mode: 'bilingual' });
  const translated = await format.write(parsed, units, { targetLanguage: file.target_lang, mode: 'translated' });
  const changed = units.some((u) => (u.target ?? u.source) !== u.source);
  if (!changed || !Buffer.from(bilingual).equals(Buffer.from(translated))) {
    return { name: resultName(file.name, `${file.source_lang}_${file.target_lang}`, format.outputExtension ? `.${format.outputExtension}` : undefined), bytes: bilingual };
  }
  return { name: resultName(file.name, `${file.source_lang}_${file.target_lang}`, DOCX), bytes: bilingualParagraphsDocx(pairs(), file.name, { source: file.source_lang, target: file.target_lang }) };
}

/** Storage keys of a file's parts: never derived from the user's file name. */
export const keys = {
  source: (id: number, name: string) => `files/${id}/source${safeExt(name)}`,
  result: (id: number, name: string) => `files/${id}/result${safeExt(name)}`,
  pdf: (id: number) => `files/${id}/result.pdf`,
  preview: (id: number, side: 'source' | 'target', page: number) => `files/${id}/preview/${side}-${page}.png`,
};

function safeExt(name: string): string {
  const ext = extname(name).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/** Removes every stored part of a file (missing ones are fine). */
export async function removeStored(storage: FileStorage, keysToRemove: Array<string | null | undefined>): Promise<void> {
  for (const key of keysToRemove) if (key) await storage.remove(key).catch(() => undefined);
}
