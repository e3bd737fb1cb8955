import { sql, type Kysely, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, defineServerPlugin, idList, like, pageOf, pageOffset, pageQuery, pageSchema, timestampSchema } from '@linguaport/sdk/server';
import { idSchema } from '@linguaport/sdk/shared';
import { dictEntrySchema, dictTypeSchema } from '../shared/schemas.js';
import type { DictionaryDatabase } from './tables.js';

const idParam = z.object({ id: idSchema });

/** A type and an entry as the routes answer them (`toType`, `toEntry`). */
const typeAnswer = z.object({ id: z.number().int(), name: z.string(), code: z.string(), description: z.string(), enabled: z.boolean(), entryCount: z.number().int(), createdAt: timestampSchema });
const entryAnswer = z.object({ id: z.number().int(), typeId: z.number().int(), name: z.string(), code: z.string(), value: z.string(), sort: z.number().int(), description: z.string(), createdAt: timestampSchema });

type TypeRow = Selectable<DictionaryDatabase['dict_types']>;
type EntryRow = Selectable<DictionaryDatabase['dict_entries']>;

const toType = (r: TypeRow & { entry_count?: unknown }) => ({ id: r.id, name: r.name, code: r.code, description: r.description, enabled: r.enabled, entryCount: Number(r.entry_count ?? 0), createdAt: new Date(r.created_at).toISOString() });
const toEntry = (r: EntryRow) => ({ id: r.id, typeId: r.type_id, name: r.name, code: r.code, value: r.value, sort: r.sort, description: r.description, createdAt: new Date(r.created_at).toISOString() });

/** 409 naming the field when another row already has this name or code (within the scope given). */
async function refuseDuplicates(db: Kysely<DictionaryDatabase>, fields: { name: string; code: string }, scope: { typeId?: number; exceptId?: number }) {
  for (const field of ['code', 'name'] as const) {
    // Types are unique over all types, entries within their type; ids start at 1, so 0 excepts none.
    const except = scope.exceptId ?? 0;
    const taken = scope.typeId === undefined
      ? await db.selectFrom('dict_types').select('id').where(field, '=', fields[field]).where('id', '<>', except).executeTakeFirst()
      : await db.selectFrom('dict_entries').select('id').where(field, '=', fields[field]).where('type_id', '=', scope.typeId).where('id', '<>', except).executeTakeFirst();
    if (taken) throw new ApiError(Codes.CONFLICT, { 'zh-CN': `${field}: “${fields[field]}”已被使用`, 'en-US': `${field}: "${fields[field]}" is already used` });
  }
}

