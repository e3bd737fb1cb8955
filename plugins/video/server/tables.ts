import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The audio/video area's own tables (namespace `video_`), typed for Kysely. */
export interface VideoDatabase {
  video_jobs: {
    id: Generated<number>;
    owner_id: number;
    /** The uploaded file's name. */
    name: string;
    size: ColumnType<number, number, number>;
    /** What ffprobe found in the upload: container, length in seconds, streams. */
    format: string;
    duration: number;
    has_video: boolean;
    has_audio: boolean;
    operation: 'convert' | 'extractAudio' | 'cut';
    target: string;
    start_seconds: number | null;
    end_seconds: number | null;
    status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
    /** 0..1, as ffmpeg reports its position. */
    progress: ColumnType<number, number | undefined, number>;
    source_key: string;
    task_id: string | null;
    result_key: string | null;
    result_name: string | null;
    result_size: ColumnType<number | null, number | null | undefined, number | null>;
    error: string | null;
    created_at: ColumnType<Date, never, never>;
    started_at: ColumnType<Date | null, never, Date | null>;
    finished_at: ColumnType<Date | null, never, Date | null>;
  };
  video_settings: {
    key: string;
    value: ColumnType<unknown, string, string>;
  };
}

export type Db = Kysely<VideoDatabase>;

export const videoMigrations: Migration<VideoDatabase>[] = [
  {
    name: '001_jobs',
    async up(db) {
      await db.schema
        .createTable('video_jobs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('duration', 'double precision', (c) => c.notNull())
        .addColumn('has_video', 'boolean', (c) => c.notNull())
        .addColumn('has_audio', 'boolean', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull().check(sql`operation in ('convert', 'extractAudio', 'cut')`))
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('start_seconds', 'double precision')
        .addColumn('end_seconds', 'double precision')
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed', 'cancelled')`))
        .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text')
        .addColumn('result_key', 'text')
        .addColumn('result_name', 'text')
        .addColumn('result_size', 'bigint')
        .addColumn('error', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('started_at', 'timestamptz')
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('video_jobs_owner').on('video_jobs').columns(['owner_id', 'id']).execute();
      await db.schema
        .createTable('video_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .execute();
    },
  },
];
