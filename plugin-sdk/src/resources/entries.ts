import { z } from 'zod';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { ApiError, Codes, type Caller, type ServerPluginContext } from '../server/index.js';
import { idList, like, pageOf, pageOffset, pageQuery, pageSchema, personName, say, timestampSchema } from '../server/helpers.js';
import { idSchema, termSourceSchema, termTranslationSchema } from '../shared/checks.js';
import { languageTag, languageTagSchema } from '../shared/language-tags.js';
import { canTake, nextState } from '../shared/state-machine.js';
import { entryReview } from '../shared/states.js';
import { blocking, checkTags, qaRefusal } from '../shared/qa/tags.js';
import type { LibraryAccess } from './libraries.js';

/**
 * Entries of a library: paged lists with search and sorting, add (optionally both ways), edit, delete,
 * and review as the SDK's `entryReview` machine says (pass and reject only unchecked entries, enable
 * and disable only checked ones). Every review action and edit is recorded with the entry before and
 * after (`<history route>/list`), and a review tells the entry's creator through a `check` message.
 *
 * The columns every entry table has are the kit's; the area adds its own (a memory's quality and
 * exact-match key, a term's forbidden flag and part of speech) through an `EntryKind`.
 */

/** The columns every area's entry table has. */
export interface EntryRow {
  id: number;
  library_id: number;
  source: string;
  target: string;
  source_lang: string;
  target_lang: string;
  status: 'unchecked' | 'checked' | 'failed';
  enabled: boolean;
  creator_id: number;
  created_at: Date | string;
  [column: string]: unknown;
}

/** An entry's language: a BCP 47 tag, kept with its variant and case-normalised (`en-GB`, `zh-Hans-CN`). */
export const entryLanguage = languageTagSchema;

/** The texts of an entry as the spec checks them (section 5), up to `max` characters. */
export const entryTexts = (max: number) => ({
  source: termSourceSchema.pipe(z.string().max(max)),
  target: termTranslationSchema.pipe(z.string().max(max)),
});

/** What an area adds to the kit's entries. */
export interface EntryKind<F extends z.ZodRawShape = z.ZodRawShape> {
  /** Fields an add or an edit may send besides source, target and languages (all optional on an edit). */
  fields: F;
  /** The area's columns for an entry being added (`before` undefined) or edited. */
  columns(input: { source: string; target: string; sourceLang?: string; targetLang?: string } & { [K in keyof F]?: z.output<F[K]> }, before?: EntryRow): Record<string, unknown>;
  /** The area's fields of an entry as the API answers it, and their response schema. */
  view(row: EntryRow): Record<string, unknown>;
  viewFields: z.ZodRawShape;
  /** More sort keys of the list (API name to column). */
  sortable?: Record<string, string>;
  /** More list filters: their query fields, and how they narrow the query. */
  filters?: { fields: z.ZodRawShape; apply(q: SelectQueryBuilder<any, any, any>, query: Record<string, unknown>): SelectQueryBuilder<any, any, any> };
  /** Longest source or translation, in characters. */
  maxLength: number;
  /**
   * The texts carry inline placeholders (`<1>`…`</1>`, `<2/>`: memories): an add or an edit whose
   * target's tags do not match its source's is refused (400, naming the tag) and nothing is written.
   */
  tagged?: boolean;
}

export const baseEntryView = (r: EntryRow) => ({
  id: r.id,
  libraryId: r.library_id,
  source: r.source,
  target: r.target,
  sourceLang: r.source_lang,
  targetLang: r.target_lang,
  status: r.status,
  enabled: r.enabled,
  creatorId: r.creator_id,
  createdAt: new Date(r.created_at).toISOString(),
});

/** The kit's fields of an entry as the API answers it (`baseEntryView`). */
export const baseEntrySchema = z.object({
  id: z.number().int(),
  libraryId: z.number().int(),
  source: z.string(),
  target: z.string(),
  sourceLang: z.string(),
  targetLang: z.string(),
  status: z.enum(entryReview.states),
  enabled: z.boolean(),
  creatorId: z.number().int(),
  createdAt: timestampSchema,
});

