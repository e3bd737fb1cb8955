import type { ServerPluginContext } from '@linguaport/sdk/server';
import type { InlineTag, TargetState } from '@linguaport/sdk/shared';
import type { XliffUnit } from '@linguaport/sdk/interchange';
import { bilingualRows, type ImportRejection } from '@linguaport/sdk/resources';
import { notesOf, type EntryForExport, type EntryMeta } from './metadata.js';

/**
 * A memory's side of the bilingual exchange files (XLIFF 1.2 and 2.x, PO): rows read by the SDK's
 * `bilingualRows` (the format registry's readers), and entries written as units for the SDK's `writeXliff`.
 */

type Say = (zh: string, en: string) => string;

export interface BilingualMemoryRow {
  file: string;
  row: number;
  source: string;
  target: string;
  tags: Record<string, InlineTag>;
  meta?: EntryMeta;
}

/** The rows of an XLIFF or PO file: each side's placeholders kept apart (`s1`, `t1`) as a TMX's are, the unit's note kept as the entry's. */
export async function* bilingualMemoryRows(ctx: ServerPluginContext, path: string, file: string, ext: string, langs: { sourceLang: string; targetLang: string }, t: Say): AsyncGenerator<BilingualMemoryRow | ImportRejection> {
  for await (const r of bilingualRows(ctx.formats, path, file, ext, langs, t)) {
    if ('reason' in r) {
      yield r;
      continue;
    }
    const tags: Record<string, InlineTag> = {};
    for (const [k, v] of Object.entries(r.tags)) {
      if (r.source.includes(`<${k}`) || r.source.includes(`</${k}>`)) tags[`s${k}`] = v;
      if (r.target.includes(`<${k}`) || r.target.includes(`</${k}>`)) tags[`t${k}`] = v;
    }
    yield { file: r.file, row: r.row, source: r.source, target: r.target, tags, ...(r.note ? { meta: { notes: [r.note] } } : {}) };
  }
}

/** An entry's review state as a target's: checked is reviewed, failed needs work, unchecked is a translator's. */
export function stateOfStatus(status: string): TargetState {
  return status === 'checked' ? { stage: 'reviewed' } : status === 'failed' ? { stage: 'draft', native: 'failed' } : { stage: 'translated' };
}

/** The XLIFF unit of an entry: its original tuid (or its id), texts with each side's placeholders, review state and notes. */
export function xliffUnitOf(e: EntryForExport, tags: Record<string, InlineTag>): XliffUnit {
  const side = (prefix: string) => Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(1), v]));
  const notes = notesOf(e.meta);
  return {
    id: (e.meta as EntryMeta | null)?.tuid ?? String(e.id),
    source: e.source,
    target: e.target,
    tags: side('s'),
    targetTags: side('t'),
    state: stateOfStatus(e.status),
    ...(notes.length ? { notes } : {}),
  };
}
