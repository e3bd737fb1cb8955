import type { Migration } from '@linguaport/sdk/server';
import { sql } from 'kysely';

/** The task service's table (module `core.tasks`): one row a task, its checkpoint and progress. */
export const taskMigrations: Migration[] = [
  {
    name: '001_tasks',
    async up(db) {
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('plugin_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('owner_id', 'integer')
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'completed', 'failed', 'cancelled')`))
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('input', 'jsonb', (c) => c.notNull())
        .addColumn('checkpoint', 'jsonb')
        .addColumn('output', 'jsonb')
        .addColumn('error', 'text')
        .addColumn('progress_done', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_total', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_message', 'text')
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('cancel_requested', 'boolean', (c) => c.notNull().defaultTo(false))
        // The instance running it and when it last said so: a stale heartbeat means its server died.
        .addColumn('instance', 'text')
        .addColumn('heartbeat_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('started_at', 'timestamptz')
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('tasks_owner_created').on('tasks').columns(['owner_id', 'created_at']).execute();
      await db.schema.createIndex('tasks_state').on('tasks').columns(['state', 'heartbeat_at']).execute();
    },
  },
];