const SORTABLE = { createdAt: 'created_at', source: 'source', target: 'target', status: 'status' } as const;

const REVIEW_TEXT: Record<string, [string, string]> = {
  pass: ['通过', 'passed'],
  reject: ['驳回', 'rejected'],
  enable: ['启用', 'enabled'],
  disable: ['停用', 'disabled'],
};

export type HistoryRecord = { library_id: number; entry_id: number; action: string; before: unknown; after: unknown };

/** Writes history rows of an area (in the caller's transaction). */
export const historyWriter =
  (table: string) =>
  (trx: Kysely<any>, rows: HistoryRecord[], actor: number): Promise<unknown> =>
    rows.length
      ? trx
          .insertInto(table)
          .values(rows.map((r) => ({ library_id: r.library_id, entry_id: r.entry_id, action: r.action, actor_id: actor, before: r.before === null ? null : JSON.stringify(r.before), after: r.after === null ? null : JSON.stringify(r.after) })))
          .execute()
      : Promise.resolve();

export interface EntryRouteOptions<F extends z.ZodRawShape> {
  ctx: ServerPluginContext;
  db: Kysely<any>;
  access: LibraryAccess;
  routes: string;
  historyRoute: string;
  keys: { view: string; add: string; edit: string; delete: string; review: string };
  kind: EntryKind<F>;
  changed: (libraryId: number) => void;
}

