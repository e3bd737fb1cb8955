import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';
import { createLibraryTables } from '@linguaport/sdk/resources';

type Status = 'unchecked' | 'checked' | 'failed';

/** The term area's own tables (namespace `term_`), typed for Kysely; all but the entries come from the SDK's library kit. */
export interface TermDatabase {
  term_libraries: {
    id: Generated<number>;
    name: string;
    ownership: 'all' | 'department' | 'custom';
    department_id: number | null;
    kind: 'personal' | 'shared';
    creator_id: number;
    created_at: ColumnType<Date, never, never>;
  };
  term_library_users: { library_id: number; user_id: number; can_use: boolean; can_edit: boolean };
  term_defaults: { user_id: number; library_id: number };
  term_entries: {
    id: Generated<number>;
    library_id: number;
    source: string;
    target: string;
    source_lang: string;
    target_lang: string;
    status: ColumnType<Status, Status | undefined, Status>;
    enabled: ColumnType<boolean, boolean | undefined, boolean>;
    /** A term translators must not use (TBX's deprecated or superseded). */
    forbidden: ColumnType<boolean, boolean | undefined, boolean>;
    part_of_speech: string | null;
    note: string | null;
    domain: string | null;
    creator_id: number;
    created_at: ColumnType<Date, Date | undefined, never>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  term_history: {
    id: Generated<number>;
    library_id: number;
    entry_id: number;
    action: string;
    actor_id: number;
    at: ColumnType<Date, Date | undefined, never>;
    before: ColumnType<unknown, string | null, never>;
    after: ColumnType<unknown, string | null, never>;
  };
}

export const termMigrations: Migration<TermDatabase>[] = [
  {
    name: '001_term_bases',
    async up(db) {
      await createLibraryTables(db, 'term');
      await db.schema
        .createTable('term_entries')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('library_id', 'integer', (c) => c.notNull().references('term_libraries.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('source_lang', 'text', (c) => c.notNull())
        .addColumn('target_lang', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('unchecked').check(sql`status in ('unchecked', 'checked', 'failed')`))
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('forbidden', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('part_of_speech', 'text')
        .addColumn('note', 'text')
        .addColumn('domain', 'text')
        .addColumn('creator_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // Recognition loads a term base's pair at once; the list pages by library.
      await db.schema.createIndex('term_entries_pair').on('term_entries').columns(['library_id', 'source_lang', 'target_lang']).execute();
      await db.schema.createIndex('term_entries_library').on('term_entries').columns(['library_id', 'id']).execute();
    },
  },
];
