import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The corpus area's own tables (namespace `corpus_`), typed for Kysely. */
export interface CorpusDatabase {
  corpus_corpora: {
    id: Generated<number>;
    name: string;
    source_lang: string;
    target_lang: string;
    domain: string | null;
    owner_id: number;
    /** Kept in step with the pairs by every change (`recount`): lists read it without counting. */
    pair_count: ColumnType<number, number | undefined, number>;
    created_at: ColumnType<Date, never, never>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  corpus_pairs: {
    id: Generated<number>;
    corpus_id: number;
    source: string;
    target: string;
    /** The pair's place in the corpus: imports and accepted alignments append. */
    position: number;
    /** The cleaning rules the last report found this pair breaking (`duplicate`, `empty`...). */
    flags: ColumnType<string[], string | undefined, string>;
    created_at: ColumnType<Date, never, never>;
    updated_at: ColumnType<Date, Date | undefined, Date>;
  };
  corpus_cleaning_reports: {
    id: Generated<number>;
    corpus_id: number;
    task_id: string | null;
    status: 'running' | 'ready' | 'applied' | 'discarded' | 'failed';
    /** Per rule: count and examples; the length-ratio bounds used (see cleaning.ts). */
    summary: ColumnType<unknown, string | undefined, string>;
    /** The ids of the flagged pairs: what applying the report deletes. */
    flagged: ColumnType<number[], string | undefined, string>;
    error: string | null;
    created_by: number;
    created_at: ColumnType<Date, never, never>;
    finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  };
  corpus_alignment_drafts: {
    id: Generated<number>;
    corpus_id: number;
    owner_id: number;
    /** The beads found: `{ source, target, bead: '2-1', cost }` in text order. */
    pairs: ColumnType<unknown, string, string>;
    created_at: ColumnType<Date, never, never>;
  };
}

export const corpusMigrations: Migration<CorpusDatabase>[] = [
  {
    name: '001_corpora',
    async up(db) {
      await db.schema
        .createTable('corpus_corpora')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('source_lang', 'text', (c) => c.notNull())
        .addColumn('target_lang', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('pair_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('corpus_corpora_owner').on('corpus_corpora').columns(['owner_id', 'id']).execute();
      await db.schema
        .createTable('corpus_pairs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('corpus_id', 'integer', (c) => c.notNull().references('corpus_corpora.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('flags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('corpus_pairs_corpus').on('corpus_pairs').columns(['corpus_id', 'position']).execute();
      await db.schema
        .createTable('corpus_cleaning_reports')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('corpus_id', 'integer', (c) => c.notNull().references('corpus_corpora.id').onDelete('cascade'))
        .addColumn('task_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'ready', 'applied', 'discarded', 'failed')`))
        .addColumn('summary', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('flagged', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('error', 'text')
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('corpus_cleaning_reports_corpus').on('corpus_cleaning_reports').columns(['corpus_id', 'id']).execute();
      await db.schema
        .createTable('corpus_alignment_drafts')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('corpus_id', 'integer', (c) => c.notNull().references('corpus_corpora.id').onDelete('cascade'))
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('pairs', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
];
