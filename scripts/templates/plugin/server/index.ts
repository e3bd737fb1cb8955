import { defineServerPlugin, pageOf, pageOffset, pageQuery, pageSchema, type ServerPluginContext } from '@linguaport/sdk/server';
import { z } from 'zod';
import { itemFields, itemSchema, type Item } from '../shared/schemas.js';
import { __CAMEL__Migrations, type __PASCAL__Database } from './tables.js';

/** The context of this plugin: `ctx.db` is typed to its own tables. */
type Ctx = ServerPluginContext<__PASCAL__Database>;

const present = (r: { id: number; name: string; created_at: Date }): Item => ({ id: r.id, name: r.name, createdAt: new Date(r.created_at).toISOString() });

/** `GET /api/__ID__/list`: a page of items, oldest first. */
function listRoute(ctx: Ctx): void {
  ctx.route({
    method: 'GET',
    url: '/__ID__/list',
    access: { permission: '__ID__:view' },
    summary: 'A page of items, oldest first',
    schema: { query: z.object(pageQuery) },
    response: { data: pageSchema(itemSchema) },
    async handler({ query }) {
      const [rows, total] = await Promise.all([
        ctx.db.selectFrom('__TABLE__').selectAll().orderBy('id').limit(query.pageSize).offset(pageOffset(query)).execute(),
        ctx.db.selectFrom('__TABLE__').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
      ]);
      return pageOf(query, rows.map(present), total?.n);
    },
  });
}

/** `POST /api/__ID__/add`: a new item; bad input is a 400 naming the field, and nothing is stored. */
function addRoute(ctx: Ctx): void {
  ctx.route({
    method: 'POST',
    url: '/__ID__/add',
    access: { permission: '__ID__:add' },
    summary: 'Add an item',
    schema: { body: itemFields },
    response: { data: itemSchema },
    async handler({ body }) {
      return present(await ctx.db.insertInto('__TABLE__').values({ name: body.name }).returningAll().executeTakeFirstOrThrow());
    },
  });
}

/** The server part of __ID__: its tables, and the API its console view calls. */
export default defineServerPlugin<__PASCAL__Database>({
  migrations: __CAMEL__Migrations,
  setup(ctx) {
    listRoute(ctx);
    addRoute(ctx);
  },
});
