import { sql, type Selectable } from 'kysely';
import { ApiError, Codes, type Caller, type ServerPluginContext } from '@linguaport/sdk/server';
import { documentFile, nextState, TransitionError, type Actor } from '@linguaport/sdk/shared';
import { FILE_CHANGED, type FileChanged, type FileRow, type FileStatus } from '../shared/schemas.js';
import { notFound, stateRefusal } from './messages.js';
import type { Db, FilesTable } from './tables.js';

/**
 * The file rows: how they are read, shown, checked against their owner and moved through the SDK's
 * `documentFile` machine (a guarded UPDATE, so two requests or a request and the queue never move
 * a file twice), and how every change reaches the owner's and the managers' consoles.
 */

export type File = Selectable<FilesTable>;

export const MANAGE = 'transFile:manage';

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

export function percentOf(file: Pick<File, 'segments' | 'segments_done' | 'status'>): number {
  if (file.status === 'completed') return 100;
  return file.segments > 0 ? Math.min(100, Math.floor((file.segments_done / file.segments) * 100)) : 0;
}

export function presentFile(f: File, ownerName: string | null = null): FileRow {
  return {
    id: f.id,
    name: f.name,
    size: Number(f.size),
    format: f.format,
    ownerId: f.owner_id,
    ownerName,
    jobId: f.job_id,
    sourceLang: f.source_lang,
    targetLang: f.target_lang,
    domain: f.domain,
    termBases: json<number[]>(f.term_bases),
    memories: json<number[]>(f.memories),
    resultType: f.result_type,
    bilingual: f.result_type !== 'translated',
    withPdf: f.with_pdf,
    status: f.status,
    previewStatus: f.preview_status,
    pdfStatus: f.pdf_status,
    characters: f.characters,
    segments: f.segments,
    segmentsDone: f.segments_done,
    percent: percentOf(f),
    error: f.error,
    resultName: f.result_name,
    ocr: Boolean(f.ocr),
    createdAt: iso(f.created_at)!,
    startedAt: iso(f.started_at),
    finishedAt: iso(f.finished_at),
  };
}

export function createStore(ctx: ServerPluginContext, db: Db) {
  const changed = (f: File, extra: Partial<FileChanged> = {}): FileChanged => ({
    id: f.id,
    ownerId: f.owner_id,
    status: f.status,
    previewStatus: f.preview_status,
    pdfStatus: f.pdf_status,
    segments: f.segments,
    segmentsDone: f.segments_done,
    percent: percentOf(f),
    characters: f.characters,
    error: f.error,
    resultName: f.result_name,
    ...extra,
  });

  /** Pushes a file's state to its owner and to everyone holding the manager permission. */
  async function publish(f: File | undefined, extra: Partial<FileChanged> = {}): Promise<void> {
    if (!f) return;
    await ctx.bus
      .publish({ type: FILE_CHANGED, payload: changed(f, extra), audience: { userIds: [f.owner_id], permission: MANAGE } })
      .catch((err: Error) => ctx.logger.warn(`file ${f.id}: could not publish its change: ${err.message}`));
  }

  const byId = (id: number) => db.selectFrom('trans_file_files').selectAll().where('id', '=', id).executeTakeFirst();

  /** The file if the caller may act on it: its owner, or a manager. Someone else's file is not found (404), as the kernel's tasks answer. */
  async function forCaller(caller: Caller, id: number, auth: ServerPluginContext['auth']): Promise<{ file: File; actor: Actor }> {
    const file = await byId(id);
    if (!file) throw notFound(id);
    if (file.owner_id === caller.userId) return { file, actor: 'owner' };
    if (auth.can(caller, MANAGE)) return { file, actor: 'manager' };
    throw notFound(id);
  }

  /**
   * Moves the file by `action` if the machine allows it from its current state, for this actor;
   * `set` adds columns. Refused with 409 when the state does not allow it; returns the new row.
   */
  async function move(file: File, action: string, actor: Actor, set: Partial<Record<keyof FilesTable, unknown>> = {}): Promise<File> {
    let to: FileStatus;
    try {
      to = nextState(documentFile, file.status, action as never, actor);
    } catch (err) {
      if (err instanceof TransitionError) throw stateRefusal(action, file.status);
      throw err;
    }
    const row = await db
      .updateTable('trans_file_files')
      .set({ ...(set as object), status: to, updated_at: sql`now()` } as never)
      .where('id', '=', file.id)
      .where('status', '=', file.status)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      // Someone moved it first: tell the caller what it is now.
      const now = await byId(file.id);
      if (!now) throw notFound(file.id);
      throw stateRefusal(action, now.status);
    }
    await publish(row);
    return row;
  }

  /** The same move by the platform itself, silent when the file moved on meanwhile (returns undefined). */
  async function systemMove(id: number, action: string, set: Partial<Record<keyof FilesTable, unknown>> = {}): Promise<File | undefined> {
    const file = await byId(id);
    if (!file) return undefined;
    try {
      return await move(file, action, 'system', set);
    } catch (err) {
      if (err instanceof ApiError && (err.code === Codes.CONFLICT || err.code === Codes.NOT_FOUND)) return undefined;
      throw err;
    }
  }

  /** Changes columns other than the status, only while the file is in one of `states`. */
  async function update(id: number, states: FileStatus[], set: Partial<Record<keyof FilesTable, unknown>>): Promise<File | undefined> {
    const row = await db
      .updateTable('trans_file_files')
      .set({ ...(set as object), updated_at: sql`now()` } as never)
      .where('id', '=', id)
      .where('status', 'in', states)
      .returningAll()
      .executeTakeFirst();
    await publish(row);
    return row;
  }

  /**
   * One writer per file: the result (and its PDF and rendered pages) is written by one edit, retry,
   * deletion or preview at a time, each reading the stored units and the row afresh inside, so the
   * last write holds every edit answered before it and no write lands in a file retried or deleted
   * meanwhile. Readers wait for the writes under way (`settled`), so a download never serves a result
   * older than the paragraphs the preview already shows. Per server: one instance owns its files' disk.
   */
  const writing = new Map<number, Promise<void>>();
  async function exclusive<T>(id: number, fn: () => Promise<T>): Promise<T> {
    const before = writing.get(id) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before.then(() => mine);
    writing.set(id, tail);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (writing.get(id) === tail) writing.delete(id);
    }
  }
  /** Resolves once every write of the file begun before this call is done. */
  const settled = (id: number): Promise<void> => writing.get(id) ?? Promise.resolve();

  return { db, byId, forCaller, move, systemMove, update, publish, exclusive, settled };
}

export type Store = ReturnType<typeof createStore>;
