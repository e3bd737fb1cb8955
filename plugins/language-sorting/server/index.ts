import { sql, type ColumnType } from 'kysely';
import { ApiError, Codes, defineServerPlugin } from '@linguaport/sdk/server';
import { z } from '@linguaport/sdk/shared';
import { languageEditSchema, languageOrderSchema } from '../shared/schemas.js';
import { SEED_LANGUAGES } from './seed.js';

/** The language area's own table, typed for Kysely. */
interface LanguageDatabase {
  languages: {
    code: string;
    name_zh: string;
    name_en: string;
    enabled: ColumnType<boolean, boolean | undefined, boolean>;
    sort: number;
    updated_at: ColumnType<Date, never, Date>;
  };
}
type LanguageRow = { code: string; name_zh: string; name_en: string; enabled: boolean; sort: number };

/** A language as the lists answer it (`toLanguage`). */
const languageAnswer = z.object({ code: z.string(), nameZh: z.string(), nameEn: z.string(), enabled: z.boolean(), sort: z.number().int() });

const toLanguage = (r: LanguageRow) => ({ code: r.code, nameZh: r.name_zh, nameEn: r.name_en, enabled: r.enabled, sort: r.sort });

/** The language list every language select reads, and its administration. */
export default defineServerPlugin<LanguageDatabase>({
  migrations: [
    {
      name: '001_create_languages',
      async up(db) {
        await db.schema
          .createTable('languages')
          .addColumn('code', 'text', (c) => c.primaryKey())
          .addColumn('name_zh', 'text', (c) => c.notNull())
          .addColumn('name_en', 'text', (c) => c.notNull())
          .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
          .addColumn('sort', 'integer', (c) => c.notNull())
          .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
        await db
          .insertInto('languages')
          .values(SEED_LANGUAGES.map((l, i) => ({ code: l.code, name_zh: l.nameZh, name_en: l.nameEn, enabled: l.enabled, sort: i + 1 })))
          .execute();
      },
    },
  ],

  setup(ctx) {
    const all = () => ctx.db.selectFrom('languages').select(['code', 'name_zh', 'name_en', 'enabled', 'sort']).orderBy('sort').orderBy('code').execute();
    // Open selects reload on this event, so an order change shows without a page reload.
    const announce = () => ctx.bus.publish({ type: 'language.changed', payload: {} });

    ctx.route({
      method: 'GET',
      url: '/language/list',
      access: 'signed-in',
      summary: 'List enabled languages',
      response: { data: z.array(languageAnswer) },
      async handler() {
        return (await all()).filter((r) => r.enabled).map(toLanguage);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/language/all',
      access: 'signed-in',
      summary: 'List all languages',
      response: { data: z.array(languageAnswer) },
      async handler() {
        return (await all()).map(toLanguage);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/language/add',
      access: { permission: 'language:edit' },
      module: 'languageSorting',
      summary: 'Add a language',
      schema: { body: languageEditSchema },
      response: { data: z.null(), errors: [409] },
      async handler({ body }) {
        const exists = await ctx.db.selectFrom('languages').select('code').where('code', '=', body.code).executeTakeFirst();
        if (exists) throw new ApiError(Codes.CONFLICT, { 'zh-CN': `语言 ${body.code} 已存在`, 'en-US': `language ${body.code} already exists` });
        const last = await ctx.db.selectFrom('languages').select(sql<number>`coalesce(max(sort), 0)`.as('max')).executeTakeFirstOrThrow();
        await ctx.db.insertInto('languages').values({ code: body.code, name_zh: body.nameZh, name_en: body.nameEn, enabled: body.enabled, sort: Number(last.max) + 1 }).execute();
        await announce();
        return null;
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/language/update',
      access: { permission: 'language:edit' },
      module: 'languageSorting',
      summary: 'Edit a language',
      schema: { body: languageEditSchema },
      response: { data: z.null(), errors: [404] },
      async handler({ body }) {
        const res = await ctx.db
          .updateTable('languages')
          .set({ name_zh: body.nameZh, name_en: body.nameEn, enabled: body.enabled, updated_at: sql<Date>`now()` })
          .where('code', '=', body.code)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `语言 ${body.code} 不存在`, 'en-US': `language ${body.code} does not exist` });
        await announce();
        return null;
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/language/sort',
      access: { permission: 'language:sort' },
      module: 'languageSorting',
      summary: 'Reorder languages',
      schema: { body: languageOrderSchema },
      response: { data: z.null() },
      async handler({ body }) {
        // The console sends the whole order (after a drag or a number edit); a partial or stale
        // list would silently scramble positions, so it must name every language exactly once.
        const known = (await all()).map((r) => r.code);
        const given = new Set(body.codes);
        if (given.size !== body.codes.length) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': 'codes: 有语言重复列出', 'en-US': 'codes: a language is listed twice' });
        const missing = known.filter((c) => !given.has(c));
        const unknown = body.codes.filter((c) => !known.includes(c));
        if (missing.length || unknown.length) {
          throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `codes: 排序必须将每种语言列出一次（缺少：${missing.join(', ') || '无'}；未知：${unknown.join(', ') || '无'}）`, 'en-US': `codes: the order must list every language once (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})` });
        }
        await ctx.db.transaction().execute(async (trx) => {
          for (const [i, code] of body.codes.entries()) {
            await trx.updateTable('languages').set({ sort: i + 1, updated_at: sql<Date>`now()` }).where('code', '=', code).execute();
          }
        });
        await announce();
        return null;
      },
    });
  },
});
