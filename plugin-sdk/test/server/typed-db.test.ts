import type { ColumnType, Generated, Kysely } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineServerPlugin, type Migration, type ServerPluginContext } from '../../src/server/index.js';

// A plugin's ctx.db is typed to its own tables: `defineServerPlugin<Tables>` gives `Kysely<Tables>`
// in setup and in its migrations, so a wrong table or column is a compile error (tsc checks this file:
// each `@ts-expect-error` fails the typecheck when the line it marks compiles).

interface NotesTables {
  notes_items: { id: Generated<number>; title: string; created_at: ColumnType<Date, never, never> };
}

const migrations: Migration<NotesTables>[] = [
  {
    name: '001_notes',
    async up(db) {
      expectTypeOf(db).toEqualTypeOf<Kysely<NotesTables>>();
    },
  },
];

const plugin = defineServerPlugin<NotesTables>({
  migrations,
  setup(ctx) {
    expectTypeOf(ctx.db).toEqualTypeOf<Kysely<NotesTables>>();
    const typed = () => {
      void ctx.db.selectFrom('notes_items').select(['id', 'title']);
      // @ts-expect-error: not one of the plugin's tables (a kernel table above all)
      void ctx.db.selectFrom('users').selectAll();
      // @ts-expect-error: no such column
      void ctx.db.selectFrom('notes_items').select('body');
      // @ts-expect-error: the creation time is the database's, never written
      void ctx.db.insertInto('notes_items').values({ title: 'x', created_at: new Date() });
    };
    void typed;
  },
});

describe('a plugin context typed to its own tables', () => {
  it('is still the plain plugin the kernel loads, and an untyped context stays open', () => {
    expect(plugin.migrations?.map((m) => m.name)).toEqual(['001_notes']);
    expectTypeOf<ServerPluginContext['db']>().toEqualTypeOf<Kysely<any>>();
  });
});
