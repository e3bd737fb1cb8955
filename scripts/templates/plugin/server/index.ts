import { sql } from 'kysely';
import { defineServerPlugin } from '@linguaport/sdk/server';

/** The server part of __ID__: its table and the API the console view calls. */
export default defineServerPlugin({
  migrations: [
    {
      name: '001_create___TABLE__',
      async up(db) {
        await db.schema
          .createTable('__TABLE__')
          .addColumn('id', 'serial', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
          .execute();
      },
    },
  ],

  setup(ctx) {
    ctx.route({
      method: 'GET',
      url: '/__ID__/items',
      access: { permission: '__ID__:view' },
      async handler() {
        const rows = await ctx.db.selectFrom('__TABLE__').select(['id', 'name', 'created_at']).orderBy('id').execute();
        return rows.map((r) => ({ id: r.id, name: r.name, createdAt: new Date(r.created_at).toISOString() }));
      },
    });
  },
});