/** The data dictionary: types (unique name and code) and their entries, smaller sort first. */
export default defineServerPlugin<DictionaryDatabase>({
  migrations: [
    {
      name: '001_create_dictionary',
      async up(db) {
        await db.schema
          .createTable('dict_types')
          .addColumn('id', 'serial', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('code', 'text', (c) => c.notNull().unique())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
          .addColumn('created_by', 'integer')
          .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
        await db.schema
          .createTable('dict_entries')
          .addColumn('id', 'serial', (c) => c.primaryKey())
          .addColumn('type_id', 'integer', (c) => c.notNull().references('dict_types.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('sort', 'integer', (c) => c.notNull().check(sql`sort > 0`))
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .addUniqueConstraint('dict_entries_type_code', ['type_id', 'code'])
          .addUniqueConstraint('dict_entries_type_name', ['type_id', 'name'])
          .execute();
        await db.schema.createIndex('dict_entries_order').on('dict_entries').columns(['type_id', 'sort', 'id']).execute();
      },
    },
  ],

  setup(ctx) {
    const typeById = async (id: number) => {
      const row = await ctx.db.selectFrom('dict_types').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `字典类型 ${id} 不存在`, 'en-US': `Dictionary type ${id} does not exist` });
      return row;
    };

    ctx.route({
      method: 'GET',
      url: '/dictType/page',
      access: 'signed-in',
      summary: 'List dictionary types by page',
      schema: { query: z.object({ ...pageQuery, name: z.string().trim().optional(), code: z.string().trim().optional(), enabled: z.enum(['true', 'false']).optional() }) },
      response: { data: pageSchema(typeAnswer) },
      async handler({ query }) {
        let q = ctx.db.selectFrom('dict_types');
        if (query.name) q = q.where('name', 'ilike', like(query.name));
        if (query.code) q = q.where('code', 'ilike', like(query.code));
        if (query.enabled) q = q.where('enabled', '=', query.enabled === 'true');
        const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        const rows = await q
          .selectAll('dict_types')
          .select((eb) => eb.selectFrom('dict_entries').whereRef('dict_entries.type_id', '=', 'dict_types.id').select(eb.fn.countAll().as('c')).as('entry_count'))
          .orderBy('id', 'desc')
          .limit(query.pageSize)
          .offset(pageOffset(query))
          .execute();
        return pageOf(query, rows.map(toType), total.n);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/dictType/:id',
      access: 'signed-in',
      summary: 'Get a dictionary type',
      schema: { params: idParam },
      response: { data: typeAnswer, errors: [404] },
      async handler({ params }) {
        return toType(await typeById(params.id));
      },
    });

    ctx.route({
      method: 'POST',
      url: '/dictType/add',
      access: { permission: 'dictionary:add' },
      module: 'dictionary',
      summary: 'Add a dictionary type',
      schema: { body: dictTypeSchema },
      response: { data: z.object({ id: z.number().int() }), errors: [409] },
      async handler({ body, caller }) {
        await refuseDuplicates(ctx.db, body, {});
        const row = await ctx.db
          .insertInto('dict_types')
          .values({ name: body.name, code: body.code, description: body.description, enabled: body.enabled, created_by: caller?.userId ?? null })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: row.id };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/dictType/update',
      access: { permission: 'dictionary:edit' },
      module: 'dictionary',
      summary: 'Edit a dictionary type',
      schema: { body: dictTypeSchema.extend({ id: idSchema }) },
      response: { data: z.null(), errors: [404, 409] },
      async handler({ body }) {
        await typeById(body.id);
        await refuseDuplicates(ctx.db, body, { exceptId: body.id });
        await ctx.db.updateTable('dict_types').set({ name: body.name, code: body.code, description: body.description, enabled: body.enabled }).where('id', '=', body.id).execute();
        return null;
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/dictType/delete',
      access: { permission: 'dictionary:delete' },
      module: 'dictionary',
      summary: 'Delete dictionary types with their entries',
      schema: { query: z.object({ ids: idList }) },
      response: { data: z.object({ deleted: z.number().int() }) },
      async handler({ query }) {
        const ids = query.ids;
        const res = await ctx.db.deleteFrom('dict_types').where('id', 'in', ids).executeTakeFirst();
        return { deleted: Number(res.numDeletedRows) };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/dictData/page',
      access: 'signed-in',
      summary: 'List dictionary entries by page',
      schema: { query: z.object({ ...pageQuery, typeId: idSchema, name: z.string().trim().optional() }) },
      response: { data: pageSchema(entryAnswer), errors: [404] },
      async handler({ query }) {
        await typeById(query.typeId);
        let q = ctx.db.selectFrom('dict_entries').where('type_id', '=', query.typeId);
        if (query.name) q = q.where((eb) => eb.or([eb('name', 'ilike', like(query.name!)), eb('code', 'ilike', like(query.name!))]));
        const total = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        const rows = await q.selectAll().orderBy('sort').orderBy('id').limit(query.pageSize).offset(pageOffset(query)).execute();
        return pageOf(query, rows.map(toEntry), total.n);
      },
    });

    // Other areas read a dictionary by its code: the enabled type's entries, smaller sort first.
    ctx.route({
      method: 'GET',
      url: '/dictData/byCode/:code',
      access: 'signed-in',
      summary: 'List the entries of an enabled dictionary type',
      schema: { params: z.object({ code: z.string().min(1) }) },
      response: { data: z.array(entryAnswer), errors: [404] },
      async handler({ params }) {
        const type = await ctx.db.selectFrom('dict_types').select('id').where('code', '=', params.code).where('enabled', '=', true).executeTakeFirst();
        if (!type) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `没有已启用的字典类型 ${params.code}`, 'en-US': `No enabled dictionary type ${params.code}` });
        const rows = await ctx.db.selectFrom('dict_entries').selectAll().where('type_id', '=', type.id).orderBy('sort').orderBy('id').execute();
        return rows.map(toEntry);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/dictData/add',
      access: { permission: 'dictionary:add' },
      module: 'dictionary',
      summary: 'Add a dictionary entry',
      schema: { body: dictEntrySchema },
      response: { data: z.object({ id: z.number().int() }), errors: [404, 409] },
      async handler({ body }) {
        await typeById(body.typeId);
        await refuseDuplicates(ctx.db, body, { typeId: body.typeId });
        const row = await ctx.db
          .insertInto('dict_entries')
          .values({ type_id: body.typeId, name: body.name, code: body.code, value: body.value, sort: body.sort, description: body.description })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: row.id };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/dictData/update',
      access: { permission: 'dictionary:edit' },
      module: 'dictionary',
      summary: 'Edit a dictionary entry',
      schema: { body: dictEntrySchema.extend({ id: idSchema }) },
      response: { data: z.null(), errors: [404, 409] },
      async handler({ body }) {
        const existing = await ctx.db.selectFrom('dict_entries').select('type_id').where('id', '=', body.id).executeTakeFirst();
        if (!existing) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `字典项 ${body.id} 不存在`, 'en-US': `dictionary entry ${body.id} does not exist` });
        await refuseDuplicates(ctx.db, body, { typeId: existing.type_id, exceptId: body.id });
        await ctx.db
          .updateTable('dict_entries')
          .set({ name: body.name, code: body.code, value: body.value, sort: body.sort, description: body.description })
          .where('id', '=', body.id)
          .execute();
        return null;
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/dictData/delete',
      access: { permission: 'dictionary:delete' },
      module: 'dictionary',
      summary: 'Delete dictionary entries',
      schema: { query: z.object({ ids: idList }) },
      response: { data: z.object({ deleted: z.number().int() }) },
      async handler({ query }) {
        const res = await ctx.db.deleteFrom('dict_entries').where('id', 'in', query.ids).executeTakeFirst();
        return { deleted: Number(res.numDeletedRows) };
      },
    });
  },
});
