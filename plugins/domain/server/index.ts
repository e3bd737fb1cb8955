import { sql, type ColumnType, type Generated, type Selectable } from 'kysely';
import { z } from 'zod';
import { ApiError, Codes, defineServerPlugin, like, timestampSchema } from '@linguaport/sdk/server';
import { domainSchema } from '../shared/schemas.js';

const SEED: Array<[string, string, string]> = [
  ['general', '通用', 'General'],
  ['legal', '法律', 'Legal'],
  ['medical', '医疗', 'Medical'],
  ['finance', '金融', 'Finance'],
  ['technology', '科技', 'Technology'],
  ['patent', '专利', 'Patent'],
  ['news', '新闻', 'News'],
  ['government', '政务', 'Government'],
];

/** The domain area's own table, typed for Kysely. */
interface DomainDatabase {
  domains: {
    code: string;
    name_zh: string;
    name_en: string;
    description: Generated<string>;
    enabled: Generated<boolean>;
    sort: number;
    created_at: ColumnType<Date, never, never>;
  };
}
type DomainRow = Selectable<DomainDatabase['domains']>;

/** A domain as the lists answer it (`toDomain`). */
const domainAnswer = z.object({ code: z.string(), nameZh: z.string(), nameEn: z.string(), description: z.string(), enabled: z.boolean(), sort: z.number().int(), createdAt: timestampSchema });

const toDomain = (r: DomainRow) => ({
  code: r.code,
  nameZh: r.name_zh,
  nameEn: r.name_en,
  description: r.description,
  enabled: r.enabled,
  sort: r.sort,
  createdAt: new Date(r.created_at).toISOString(),
});

/** Translation domains: the list other areas pick from, and its administration. */
export default defineServerPlugin<DomainDatabase>({
  migrations: [
    {
      name: '001_create_domains',
      async up(db) {
        await db.schema
          .createTable('domains')
          .addColumn('code', 'text', (c) => c.primaryKey())
          .addColumn('name_zh', 'text', (c) => c.notNull())
          .addColumn('name_en', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
          .addColumn('sort', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
        await db
          .insertInto('domains')
          .values(SEED.map(([code, zh, en], i) => ({ code, name_zh: zh, name_en: en, sort: i + 1 })))
          .execute();
      },
    },
  ],

  setup(ctx) {
    const select = () => ctx.db.selectFrom('domains').selectAll().orderBy('sort').orderBy('code');
    const announce = () => ctx.bus.publish({ type: 'domain.changed', payload: {} });

    // For every select of a domain (engines, files, projects): enabled ones, in order.
    ctx.route({
      method: 'GET',
      url: '/domain/list',
      access: 'signed-in',
      summary: 'List enabled domains',
      response: { data: z.array(domainAnswer) },
      async handler() {
        return ((await select().where('enabled', '=', true).execute()) as DomainRow[]).map(toDomain);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/domain/all',
      access: 'signed-in',
      summary: 'List all domains',
      schema: { query: z.object({ name: z.string().trim().optional() }) },
      response: { data: z.array(domainAnswer) },
      async handler({ query }) {
        let q = select();
        if (query.name) {
          const pattern = like(query.name);
          q = q.where((eb) => eb.or([eb('name_zh', 'ilike', pattern), eb('name_en', 'ilike', pattern), eb('code', 'ilike', pattern)]));
        }
        return ((await q.execute()) as DomainRow[]).map(toDomain);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/domain/add',
      access: { permission: 'domain:add' },
      module: 'domain',
      summary: 'Add a domain',
      schema: { body: domainSchema },
      response: { data: z.null(), errors: [409] },
      async handler({ body }) {
        const clash = await ctx.db
          .selectFrom('domains')
          .select(['code', 'name_zh', 'name_en'])
          .where((eb) => eb.or([eb('code', '=', body.code), eb('name_zh', '=', body.nameZh), eb('name_en', '=', body.nameEn)]))
          .executeTakeFirst();
        if (clash) throw new ApiError(Codes.CONFLICT, clash.code === body.code ? { 'zh-CN': `code: 领域 ${body.code} 已存在`, 'en-US': `code: domain ${body.code} already exists` } : { 'zh-CN': 'name: 同名领域已存在', 'en-US': 'name: a domain with this name already exists' });
        const last = await ctx.db.selectFrom('domains').select(sql<number>`coalesce(max(sort), 0)`.as('max')).executeTakeFirstOrThrow();
        await ctx.db
          .insertInto('domains')
          .values({ code: body.code, name_zh: body.nameZh, name_en: body.nameEn, description: body.description, enabled: body.enabled, sort: Number(last.max) + 1 })
          .execute();
        await announce();
        return null;
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/domain/update',
      access: { permission: 'domain:edit' },
      module: 'domain',
      summary: 'Edit a domain',
      schema: { body: domainSchema },
      response: { data: z.null(), errors: [404, 409] },
      async handler({ body }) {
        const clash = await ctx.db
          .selectFrom('domains')
          .select('code')
          .where('code', '<>', body.code)
          .where((eb) => eb.or([eb('name_zh', '=', body.nameZh), eb('name_en', '=', body.nameEn)]))
          .executeTakeFirst();
        if (clash) throw new ApiError(Codes.CONFLICT, { 'zh-CN': 'name: 同名领域已存在', 'en-US': 'name: a domain with this name already exists' });
        const res = await ctx.db
          .updateTable('domains')
          .set({ name_zh: body.nameZh, name_en: body.nameEn, description: body.description, enabled: body.enabled })
          .where('code', '=', body.code)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `领域 ${body.code} 不存在`, 'en-US': `domain ${body.code} does not exist` });
        await announce();
        return null;
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/domain/delete/:code',
      access: { permission: 'domain:delete' },
      module: 'domain',
      summary: 'Delete a domain',
      schema: { params: z.object({ code: z.string().min(1) }) },
      response: { data: z.null(), errors: [404, 409] },
      async handler({ params }) {
        // Each area that stores domain codes (the kernel's engines, term entries, corpora, files...) counts its own.
        const usage = await ctx.domains.of(params.code);
        if (usage.length) {
          throw new ApiError(Codes.CONFLICT, { 'zh-CN': `领域 ${params.code} 正在使用中（${usage.map((u) => `${u.table}: ${u.rows}`).join('，')}），请改为停用`, 'en-US': `domain ${params.code} is in use (${usage.map((u) => `${u.table}: ${u.rows}`).join(', ')}); disable it instead` }, { usage });
        }
        const res = await ctx.db.deleteFrom('domains').where('code', '=', params.code).executeTakeFirst();
        if (Number(res.numDeletedRows) === 0) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `领域 ${params.code} 不存在`, 'en-US': `domain ${params.code} does not exist` });
        await announce();
        return null;
      },
    });
  },
});
