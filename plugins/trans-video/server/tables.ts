import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The audio/video translation area's own tables (namespace `tv_`), typed for Kysely. */
export interface TransVideoDatabase {
  tv_jobs: {
    id: Generated<number>;
    owner_id: number;
    name: string;
    size: ColumnType<number, number, number>;
    format: string;
    duration: number;
    has_video: boolean;
    source_language: string;
    target_language: string;
    status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
    stage: 'extract' | 'recognise' | 'translate' | 'burn' | 'done';
    progress: ColumnType<number, number | undefined, number>;
    source_key: string;
    task_id: string | null;
    error: string | null;
    burn_track: 'source' | 'target' | 'bilingual' | null;
    burn_status: 'none' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
    burn_progress: ColumnType<number, number | undefined, number>;
    burn_task_id: string | null;
    burn_key: string | null;
    burn_error: string | null;
    burn_stale: ColumnType<boolean, boolean | undefined, boolean>;
    created_at: ColumnType<Date, never, never>;
    finished_at: ColumnType<Date | null, never, Date | null>;
    /** The memories and term bases chosen at upload (ids; empty: the owner's defaults when translated). */
    memories: ColumnType<number[], string | undefined, string>;
    term_bases: ColumnType<number[], string | undefined, string>;
  };
  tv_cues: {
    job_id: number;
    idx: number;
    start_seconds: number;
    end_seconds: number;
    source: string;
    target: string;
    edited: ColumnType<boolean, boolean | undefined, boolean>;
  };
  tv_settings: {
    key: string;
    value: ColumnType<unknown, string, string>;
  };
}

export type Db = Kysely<TransVideoDatabase>;

export const transVideoMigrations: Migration<TransVideoDatabase>[] = [
  {
    name: '001_jobs_cues',
    async up(db) {
      await db.schema
        .createTable('tv_jobs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('duration', 'double precision', (c) => c.notNull())
        .addColumn('has_video', 'boolean', (c) => c.notNull())
        .addColumn('source_language', 'text', (c) => c.notNull())
        .addColumn('target_language', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed', 'cancelled')`))
        .addColumn('stage', 'text', (c) => c.notNull().defaultTo('extract').check(sql`stage in ('extract', 'recognise', 'translate', 'burn', 'done')`))
        .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text')
        .addColumn('error', 'text')
        .addColumn('burn_track', 'text', (c) => c.check(sql`burn_track in ('source', 'target', 'bilingual')`))
        .addColumn('burn_status', 'text', (c) => c.notNull().defaultTo('none').check(sql`burn_status in ('none', 'queued', 'running', 'completed', 'failed', 'cancelled')`))
        .addColumn('burn_progress', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('burn_task_id', 'text')
        .addColumn('burn_key', 'text')
        .addColumn('burn_error', 'text')
        .addColumn('burn_stale', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('tv_jobs_owner').on('tv_jobs').columns(['owner_id', 'id']).execute();
      await db.schema
        .createTable('tv_cues')
        .addColumn('job_id', 'integer', (c) => c.notNull().references('tv_jobs.id').onDelete('cascade'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('start_seconds', 'double precision', (c) => c.notNull())
        .addColumn('end_seconds', 'double precision', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('edited', 'boolean', (c) => c.notNull().defaultTo(false))
        .addPrimaryKeyConstraint('tv_cues_pk', ['job_id', 'idx'])
        .execute();
      await db.schema
        .createTable('tv_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '002_resources',
    async up(db) {
      await db.schema.alterTable('tv_jobs').addColumn('memories', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)).execute();
      await db.schema.alterTable('tv_jobs').addColumn('term_bases', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)).execute();
    },
  },
];
