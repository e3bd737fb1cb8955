import { z } from 'zod';
import type { Kysely, Selectable } from 'kysely';
import { ApiError, Codes, idList, like, pageOf, pageOffset, pageQuery, say, type Caller, type ServerPluginContext } from '@linguaport/sdk/server';
import { canTake, entryReview, idSchema, nextState, termSourceSchema, termTranslationSchema } from '@linguaport/sdk/shared';
import type { Libraries } from './libraries.js';
import { exactKey } from './match/text.js';
import type { TmDatabase } from './tables.js';

/**
 * Entries of a memory: paged lists with search and sorting, add (optionally both ways), edit, delete,
 * and review as the SDK's `entryReview` machine says (pass and reject only unchecked entries, enable
 * and disable only checked ones). Every review action and edit is recorded with the entry before and
 * after (`/TMHistory`), and a review tells the entry's creator through a `check` message.
 */

const lang = z.string().trim().min(2, 'validation.required').max(20);

export const entryInput = z.object({
  libraryId: idSchema,
  source: termSourceSchema.pipe(z.string().max(10_000)),
  target: termTranslationSchema.pipe(z.string().max(10_000)),
  sourceLang: lang,
  targetLang: lang,
  quality: z.number().int().min(0).max(100).nullable().optional(),
  bidirectional: z.boolean().default(false),
});

type EntryRow = Selectable<TmDatabase['tm_entries']>;

export const entryView = (r: Pick<EntryRow, 'id' | 'library_id' | 'source' | 'target' | 'source_lang' | 'target_lang' | 'status' | 'enabled' | 'quality' | 'creator_id' | 'created_at'>) => ({
  id: r.id,
  libraryId: r.library_id,
  source: r.source,
  target: r.target,
  sourceLang: r.source_lang,
  targetLang: r.target_lang,
  status: r.status,
  enabled: r.enabled,
  quality: r.quality,
  creatorId: r.creator_id,
  createdAt: new Date(r.created_at as unknown as string).toISOString(),
});

const SORTABLE = { createdAt: 'created_at', source: 'source', target: 'target', status: 'status', quality: 'quality' } as const;

const REVIEW_TEXT: Record<string, [string, string]> = {
  pass: ['通过', 'passed'],
  reject: ['驳回', 'rejected'],
  enable: ['启用', 'enabled'],
  disable: ['停用', 'disabled'],
};

