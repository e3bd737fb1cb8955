import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { ApiError, Codes, idList, iso, like, pageOf, pageOffset, pageQuery, pageSchema, personName, say, timestampSchema, type Caller, type ServerPluginContext } from '@linguaport/sdk/server';
import { idSchema, platformLanguage } from '@linguaport/sdk/shared';
import { corpusFields, pairSchema } from '../shared/schemas.js';
import type { CorpusDatabase } from './tables.js';

type Headers = Record<string, string | string[] | undefined>;

export const KEYS = { view: 'corpus:view', edit: 'corpus:edit', manage: 'corpus:manage' } as const;

/**
 * Whose corpus is whose. A corpus belongs to its owner; `corpus:manage` reaches every one. Anyone else
 * is told it does not exist (404), as the documents area answers for another user's file.
 */
export function corpusAccess(ctx: ServerPluginContext, db: Kysely<CorpusDatabase>) {
  return {
    mayReachAll: (caller: Caller) => ctx.auth.can(caller, KEYS.manage),
    async get(caller: Caller, id: number, headers: Headers) {
      const row = await db.selectFrom('corpus_corpora').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || (row.owner_id !== caller.userId && !ctx.auth.can(caller, KEYS.manage))) {
        throw new ApiError(Codes.NOT_FOUND, say(headers, `语料 ${id} 不存在`, `Corpus ${id} not found`));
      }
      return row;
    },
    /** The pairs' count after a change, and the corpus marked changed. */
    async recount(corpusId: number, trx: Kysely<CorpusDatabase> = db) {
      await trx
        .updateTable('corpus_corpora')
        .set({ pair_count: sql<number>`(select count(*) from corpus_pairs where corpus_id = ${corpusId})`, updated_at: new Date() })
        .where('id', '=', corpusId)
        .execute();
    },
  };
}
export type CorpusAccess = ReturnType<typeof corpusAccess>;

function differentLanguages(body: { sourceLang: string; targetLang: string }, headers: Headers) {
  if (platformLanguage(body.sourceLang) === platformLanguage(body.targetLang)) throw new ApiError(Codes.BAD_REQUEST, say(headers, '源语言和目标语言不能相同', 'The source and target languages must differ'));
}

type CorpusRow = { id: number; name: string; source_lang: string; target_lang: string; domain: string | null; owner_id: number; pair_count: number; created_at: Date; updated_at: Date };

