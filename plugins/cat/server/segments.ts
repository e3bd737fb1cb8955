import { createHash } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { ApiError, Codes, type LocalizedText } from '@linguaport/sdk/server';
import { commitInBatches, yieldToEventLoop } from '@linguaport/sdk/resources';
import { writeXliff, type XliffUnit } from '@linguaport/sdk/interchange';
import {
  nextState,
  sentence,
  sentencePieces,
  TransitionError,
  type Actor,
  type FileFormat,
  type FormatRegistry,
  type InlineTag,
  type TargetStage,
  type TargetState,
  type TranslationUnit,
} from '@linguaport/sdk/shared';
import type { CatDatabase, SegmentOrigin, SentenceState } from './tables.js';

/**
 * The segment store: a CAT file parsed once into sentences, every change of a target kept as a
 * revision, and the file delivered back in its own format or as XLIFF. The project, task and editor
 * routes call these functions with their `ctx.db` and `ctx.formats`.
 */

export type CatDb = Kysely<CatDatabase>;
type Row = Selectable<CatDatabase['cat_segments']>;
type SentenceAction = 'confirm' | 'reviewConfirm';

const text = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });
/** Rows written or read per statement: a 20,000-segment file is never one INSERT nor one result set (PGlite runs each statement on the main thread). */
const BATCH = 250;
const PAGE = 2000;

// ---------------------------------------------------------------------------------------------------
// States in and out

/**
 * How a bilingual file's target states become sentence states: by the file's own words first
 * (`byNative`, e.g. `{ 'needs-review-translation': 'confirmed' }`; the whole native string or its
 * first word, the XLIFF `state`), then by the format layer's stage (`byStage`), then the defaults.
 */
export interface StateMappingIn {
  byNative?: Record<string, SentenceState>;
  byStage?: Partial<Record<TargetStage, SentenceState>>;
}

/** XLIFF `final`/`signed-off` (and 1.2 `approved="yes"`, 2.x `reviewed`) are a reviewer's; `translated` a translator's; `needs-*`, `new`, 2.x `initial` and no target are not confirmed. */
export const DEFAULT_STATES_IN: Record<TargetStage, SentenceState> = {
  new: 'unconfirmed',
  draft: 'unconfirmed',
  translated: 'confirmed',
  reviewed: 'reviewConfirmed',
  final: 'reviewConfirmed',
};

export function sentenceStateOf(state: TargetState | undefined, hasTarget: boolean, mapping: StateMappingIn = {}): SentenceState {
  if (!hasTarget || !state) return 'unconfirmed';
  const native = state.native?.trim();
  const byNative = native ? (mapping.byNative?.[native] ?? mapping.byNative?.[native.split(/\s+/)[0]!]) : undefined;
  return byNative ?? mapping.byStage?.[state.stage] ?? DEFAULT_STATES_IN[state.stage];
}

/**
 * A sentence state as the format layer writes it: review confirmed is `final` (XLIFF 1.2 `final` and
 * `approved="yes"`, 2.x `final`), confirmed `translated`, unconfirmed `new` (1.2 `needs-translation`,
 * 2.x `initial`). Only 1.2 can say an unconfirmed target came from a machine or a memory without
 * calling it translated (2.x would need `translated` for a subState), so only 1.2 gets the origin.
 */
export function targetStateOf(segment: Pick<Row, 'state' | 'origin' | 'origin_engine' | 'origin_score'>, version: '1.2' | '2.x'): TargetState {
  // `native` names our state: never a file's own word, so a writer never takes it for the state it read.
  const native = segment.state;
  if (segment.state === 'reviewConfirmed') return { stage: 'final', native };
  if (segment.state === 'confirmed') return { stage: 'translated', native };
  if (version === '1.2' && segment.origin === 'engine') return { stage: 'new', native, origin: 'mt', ...(segment.origin_engine ? { detail: segment.origin_engine } : {}) };
  if (version === '1.2' && segment.origin === 'memory') return { stage: 'new', native, origin: 'tm', detail: String(segment.origin_score ?? 'fuzzy') };
  return { stage: 'new', native };
}

