import { sql, type ColumnType, type Generated } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The area's own tables, typed for Kysely: every query of the area is checked against them. */
export interface __PASCAL__Database {
  __TABLE__: {
    id: Generated<number>;
    name: string;
    created_at: ColumnType<Date, never, never>;
  };
}

/** Migrations run in order, once each, at start-up; a released one is never edited, a new one is added. */
export const __CAMEL__Migrations: Migration<__PASCAL__Database>[] = [
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
];