const view = (r: CorpusRow, ownerName: string | null) => ({
  id: r.id,
  name: r.name,
  sourceLang: r.source_lang,
  targetLang: r.target_lang,
  domain: r.domain,
  ownerId: r.owner_id,
  ownerName,
  pairs: r.pair_count,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** A corpus as every route answers it. */
export const corpusSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sourceLang: z.string(),
  targetLang: z.string(),
  domain: z.string().nullable(),
  ownerId: z.number().int(),
  ownerName: z.string().nullable().describe("The owner's real name, else account name (null for a user since deleted)"),
  pairs: z.number().int().min(0),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

/** A pair of a corpus; `flags` name what cleaning found in it (empty when nothing). */
export const corpusPairSchema = z.object({ id: z.number().int(), source: z.string(), target: z.string(), position: z.number().int(), flags: z.array(z.string()) });

const pairView = (p: { id: number; source: string; target: string; position: number; flags: string[] }) => ({ id: p.id, source: p.source, target: p.target, position: p.position, flags: p.flags ?? [] });

export function corpusRoutes(ctx: ServerPluginContext, db: Kysely<CorpusDatabase>, access: CorpusAccess) {
  // Every answer names the owner, not only their id.
  const present = async (rows: CorpusRow[]) => {
    const owners = await ctx.users.names(rows.map((r) => r.owner_id));
    return rows.map((r) => view(r, personName(owners.get(r.owner_id))));
  };
  const presentOne = async (row: CorpusRow) => (await present([row]))[0]!;

  ctx.route({
    method: 'GET',
    url: '/corpus/list',
    access: { permission: KEYS.view },
    summary: 'List corpora (own ones; every one with corpus:manage)',
    schema: { query: z.object({ ...pageQuery, name: z.string().trim().optional(), sourceLang: z.string().trim().optional(), targetLang: z.string().trim().optional(), domain: z.string().trim().optional() }) },
    response: { data: pageSchema(corpusSchema) },
    async handler({ query, caller }) {
      let q = db.selectFrom('corpus_corpora');
      if (!access.mayReachAll(caller!)) q = q.where('owner_id', '=', caller!.userId);
      if (query.name) q = q.where('name', 'ilike', like(query.name));
      if (query.sourceLang) q = q.where('source_lang', '=', platformLanguage(query.sourceLang));
      if (query.targetLang) q = q.where('target_lang', '=', platformLanguage(query.targetLang));
      if (query.domain) q = q.where('domain', '=', query.domain);
      const [rows, total] = await Promise.all([
        q.selectAll().orderBy('id', 'desc').limit(query.pageSize).offset(pageOffset(query)).execute(),
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
      ]);
      return pageOf(query, await present(rows), total?.n);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/corpus/detail',
    access: { permission: KEYS.view },
    summary: 'One corpus',
    schema: { query: z.object({ id: idSchema }) },
    response: { data: corpusSchema, errors: [404] },
    handler: async ({ query, caller, headers }) => presentOne(await access.get(caller!, query.id, headers)),
  });

  ctx.route({
    method: 'POST',
    url: '/corpus/add',
    access: { permission: KEYS.edit },
    summary: 'Create a corpus',
    schema: { body: corpusFields },
    response: { data: corpusSchema },
    async handler({ body, caller, headers }) {
      differentLanguages(body, headers);
      const row = await db
        .insertInto('corpus_corpora')
        .values({ name: body.name, source_lang: platformLanguage(body.sourceLang), target_lang: platformLanguage(body.targetLang), domain: body.domain, owner_id: caller!.userId })
        .returningAll()
        .executeTakeFirstOrThrow();
      return presentOne(row);
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/corpus/update',
    access: { permission: KEYS.edit },
    summary: 'Change a corpus: name, languages, domain',
    schema: { body: corpusFields.extend({ id: idSchema }) },
    response: { data: corpusSchema, errors: [404] },
    async handler({ body, caller, headers }) {
      await access.get(caller!, body.id, headers);
      differentLanguages(body, headers);
      const row = await db
        .updateTable('corpus_corpora')
        .set({ name: body.name, source_lang: platformLanguage(body.sourceLang), target_lang: platformLanguage(body.targetLang), domain: body.domain, updated_at: new Date() })
        .where('id', '=', body.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return presentOne(row);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/corpus/delete',
    access: { permission: KEYS.edit },
    summary: 'Delete a corpus with its pairs, reports and drafts (the console confirms first)',
    schema: { query: z.object({ id: idSchema }) },
    response: { data: z.null(), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.get(caller!, query.id, headers);
      await db.deleteFrom('corpus_corpora').where('id', '=', query.id).execute();
      return null;
    },
  });

  ctx.route({
    method: 'GET',
    url: '/corpus/pair/list',
    access: { permission: KEYS.view },
    summary: 'List the pairs of a corpus, searching source and target',
    schema: { query: z.object({ ...pageQuery, corpusId: idSchema, text: z.string().trim().optional(), flagged: z.enum(['true', 'false']).optional() }) },
    response: { data: pageSchema(corpusPairSchema), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.get(caller!, query.corpusId, headers);
      let q = db.selectFrom('corpus_pairs').where('corpus_id', '=', query.corpusId);
      if (query.text) {
        const pattern = like(query.text);
        q = q.where((eb) => eb.or([eb('source', 'ilike', pattern), eb('target', 'ilike', pattern)]));
      }
      if (query.flagged === 'true') q = q.where(sql<boolean>`jsonb_array_length(flags) > 0`);
      const [rows, total] = await Promise.all([
        q.selectAll().orderBy('position').orderBy('id').limit(query.pageSize).offset(pageOffset(query)).execute(),
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
      ]);
      return pageOf(query, rows.map(pairView), total?.n);
    },
  });

  ctx.route({
    method: 'PUT',
    url: '/corpus/pair/update',
    access: { permission: KEYS.edit },
    summary: 'Edit a pair',
    schema: { body: z.intersection(z.object({ id: idSchema }), pairSchema) },
    response: { data: corpusPairSchema, errors: [404] },
    async handler({ body, caller, headers }) {
      const pair = await db.selectFrom('corpus_pairs').select(['corpus_id']).where('id', '=', body.id).executeTakeFirst();
      if (!pair) throw new ApiError(Codes.NOT_FOUND, say(headers, `语料对 ${body.id} 不存在`, `Pair ${body.id} not found`));
      await access.get(caller!, pair.corpus_id, headers);
      if (!body.source || !body.target) throw new ApiError(Codes.BAD_REQUEST, say(headers, '原文和译文都不能为空', 'Neither the source nor the target may be empty'));
      const row = await db.updateTable('corpus_pairs').set({ source: body.source, target: body.target, flags: '[]', updated_at: new Date() }).where('id', '=', body.id).returningAll().executeTakeFirstOrThrow();
      await access.recount(pair.corpus_id);
      return pairView(row);
    },
  });

  ctx.route({
    method: 'DELETE',
    url: '/corpus/pair/delete',
    access: { permission: KEYS.edit },
    summary: 'Delete pairs of one corpus (ids comma-separated)',
    schema: { query: z.object({ corpusId: idSchema, ids: idList }) },
    response: { data: z.object({ deleted: z.number().int() }), errors: [404] },
    async handler({ query, caller, headers }) {
      await access.get(caller!, query.corpusId, headers);
      const gone = await db.deleteFrom('corpus_pairs').where('corpus_id', '=', query.corpusId).where('id', 'in', query.ids).executeTakeFirst();
      await access.recount(query.corpusId);
      return { deleted: Number(gone.numDeletedRows) };
    },
  });
}