export function entryRoutes(ctx: ServerPluginContext, db: Kysely<TmDatabase>, libraries: Libraries, keys: { view: string; add: string; edit: string; delete: string; review: string }, changed: (libraryId: number) => void) {
  const record = (trx: Kysely<TmDatabase>, rows: Array<{ library_id: number; entry_id: number; action: string; before: unknown; after: unknown }>, actor: number) =>
    rows.length
      ? trx
          .insertInto('tm_history')
          .values(rows.map((r) => ({ library_id: r.library_id, entry_id: r.entry_id, action: r.action, actor_id: actor, before: r.before === null ? null : JSON.stringify(r.before), after: r.after === null ? null : JSON.stringify(r.after) })))
          .execute()
      : Promise.resolve();

  /** The entries with their memories, each checked for the right the action needs. */
  const entriesFor = async (caller: Caller, ids: number[], need: 'use' | 'edit', headers: Record<string, unknown>) => {
    const rows = await db.selectFrom('tm_entries').selectAll().where('id', 'in', ids).execute();
    if (rows.length !== new Set(ids).size) throw new ApiError(Codes.NOT_FOUND, say(headers as never, '部分条目不存在', 'Some of the entries do not exist'));
    for (const libraryId of new Set(rows.map((r) => r.library_id))) await libraries.assert(caller, libraryId, need, headers);
    return rows as EntryRow[];
  };

  ctx.route({
    method: 'GET',
    url: '/TM/entry/list',
    access: { permission: keys.view },
    summary: 'List the entries of a memory',
    schema: {
      query: z.object({
        ...pageQuery,
        libraryId: idSchema,
        text: z.string().trim().max(200).optional(),
        status: z.enum(['unchecked', 'checked', 'failed']).optional(),
        sourceLang: z.string().trim().max(20).optional(),
        targetLang: z.string().trim().max(20).optional(),
        creatorId: idSchema.optional(),
        from: z.iso.datetime({ offset: true }).optional(),
        to: z.iso.datetime({ offset: true }).optional(),
        sortBy: z.enum(Object.keys(SORTABLE) as [keyof typeof SORTABLE]).default('createdAt'),
        sortOrder: z.enum(['asc', 'desc']).default('desc'),
      }),
    },
    async handler({ query, caller, headers }) {
      await libraries.assert(caller!, query.libraryId, 'use', headers);
      let q = db.selectFrom('tm_entries').where('library_id', '=', query.libraryId);
      if (query.text) q = q.where((eb) => eb.or([eb('source', 'ilike', like(query.text!)), eb('target', 'ilike', like(query.text!))]));
      if (query.status) q = q.where('status', '=', query.status);
      if (query.sourceLang) q = q.where('source_lang', '=', query.sourceLang);
      if (query.targetLang) q = q.where('target_lang', '=', query.targetLang);
      if (query.creatorId) q = q.where('creator_id', '=', query.creatorId);
      if (query.from) q = q.where('created_at', '>=', new Date(query.from) as never);
      if (query.to) q = q.where('created_at', '<=', new Date(query.to) as never);
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q.selectAll().orderBy(SORTABLE[query.sortBy], query.sortOrder).orderBy('id', query.sortOrder).limit(query.pageSize).offset(pageOffset(query)).execute();
      return pageOf(query, rows.map((r) => entryView(r as EntryRow)), total.n);
    },
  });

  ctx.route({
    method: 'POST',
    url: '/TM/entry/add',
    access: { permission: keys.add },
    summary: 'Add an entry (and its reverse, when asked)',
    schema: { body: entryInput },
    async handler({ body, caller, headers }) {
      await libraries.assert(caller!, body.libraryId, 'edit', headers);
      if (body.sourceLang === body.targetLang) throw new ApiError(Codes.BAD_REQUEST, say(headers, '源语言和目标语言不能相同', 'The source and target languages must differ'));
      const rows = [{ source: body.source, target: body.target, sourceLang: body.sourceLang, targetLang: body.targetLang }];
      if (body.bidirectional) rows.push({ source: body.target, target: body.source, sourceLang: body.targetLang, targetLang: body.sourceLang });
      const added = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('tm_entries')
          .values(rows.map((r) => ({ library_id: body.libraryId, source: r.source, target: r.target, source_lang: r.sourceLang, target_lang: r.targetLang, source_hash: exactKey(r.source), tags: '{}', quality: body.quality ?? null, creator_id: caller!.userId })))
          .returningAll()
          .execute();
        await record(trx, inserted.map((e) => ({ library_id: e.library_id, entry_id: e.id, action: 'add', before: null, after: entryView(e as EntryRow) })), caller!.userId);
        return inserted;
      });
      changed(body.libraryId);
      return added.map((e) => entryView(e as EntryRow));
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/TM/entry/update',
    access: { permission: keys.edit },
    summary: 'Change an entry\'s texts (it goes back for review)',
    schema: { body: z.object({ id: idSchema, source: entryInput.shape.source, target: entryInput.shape.target, quality: entryInput.shape.quality }) },
    async handler({ body, caller, headers }) {
      const [entry] = await entriesFor(caller!, [body.id], 'edit', headers);
      const status = nextState(entryReview, entry!.status, 'edit');
      const updated = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('tm_entries')
          .set({ source: body.source, target: body.target, source_hash: exactKey(body.source), quality: body.quality ?? entry!.quality, status, updated_at: new Date() })
          .where('id', '=', body.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await record(trx, [{ library_id: row.library_id, entry_id: row.id, action: 'edit', before: entryView(entry!), after: entryView(row as EntryRow) }], caller!.userId);
        return row;
      });
      changed(updated.library_id);
      return entryView(updated as EntryRow);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/TM/entry/delete',
    access: { permission: keys.delete },
    summary: 'Delete entries',
    schema: { query: z.object({ ids: idList }) },
    async handler({ query, caller, headers }) {
      const rows = await entriesFor(caller!, query.ids, 'edit', headers);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('tm_entries').where('id', 'in', query.ids).execute();
        await record(trx, rows.map((r) => ({ library_id: r.library_id, entry_id: r.id, action: 'delete', before: entryView(r), after: null })), caller!.userId);
      });
      for (const libraryId of new Set(rows.map((r) => r.library_id))) changed(libraryId);
      return { deleted: rows.length };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/TM/entry/review',
    access: { permission: keys.review },
    summary: 'Pass, reject, enable or disable entries',
    schema: { body: z.object({ ids: z.array(idSchema).min(1).max(1000), action: z.enum(['pass', 'reject', 'enable', 'disable']) }) },
    async handler({ body, caller, headers }) {
      const rows = await entriesFor(caller!, body.ids, 'edit', headers);
      // All or nothing: one entry the action does not apply to refuses the batch, naming it.
      const refused = rows.filter((r) => !canTake(entryReview, r.status, body.action));
      if (refused.length) {
        throw new ApiError(
          Codes.BAD_REQUEST,
          say(headers, `条目 ${refused.map((r) => r.id).join(', ')} 的状态不允许该操作（通过和驳回只用于未审核条目，启用和停用只用于已审核条目）`, `Entries ${refused.map((r) => r.id).join(', ')} cannot be ${REVIEW_TEXT[body.action]![1]}: pass and reject apply to unchecked entries, enable and disable to checked ones`),
        );
      }
      const after = await db.transaction().execute(async (trx) => {
        const set = body.action === 'enable' || body.action === 'disable' ? { enabled: body.action === 'enable', updated_at: new Date() } : { status: nextState(entryReview, 'unchecked', body.action), updated_at: new Date() };
        const updated = (await trx.updateTable('tm_entries').set(set).where('id', 'in', body.ids).returningAll().execute()) as EntryRow[];
        const before = new Map(rows.map((r) => [r.id, r]));
        await record(trx, updated.map((u) => ({ library_id: u.library_id, entry_id: u.id, action: body.action, before: entryView(before.get(u.id)!), after: entryView(u) })), caller!.userId);
        return updated;
      });
      // Each creator hears once about their entries.
      const byCreator = new Map<number, EntryRow[]>();
      for (const r of after) if (r.creator_id !== caller!.userId) byCreator.set(r.creator_id, [...(byCreator.get(r.creator_id) ?? []), r]);
      const [zh, en] = REVIEW_TEXT[body.action]!;
      for (const [creator, list] of byCreator) {
        await ctx.messages.send({ userIds: [creator], type: 'check', content: `${caller!.username} ${en} ${list.length} memory entr${list.length === 1 ? 'y' : 'ies'}: ${list.slice(0, 3).map((r) => r.source).join(' | ')} / ${caller!.username} ${zh}了 ${list.length} 条记忆条目` });
      }
      for (const libraryId of new Set(after.map((r) => r.library_id))) changed(libraryId);
      return after.map(entryView);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/TMHistory/list',
    access: { permission: keys.view },
    summary: 'The review and edit history of a memory',
    schema: { query: z.object({ ...pageQuery, libraryId: idSchema, action: z.string().trim().max(20).optional() }) },
    async handler({ query, caller, headers }) {
      await libraries.assert(caller!, query.libraryId, 'use', headers);
      let q = db.selectFrom('tm_history').where('library_id', '=', query.libraryId);
      if (query.action) q = q.where('action', '=', query.action);
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute();
      return pageOf(
        query,
        rows.map((r) => ({ id: r.id, entryId: r.entry_id, action: r.action, actorId: r.actor_id, at: new Date(r.at as unknown as string).toISOString(), before: r.before, after: r.after })),
        total.n,
      );
    },
  });
}
