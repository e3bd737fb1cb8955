import type { Migration } from '@linguaport/sdk/server';
import { sql } from 'kysely';

/**
 * The kernel's own tables (module `core`). The job queue keeps its tables in pg-boss's schema
 * `pgboss`, which pg-boss creates and migrates itself.
 */
export const coreMigrations: Migration[] = [
  {
    // Domain events too large for one NOTIFY (about 8 kB) travel by reference: the row id is notified.
    name: '001_kernel_event_payloads',
    async up(db) {
      await db.schema
        .createTable('kernel_event_payloads')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('kernel_event_payloads_created_at').on('kernel_event_payloads').column('created_at').execute();
    },
  },
];
