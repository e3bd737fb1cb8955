import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';
import { languageBase, languageTag } from '@linguaport/sdk/shared';

/** The memory area's own tables (namespace `tm_`), typed for Kysely. */
export interface TmDatabase {
  tm_libraries: {
    id: Generated<number>;
    name: string;
    ownership: 'all' | 'department' | 'custom';
    department_id: number | null;
    kind: 'personal' | 'shared';
    creator_id: number;
    created_at: ColumnType<Date, never, never>;
    /** The last imported TMX header's `datatype` and `o-tmf` (`{ datatype, otmf }`), written back on export. */
    tmx_header: ColumnType<unknown, string | null | undefined, string | null>;
  };
  tm_library_users: { library_id: number; user_id: number; can_use: boolean; can_edit: boolean };
  tm_defaults: { user_id: number; library_id: number };
  tm_entries: {
    id: Generated<number>;
    library_id: number;
    source: string;
    target: string;
    /** Full BCP 47 tags, case-normalised (`en-GB`, `zh-Hans-CN`): an entry keeps its variant. */
    source_lang: string;
    target_lang: string;
    /** The language each tag is a variant of (`languageBase`: `en-Latn`, `zh-Hans`): what lookups group by. */
    source_base: ColumnType<string, string | undefined, string>;
    target_base: ColumnType<string, string | undefined, string>;
    /** The exact tier's key: a hash of the normalised source. */
    source_hash: string;
    /** Inline placeholders' originals (`{ "1": {kind, original, closing} }`) of source and target. */
    tags: ColumnType<unknown, string | undefined, string>;
    status: ColumnType<'unchecked' | 'checked' | 'failed', 'unchecked' | 'checked' | 'failed' | undefined, 'unchecked' | 'checked' | 'failed'>;
    enabled: ColumnType<boolean, boolean | undefined, boolean>;
    quality: ColumnType<number | null, number | null | undefined, number | null>;
    /** What the TMX unit said besides its texts (tuid, dates, usage, props, notes: `metadata.ts`), written back on export. */
    meta: ColumnType<unknown, string | undefined, string>;
    creator_id: number;
    created_at: ColumnType<Date, Date | undefined, never>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  tm_history: {
    id: Generated<number>;
    library_id: number;
    entry_id: number;
    action: string;
    actor_id: number;
    at: ColumnType<Date, Date | undefined, never>;
    before: ColumnType<unknown, string | null, never>;
    after: ColumnType<unknown, string | null, never>;
  };
  /** The area's settings (match thresholds), one JSON value a key. */
  tm_settings: { key: string; value: ColumnType<unknown, string, string> };
}

export const tmMigrations: Migration<TmDatabase>[] = [
  {
    name: '001_memories',
    async up(db) {
      await db.schema
        .createTable('tm_libraries')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('ownership', 'text', (c) => c.notNull().check(sql`ownership in ('all', 'department', 'custom')`))
        .addColumn('department_id', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('personal', 'shared')`))
        .addColumn('creator_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('tm_library_users')
        .addColumn('library_id', 'integer', (c) => c.notNull().references('tm_libraries.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('can_use', 'boolean', (c) => c.notNull())
        .addColumn('can_edit', 'boolean', (c) => c.notNull())
        .addPrimaryKeyConstraint('tm_library_users_pk', ['library_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('tm_defaults')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('library_id', 'integer', (c) => c.notNull().references('tm_libraries.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('tm_defaults_pk', ['user_id', 'library_id'])
        .execute();
      await db.schema
        .createTable('tm_entries')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('library_id', 'integer', (c) => c.notNull().references('tm_libraries.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('source_lang', 'text', (c) => c.notNull())
        .addColumn('target_lang', 'text', (c) => c.notNull())
        .addColumn('source_hash', 'text', (c) => c.notNull())
        .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('unchecked').check(sql`status in ('unchecked', 'checked', 'failed')`))
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('quality', 'integer')
        .addColumn('creator_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('tm_entries_exact').on('tm_entries').columns(['source_hash', 'source_lang', 'target_lang']).execute();
      await db.schema.createIndex('tm_entries_library').on('tm_entries').columns(['library_id', 'id']).execute();
      // No trigram indexes: the fuzzy tier has its own token index (fuzzy-index.ts), and two GIN indexes
      // over source and target cost imports about three times their speed for the concordance alone.
      await db.schema
        .createTable('tm_history')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('library_id', 'integer', (c) => c.notNull())
        .addColumn('entry_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('before', 'jsonb')
        .addColumn('after', 'jsonb')
        .execute();
      await db.schema.createIndex('tm_history_library').on('tm_history').columns(['library_id', 'id']).execute();
    },
  },
  {
    name: '002_settings',
    async up(db) {
      await db.schema.createTable('tm_settings').ifNotExists().addColumn('key', 'text', (c) => c.primaryKey()).addColumn('value', 'jsonb', (c) => c.notNull()).execute();
    },
  },
  {
    // Entries keep language variants (issue 23): existing entries keep the tags they have, case-normalised,
    // and gain the language each is a variant of, which exact and fuzzy lookups now group by.
    name: '003_language_tags',
    async up(db) {
      await db.schema.alterTable('tm_entries').addColumn('source_base', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('tm_entries').addColumn('target_base', 'text', (c) => c.notNull().defaultTo('')).execute();
      // Few distinct pairs, however many entries: one update each.
      const pairs = await db.selectFrom('tm_entries').select(['source_lang', 'target_lang']).distinct().execute();
      for (const p of pairs as Array<{ source_lang: string; target_lang: string }>) {
        await db
          .updateTable('tm_entries')
          .set({ source_lang: languageTag(p.source_lang) ?? p.source_lang, target_lang: languageTag(p.target_lang) ?? p.target_lang, source_base: languageBase(p.source_lang), target_base: languageBase(p.target_lang) })
          .where('source_lang', '=', p.source_lang)
          .where('target_lang', '=', p.target_lang)
          .execute();
      }
      await db.schema.dropIndex('tm_entries_exact').execute();
      await db.schema.createIndex('tm_entries_exact').on('tm_entries').columns(['source_hash', 'source_base', 'target_base']).execute();
    },
  },
  {
    // TMX metadata survives a round trip (issue 23): a unit's tuid, dates, usage, props and notes on its
    // entry, and the header's datatype and o-tmf on the memory. Entries from before have none.
    name: '004_metadata',
    async up(db) {
      await db.schema.alterTable('tm_entries').addColumn('meta', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`)).execute();
      await db.schema.alterTable('tm_libraries').addColumn('tmx_header', 'jsonb').execute();
    },
  },
];