export function entryRoutes<F extends z.ZodRawShape>({ ctx, db, access, routes, historyRoute, keys, kind, changed }: EntryRouteOptions<F>) {
  const t = access.tables;
  const noun = access.noun;
  const record = historyWriter(t.history);
  const view = (r: EntryRow) => ({ ...baseEntryView(r), ...kind.view(r) });
  const entrySchema = baseEntrySchema.extend(kind.viewFields);
  const historySchema = z.object({
    id: z.number().int(),
    entryId: z.number().int(),
    action: z.string().describe('add, edit, delete, pass, reject, enable, disable or import'),
    actorId: z.number().int(),
    actorName: z.string().nullable().describe("The person who acted: real name, else account name (null for a user since deleted)"),
    at: timestampSchema,
    before: z.record(z.string(), z.unknown()).nullable().describe('The entry as it was (null for an add)'),
    after: z.record(z.string(), z.unknown()).nullable().describe('The entry as it became (null for a delete)'),
  });
  const sortable: Record<string, string> = { ...SORTABLE, ...kind.sortable };
  const texts = entryTexts(kind.maxLength);
  const addBody = z.object({ libraryId: idSchema, ...texts, sourceLang: entryLanguage, targetLang: entryLanguage, ...kind.fields, bidirectional: z.boolean().default(false) });
  const optionalFields = Object.fromEntries(Object.entries(kind.fields).map(([k, v]) => [k, (v as z.ZodType).optional()])) as z.ZodRawShape;
  const updateBody = z.object({ id: idSchema, ...texts, ...optionalFields });

  /** A broken pair of tags would go into every translation the entry matches: refused before anything is written. */
  const refuseBrokenTags = (source: string, target: string) => {
    if (!kind.tagged) return;
    const problems = blocking(checkTags(source, target));
    if (problems.length) throw new ApiError(Codes.BAD_REQUEST, qaRefusal(problems));
  };

  /** The entries with their libraries, each checked for the right the action needs. */
  const entriesFor = async (caller: Caller, ids: number[], need: 'use' | 'edit', headers: Record<string, unknown>) => {
    const rows = (await db.selectFrom(t.entries).selectAll().where('id', 'in', ids).execute()) as EntryRow[];
    if (rows.length !== new Set(ids).size) throw new ApiError(Codes.NOT_FOUND, say(headers as never, '部分条目不存在', 'Some of the entries do not exist'));
    for (const libraryId of new Set(rows.map((r) => r.library_id))) await access.assert(caller, libraryId, need, headers);
    return rows;
  };

  ctx.route({
    method: 'GET',
    url: `${routes}/entry/list`,
    access: { permission: keys.view },
    summary: `List the entries of a ${noun.en}`,
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
        ...kind.filters?.fields,
        sortBy: z.enum(Object.keys(sortable) as [string, ...string[]]).default('createdAt'),
        sortOrder: z.enum(['asc', 'desc']).default('desc'),
      }),
    },
    response: { data: pageSchema(entrySchema), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.assert(caller!, query.libraryId, 'use', headers);
      let q = db.selectFrom(t.entries).where('library_id', '=', query.libraryId);
      if (query.text) q = q.where((eb) => eb.or([eb('source', 'ilike', like(query.text!)), eb('target', 'ilike', like(query.text!))]));
      if (query.status) q = q.where('status', '=', query.status);
      if (query.sourceLang) q = q.where('source_lang', '=', languageTag(query.sourceLang) ?? query.sourceLang);
      if (query.targetLang) q = q.where('target_lang', '=', languageTag(query.targetLang) ?? query.targetLang);
      if (query.creatorId) q = q.where('creator_id', '=', query.creatorId);
      if (query.from) q = q.where('created_at', '>=', new Date(query.from));
      if (query.to) q = q.where('created_at', '<=', new Date(query.to));
      if (kind.filters) q = kind.filters.apply(q, query as Record<string, unknown>);
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = (await q.selectAll().orderBy(sortable[query.sortBy]!, query.sortOrder).orderBy('id', query.sortOrder).limit(query.pageSize).offset(pageOffset(query)).execute()) as EntryRow[];
      return pageOf(query, rows.map(view), total.n);
    },
  });

  ctx.route({
    method: 'POST',
    url: `${routes}/entry/add`,
    access: { permission: keys.add },
    summary: 'Add an entry (and its reverse, when asked)',
    schema: { body: addBody },
    response: { data: z.array(entrySchema).describe('The entry, and its reverse when asked'), errors: [400, 404] },
    async handler({ body, caller, headers }) {
      const b = body as { libraryId: number; source: string; target: string; sourceLang: string; targetLang: string; bidirectional: boolean } & Record<string, unknown>;
      await access.assert(caller!, b.libraryId, 'edit', headers);
      if (b.sourceLang === b.targetLang) throw new ApiError(Codes.BAD_REQUEST, say(headers, '源语言和目标语言不能相同', 'The source and target languages must differ'));
      const extra = Object.fromEntries(Object.keys(kind.fields).map((k) => [k, b[k]]));
      const rows = [{ source: b.source, target: b.target, sourceLang: b.sourceLang, targetLang: b.targetLang }];
      if (b.bidirectional) rows.push({ source: b.target, target: b.source, sourceLang: b.targetLang, targetLang: b.sourceLang });
      for (const r of rows) refuseBrokenTags(r.source, r.target);
      const added = await db.transaction().execute(async (trx) => {
        const inserted = (await trx
          .insertInto(t.entries)
          .values(rows.map((r) => ({ library_id: b.libraryId, source: r.source, target: r.target, source_lang: r.sourceLang, target_lang: r.targetLang, ...kind.columns({ ...extra, source: r.source, target: r.target, sourceLang: r.sourceLang, targetLang: r.targetLang } as never), creator_id: caller!.userId })))
          .returningAll()
          .execute()) as EntryRow[];
        await record(trx, inserted.map((e) => ({ library_id: e.library_id, entry_id: e.id, action: 'add', before: null, after: view(e) })), caller!.userId);
        return inserted;
      });
      changed(b.libraryId);
      return added.map(view);
    },
  });

  ctx.route({
    method: 'PUT',
    url: `${routes}/entry/update`,
    access: { permission: keys.edit },
    summary: "Change an entry's texts (it goes back for review)",
    schema: { body: updateBody },
    response: { data: entrySchema, errors: [400, 404] },
    async handler({ body, caller, headers }) {
      const b = body as { id: number; source: string; target: string } & Record<string, unknown>;
      const [entry] = await entriesFor(caller!, [b.id], 'edit', headers);
      refuseBrokenTags(b.source, b.target);
      const status = nextState(entryReview, entry!.status, 'edit');
      const updated = await db.transaction().execute(async (trx) => {
        const row = (await trx
          .updateTable(t.entries)
          .set({ source: b.source, target: b.target, ...kind.columns(b as never, entry), status, updated_at: new Date() })
          .where('id', '=', b.id)
          .returningAll()
          .executeTakeFirstOrThrow()) as EntryRow;
        await record(trx, [{ library_id: row.library_id, entry_id: row.id, action: 'edit', before: view(entry!), after: view(row) }], caller!.userId);
        return row;
      });
      changed(updated.library_id);
      return view(updated);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: `${routes}/entry/delete`,
    access: { permission: keys.delete },
    summary: 'Delete entries',
    schema: { query: z.object({ ids: idList }) },
    response: { data: z.object({ deleted: z.number().int() }), errors: [404] },
    async handler({ query, caller, headers }) {
      const rows = await entriesFor(caller!, query.ids, 'edit', headers);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom(t.entries).where('id', 'in', query.ids).execute();
        await record(trx, rows.map((r) => ({ library_id: r.library_id, entry_id: r.id, action: 'delete', before: view(r), after: null })), caller!.userId);
      });
      for (const libraryId of new Set(rows.map((r) => r.library_id))) changed(libraryId);
      return { deleted: rows.length };
    },
  });

  ctx.route({
    method: 'POST',
    url: `${routes}/entry/review`,
    access: { permission: keys.review },
    summary: 'Pass, reject, enable or disable entries',
    schema: { body: z.object({ ids: z.array(idSchema).min(1).max(1000), action: z.enum(['pass', 'reject', 'enable', 'disable']) }) },
    response: { data: z.array(entrySchema), errors: [404] },
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
        const updated = (await trx.updateTable(t.entries).set(set).where('id', 'in', body.ids).returningAll().execute()) as EntryRow[];
        const before = new Map(rows.map((r) => [r.id, r]));
        await record(trx, updated.map((u) => ({ library_id: u.library_id, entry_id: u.id, action: body.action, before: view(before.get(u.id)!), after: view(u) })), caller!.userId);
        return updated;
      });
      // Each creator hears once about their entries.
      const byCreator = new Map<number, EntryRow[]>();
      for (const r of after) if (r.creator_id !== caller!.userId) byCreator.set(r.creator_id, [...(byCreator.get(r.creator_id) ?? []), r]);
      const [zh, en] = REVIEW_TEXT[body.action]!;
      for (const [creator, list] of byCreator) {
        // Both languages stored apart: each reader gets the notice whole, in their language.
        const sources = list.slice(0, 3).map((r) => r.source).join(' | ');
        await ctx.messages.send({
          userIds: [creator],
          type: 'check',
          content: {
            'zh-CN': `${caller!.username} ${zh}了 ${list.length} 条${noun.entryZh}：${sources}`,
            'en-US': `${caller!.username} ${en} ${list.length} ${list.length === 1 ? noun.entryEn : noun.entriesEn}: ${sources}`,
          },
        });
      }
      for (const libraryId of new Set(after.map((r) => r.library_id))) changed(libraryId);
      return after.map(view);
    },
  });

  ctx.route({
    method: 'GET',
    url: `${historyRoute}/list`,
    access: { permission: keys.view },
    summary: `The review and edit history of a ${noun.en}`,
    schema: { query: z.object({ ...pageQuery, libraryId: idSchema, action: z.string().trim().max(20).optional() }) },
    response: { data: pageSchema(historySchema), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.assert(caller!, query.libraryId, 'use', headers);
      let q = db.selectFrom(t.history).where('library_id', '=', query.libraryId);
      if (query.action) q = q.where('action', '=', query.action);
      const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const rows = await q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute();
      const actors = await ctx.users.names(rows.map((r) => r.actor_id));
      return pageOf(
        query,
        rows.map((r) => ({ id: r.id, entryId: r.entry_id, action: r.action, actorId: r.actor_id, actorName: personName(actors.get(r.actor_id)), at: new Date(r.at).toISOString(), before: r.before, after: r.after })),
        total.n,
      );
    },
  });
}
