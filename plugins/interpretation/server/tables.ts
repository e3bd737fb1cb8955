import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The interpretation area's own tables (namespace `si_`), typed for Kysely. */
export interface InterpretationDatabase {
  si_sessions: {
    id: Generated<number>;
    owner_id: number;
    owner_name: string;
    department_id: number | null;
    source_language: string;
    target_language: string;
    status: 'live' | 'ended';
    started_at: ColumnType<Date, Date, Date>;
    ended_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
    utterance_count: ColumnType<number, number | undefined, number>;
    /** Distinct speaker labels, in the order first heard. */
    speakers: ColumnType<string[], string | undefined, string>;
  };
  si_utterances: {
    session_id: number;
    idx: number;
    /** Seconds from the session's start. */
    start_seconds: number;
    end_seconds: number;
    source: string;
    target: string;
    speaker: string | null;
    created_at: ColumnType<Date, Date, never>;
  };
  si_configs: {
    user_id: number;
    config: ColumnType<unknown, string, string>;
    updated_at: ColumnType<Date, Date, Date>;
  };
}

export type Db = Kysely<InterpretationDatabase>;

export const interpretationMigrations: Migration<InterpretationDatabase>[] = [
  {
    name: '001_sessions_utterances_configs',
    async up(db) {
      await db.schema
        .createTable('si_sessions')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('owner_name', 'text', (c) => c.notNull())
        .addColumn('department_id', 'integer')
        .addColumn('source_language', 'text', (c) => c.notNull())
        .addColumn('target_language', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('live', 'ended')`))
        .addColumn('started_at', 'timestamptz', (c) => c.notNull())
        .addColumn('ended_at', 'timestamptz')
        .addColumn('utterance_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('speakers', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .execute();
      await db.schema.createIndex('si_sessions_owner').on('si_sessions').columns(['owner_id', 'started_at']).execute();
      await db.schema
        .createTable('si_utterances')
        .addColumn('session_id', 'integer', (c) => c.notNull().references('si_sessions.id').onDelete('cascade'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('start_seconds', 'double precision', (c) => c.notNull())
        .addColumn('end_seconds', 'double precision', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('speaker', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('si_utterances_pk', ['session_id', 'idx'])
        .execute();
      await db.schema
        .createTable('si_configs')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('config', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
];