// ---------------------------------------------------------------------------------------------------
// Import

export interface ImportInput {
  fileId: number;
  fileName: string;
  bytes: Uint8Array;
  /** The project's source language: sentence rules, and formats that read pictures. */
  sourceLanguage: string;
  /** How the file's target states map in (bilingual formats); the defaults otherwise. */
  states?: StateMappingIn;
  /** The format to read with; found from the name and bytes otherwise. */
  format?: FileFormat;
  /**
   * For a durable task's retry after a crash: an unfinished import of this file (its process died) is
   * discarded and done again. A finished one is still refused. Only the task that owns the file sets it.
   */
  restart?: boolean;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface ImportResult {
  format: string;
  paragraphs: number;
  segments: number;
  repeated: number;
}

/** Same text for repetitions: Unicode form and runs of white space do not make a sentence new; case and codes do. */
export function normalisedSource(source: string): string {
  return source.normalize('NFC').replace(/\s+/g, ' ').trim();
}
const keyOf = (source: string) => createHash('sha1').update(normalisedSource(source)).digest('hex');

const PLACEHOLDER = /<\/?(\d+)\/?>/g;
/** The codes a sentence uses, out of its paragraph's: each segment carries only its own. */
function tagsIn(texts: Array<string | null | undefined>, tags: Record<string, InlineTag>): Record<string, InlineTag> {
  const out: Record<string, InlineTag> = {};
  for (const t of texts) for (const m of (t ?? '').matchAll(PLACEHOLDER)) if (tags[m[1]!]) out[m[1]!] = tags[m[1]!]!;
  return out;
}

type NewSegment = Insertable<CatDatabase['cat_segments']> & { source_key: string; repeated: boolean };

/**
 * A unit as segments. A bilingual file's unit (it carries a target state: XLIFF, PO) is already its
 * tool's segment and keeps its target; any other unit is a paragraph cut into sentences, the text
 * between them (spaces, codes standing alone) kept around them so the paragraph rejoins exactly.
 */
function segmentsOfUnit(unit: TranslationUnit, paragraph: number, fileId: number, lang: string, states: StateMappingIn): NewSegment[] {
  const base = { file_id: fileId, paragraph, unit_id: unit.id, source_key: '', repeated: false, origin_score: null, origin_memory_id: null, origin_engine: null };
  if (unit.state) {
    const target = unit.target ?? null;
    return [
      {
        ...base,
        position: 0,
        before: '',
        after: '',
        source: unit.source,
        target,
        tags: JSON.stringify(unit.tags),
        state: sentenceStateOf(unit.state, target !== null, states),
        origin: target !== null ? 'file' : null,
        origin_file_state: target !== null ? (unit.state.native ?? unit.state.stage) : null,
      },
    ];
  }
  const out: NewSegment[] = [];
  let raw = '';
  for (const piece of sentencePieces(unit.source, lang)) {
    if ('raw' in piece) raw += piece.raw;
    else {
      out.push({ ...base, position: out.length, before: raw, after: '', source: piece.sentence, target: null, tags: JSON.stringify(tagsIn([piece.sentence], unit.tags)), state: 'unconfirmed', origin: null, origin_file_state: null });
      raw = '';
    }
  }
  // What follows the last sentence stays after it; a paragraph with no sentence (a code, a number) has no segment.
  if (out.length) out[out.length - 1]!.after = raw;
  return out;
}

/** The format an input names, or the one its name and bytes say; refused (400) when none reads it. */
function formatFor(formats: FormatRegistry, input: { format?: FileFormat; fileName: string; bytes: Uint8Array }): FileFormat {
  const format = input.format ?? formats.forFile(input.fileName, input.bytes);
  if (!format) throw new ApiError(Codes.BAD_REQUEST, text(`不支持的文件格式：${input.fileName}`, `${input.fileName}: this file format is not supported`));
  return format;
}

const alreadyImported = () => new ApiError(Codes.CONFLICT, text('该文件的句段已导入', 'the segments of this file are already imported'));

/**
 * Parses a file once into the file's segments, written in batches of 250 rows with the event loop free
 * between them. The file is claimed first: a file already imported, or being imported, is refused
 * (409); a failure (a bad file, an abort) leaves no segment of the file and no claim.
 */
export async function importSegments(db: CatDb, formats: FormatRegistry, input: ImportInput): Promise<ImportResult> {
  const format = formatFor(formats, input);
  const claimed = await db.insertInto('cat_segment_imports').values({ file_id: input.fileId, format: format.id }).onConflict((oc) => oc.column('file_id').doNothing()).returning('file_id').executeTakeFirst();
  if (!claimed) {
    const earlier = await db.selectFrom('cat_segment_imports').select('finished_at').where('file_id', '=', input.fileId).executeTakeFirst();
    if (!input.restart || !earlier || earlier.finished_at) throw alreadyImported();
    await db.deleteFrom('cat_segments').where('file_id', '=', input.fileId).execute();
  }
  const release = () => db.deleteFrom('cat_segment_imports').where('file_id', '=', input.fileId).where('finished_at', 'is', null).execute();
  let parsed;
  try {
    parsed = await format.parse(input.bytes, { fileName: input.fileName, sourceLanguage: input.sourceLanguage });
  } catch (err) {
    await release();
    throw new ApiError(Codes.BAD_REQUEST, text(`文件无法解析：${(err as Error).message}`, `the file cannot be read: ${(err as Error).message}`));
  }
  const seen = new Set<string>();
  const result: ImportResult = { format: format.id, paragraphs: 0, segments: 0, repeated: 0 };
  const units = parsed.units;
  let unitsRead = 0;
  function* rows(): Generator<NewSegment> {
    for (let i = 0; i < units.length; i++) {
      input.signal?.throwIfAborted();
      const segments = segmentsOfUnit(units[i]!, i, input.fileId, input.sourceLanguage, input.states ?? {});
      unitsRead = i + 1;
      if (segments.length) result.paragraphs++;
      for (const s of segments) {
        s.source_key = keyOf(s.source);
        s.repeated = seen.has(s.source_key);
        seen.add(s.source_key);
        if (s.repeated) result.repeated++;
        result.segments++;
        yield s;
      }
    }
  }
  // The ids this import wrote: a failure removes these (and its claim), so the file can be imported again.
  const written: number[] = [];
  try {
    await commitInBatches(
      db,
      rows(),
      async (trx, batch) => {
        for (const r of await trx.insertInto('cat_segments').values(batch).returning('id').execute()) written.push(r.id);
      },
      { size: BATCH, signal: input.signal, after: () => input.onProgress?.(unitsRead, units.length) },
    );
    await db.updateTable('cat_segment_imports').set({ segments: result.segments, finished_at: new Date() }).where('file_id', '=', input.fileId).execute();
    input.onProgress?.(units.length, units.length);
  } catch (err) {
    for (let k = 0; k < written.length; k += PAGE) await db.deleteFrom('cat_segments').where('id', 'in', written.slice(k, k + PAGE)).execute();
    await release();
    throw err;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Reading

export interface SegmentOriginView {
  kind: SegmentOrigin;
  fileState?: string;
  score?: number;
  memoryId?: number;
  engine?: string;
}

export interface Segment {
  id: number;
  fileId: number;
  paragraph: number;
  position: number;
  unitId: string;
  source: string;
  target: string | null;
  tags: Record<string, InlineTag>;
  state: SentenceState;
  marks: { repeated: boolean };
  origin: SegmentOriginView | null;
  locked: boolean;
  editorId: number | null;
  editedAt: string | null;
  version: number;
}

function present(r: Row): Segment {
  const origin: SegmentOriginView | null = r.origin
    ? {
        kind: r.origin,
        ...(r.origin_file_state !== null ? { fileState: r.origin_file_state } : {}),
        ...(r.origin_score !== null ? { score: r.origin_score } : {}),
        ...(r.origin_memory_id !== null ? { memoryId: r.origin_memory_id } : {}),
        ...(r.origin_engine !== null ? { engine: r.origin_engine } : {}),
      }
    : null;
  return {
    id: r.id,
    fileId: r.file_id,
    paragraph: r.paragraph,
    position: r.position,
    unitId: r.unit_id,
    source: r.source,
    target: r.target,
    tags: r.tags as Record<string, InlineTag>,
    state: r.state,
    marks: { repeated: r.repeated },
    origin,
    locked: r.locked,
    editorId: r.editor_id,
    editedAt: r.edited_at ? new Date(r.edited_at).toISOString() : null,
    version: r.version,
  };
}

type Place = { paragraph: number; position: number };

/** Rows of a file in reading order after `after` (keyset paging on paragraph, position). */
function rowsAfter(db: CatDb, fileId: number, after: Place | undefined, limit: number): Promise<Row[]> {
  let q = db.selectFrom('cat_segments').selectAll().where('file_id', '=', fileId);
  if (after) {
    const { paragraph, position } = after;
    q = q.where((eb) => eb.or([eb('paragraph', '>', paragraph), eb.and([eb('paragraph', '=', paragraph), eb('position', '>', position)])]));
  }
  return q.orderBy('paragraph').orderBy('position').limit(limit).execute();
}

/** A file's segments in reading order, a page at a time (`after` is the last one's `{paragraph, position}`). */
export async function segmentsOf(db: CatDb, fileId: number, page: { after?: Place; limit?: number } = {}): Promise<Segment[]> {
  return (await rowsAfter(db, fileId, page.after, Math.min(page.limit ?? PAGE, PAGE))).map(present);
}

async function* allRows(db: CatDb, fileId: number): AsyncGenerator<Row> {
  let after: Place | undefined;
  for (;;) {
    const rows = await rowsAfter(db, fileId, after, PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!;
    await yieldToEventLoop();
  }
}

export interface Revision {
  version: number;
  authorId: number | null;
  at: string;
  oldTarget: string | null;
  newTarget: string | null;
  oldState: SentenceState;
  newState: SentenceState;
  origin: SegmentOrigin | null;
}

/** A segment's revisions, oldest first. */
export async function revisionsOf(db: CatDb, segmentId: number): Promise<Revision[]> {
  const rows = await db.selectFrom('cat_segment_revisions').selectAll().where('segment_id', '=', segmentId).orderBy('version').execute();
  return rows.map((r) => ({ version: r.version, authorId: r.author_id, at: new Date(r.at).toISOString(), oldTarget: r.old_target, newTarget: r.new_target, oldState: r.old_state as SentenceState, newState: r.new_state as SentenceState, origin: r.origin as SegmentOrigin | null }));
}

// ---------------------------------------------------------------------------------------------------
// Changes

/** What a stale write is answered with: both texts, so the user chooses (the route answers 409 with it). */
export interface StaleWrite {
  segmentId: number;
  yourVersion: number;
  /** The text the writer sent (null for a state move alone). */
  yourTarget: string | null;
  currentVersion: number;
  currentTarget: string | null;
  currentState: SentenceState;
  currentEditorId: number | null;
}

/** A write that names a version someone else has already replaced: nothing was changed. */
export class StaleSegmentError extends ApiError {
  declare readonly data: StaleWrite;
  constructor(stale: StaleWrite) {
    super(Codes.CONFLICT, text(`该句段已被他人修改（版本 ${stale.currentVersion}），请在两个译文中选择`, `this segment was changed by someone else (version ${stale.currentVersion}): choose between the two translations`), stale);
    this.name = 'StaleSegmentError';
  }
}

export class SegmentLockedError extends ApiError {
  constructor(segmentId: number) {
    super(Codes.CONFLICT, text('该句段已锁定，不能修改', 'this segment is locked and cannot be changed'), { segmentId });
    this.name = 'SegmentLockedError';
  }
}

export type OriginInput = { kind: 'human' } | { kind: 'memory'; score: number; memoryId: number } | { kind: 'engine'; engine: string };

export interface SegmentChange {
  segmentId: number;
  /** The version the writer read: a write on any other is refused. */
  version: number;
  authorId: number;
  /** The new target; absent for a state move alone. A changed text is an `edit` (back to unconfirmed). */
  target?: string;
  /** Moves after the edit, in order (`['confirm']`, a reviewer's `['confirm', 'reviewConfirm']`). */
  actions?: SentenceAction[];
  /** Checked against who the sentence machine lets take each move. */
  actor?: Actor;
  /** Where a new target came from (a person unless said). */
  origin?: OriginInput;
}

const MAX_TARGET = 100_000;

/**
 * Changes one segment's target and/or state through the sentence machine, as one revision. Refused,
 * with nothing changed: a stale version (StaleSegmentError, both texts), a locked segment, a move the
 * machine does not allow, a target over 100,000 characters. A write that changes nothing adds no revision.
 */
export async function changeSegment(db: CatDb, change: SegmentChange): Promise<Segment> {
  if (change.target !== undefined && (typeof change.target !== 'string' || change.target.length > MAX_TARGET)) {
    throw new ApiError(Codes.BAD_REQUEST, text(`译文最长 ${MAX_TARGET} 个字符`, `target: at most ${MAX_TARGET} characters`));
  }
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('cat_segments').selectAll().where('id', '=', change.segmentId).forUpdate().executeTakeFirst();
    if (!row) throw new ApiError(Codes.NOT_FOUND, text('句段不存在', 'no such segment'));
    if (row.version !== change.version) {
      throw new StaleSegmentError({ segmentId: row.id, yourVersion: change.version, yourTarget: change.target ?? null, currentVersion: row.version, currentTarget: row.target, currentState: row.state, currentEditorId: row.editor_id });
    }
    if (row.locked) throw new SegmentLockedError(row.id);
    const edited = change.target !== undefined && change.target !== row.target;
    let state = row.state;
    try {
      if (edited) state = nextState(sentence, state, 'edit', change.actor);
      for (const action of change.actions ?? []) state = nextState(sentence, state, action, change.actor);
    } catch (err) {
      if (err instanceof TransitionError) throw new ApiError(Codes.CONFLICT, text(`句段当前状态（${row.state}）不允许此操作：${err.action}`, `not allowed while the segment is ${row.state}: ${err.action}`));
      throw err;
    }
    if (!edited && state === row.state) return present(row);
    const origin = change.origin ?? { kind: 'human' as const };
    const originColumns = edited
      ? {
          origin: origin.kind,
          origin_file_state: null,
          origin_score: origin.kind === 'memory' ? origin.score : null,
          origin_memory_id: origin.kind === 'memory' ? origin.memoryId : null,
          origin_engine: origin.kind === 'engine' ? origin.engine : null,
        }
      : {};
    const updated = await trx
      .updateTable('cat_segments')
      .set({ ...(edited ? { target: change.target } : {}), ...originColumns, state, version: row.version + 1, editor_id: change.authorId, edited_at: new Date() })
      .where('id', '=', row.id)
      .where('version', '=', row.version)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('cat_segment_revisions')
      .values({ segment_id: row.id, version: updated.version, author_id: change.authorId, old_target: row.target, new_target: updated.target, old_state: row.state, new_state: state, origin: updated.origin })
      .execute();
    return present(updated);
  });
}

/** Locks or unlocks segments of a file (all of them when `segmentIds` is absent); returns how many changed. */
export async function lockSegments(db: CatDb, fileId: number, locked: boolean, segmentIds?: number[]): Promise<number> {
  let q = db.updateTable('cat_segments').set({ locked }).where('file_id', '=', fileId).where('locked', '=', !locked);
  if (segmentIds) {
    if (!segmentIds.length) return 0;
    q = q.where('id', 'in', segmentIds);
  }
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

// ---------------------------------------------------------------------------------------------------
// Delivery

export interface DeliverInput {
  fileId: number;
  fileName: string;
  /** The file as uploaded: parsed again for its skeleton, the format's own markup around the units. */
  bytes: Uint8Array;
  sourceLanguage: string;
  targetLanguage: string;
  format?: FileFormat;
}

/**
 * The file in its own format with the current targets. A sentence without a target keeps its source
 * (as CAT tools deliver); a bilingual file's unit untouched since import is written exactly as it was
 * read (its target and state), any other with its sentence state mapped out.
 */
export async function deliverFile(db: CatDb, formats: FormatRegistry, input: DeliverInput): Promise<Uint8Array> {
  const format = formatFor(formats, input);
  const parsed = await format.parse(input.bytes, { fileName: input.fileName, sourceLanguage: input.sourceLanguage });
  const byUnit = new Map<string, Row[]>();
  for await (const row of allRows(db, input.fileId)) {
    const list = byUnit.get(row.unit_id);
    if (list) list.push(row);
    else byUnit.set(row.unit_id, [row]);
  }
  const units: TranslationUnit[] = parsed.units.map((unit) => {
    const rows = byUnit.get(unit.id);
    if (!rows?.length) return unit;
    if (unit.state) {
      const row = rows[0]!;
      if (row.version === 1 || row.target === null) return unit;
      // Marked as XLIFF 2 would be (no origin): the format's writer marks both versions from it.
      return { ...unit, target: row.target, state: targetStateOf(row, '2.x') };
    }
    if (rows.every((r) => r.target === null)) return unit;
    const target = rows.map((r) => r.before + (r.target ?? r.source)).join('') + rows[rows.length - 1]!.after;
    return { ...unit, target };
  });
  return format.write(parsed, units, { targetLanguage: input.targetLanguage });
}

export interface XliffDeliverInput {
  fileId: number;
  version: '1.2' | '2.1';
  sourceLanguage: string;
  targetLanguage: string;
  /** The original file's name (1.2 `original`). */
  original: string;
}

/**
 * The file's segments as XLIFF 1.2 or 2.1 for another CAT tool, streamed in pieces of about 64 KB
 * (`Readable.from` it): inline codes as the standard's codes, states mapped out (review confirmed
 * `final`, confirmed `translated`, unconfirmed 1.2 `needs-translation` / 2.x `initial`). A paragraph's
 * only sentence keeps the unit's id; sentences of a longer one are `<unit id>_<n>`.
 */
export function deliverXliff(db: CatDb, input: XliffDeliverInput): AsyncGenerator<string> {
  const marks = input.version === '2.1' ? '2.x' : '1.2';
  async function* units(): AsyncGenerator<XliffUnit> {
    let previous: Row | null = null;
    const out = (row: Row, alone: boolean): XliffUnit => {
      const tags = row.tags as Record<string, InlineTag>;
      return {
        id: alone ? row.unit_id : `${row.unit_id}_${row.position + 1}`,
        source: row.source,
        target: row.target,
        tags,
        ...(row.target !== null ? { state: targetStateOf(row, marks) } : {}),
      };
    };
    for await (const row of allRows(db, input.fileId)) {
      if (previous) yield out(previous, previous.position === 0 && row.paragraph !== previous.paragraph);
      previous = row;
    }
    if (previous) yield out(previous, previous.position === 0);
  }
  return writeXliff(units(), { version: input.version, sourceLanguage: input.sourceLanguage, targetLanguage: input.targetLanguage, original: input.original });
}
