import type { Migration } from '@linguaport/sdk/server';
import { sql } from 'kysely';

/** Tables of plug-in management (module `core.plugins`). */
export const pluginMigrations: Migration[] = [
  {
    name: '001_plugin_state',
    async up(db) {
      // One row per plugin the deployment knows: built-ins (from registry.json) and uploaded packages.
      await db.schema
        .createTable('plugin_state')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull()) // 'builtin' | 'package'
        .addColumn('type', 'text', (c) => c.notNull()) // 'console' | 'download'
        .addColumn('enabled', 'boolean', (c) => c.notNull())
        .addColumn('published', 'boolean', (c) => c.notNull())
        .addColumn('current_version', 'text', (c) => c.notNull())
        .addColumn('previous_version', 'text')
        // An uploaded newer version waiting for the upgrade call.
        .addColumn('staged_version', 'text')
        .addColumn('file_name', 'text')
        .addColumn('description', 'text')
        .addColumn('publisher', 'text')
        .addColumn('signature_state', 'text', (c) => c.notNull()) // 'built-in' | 'verified'
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('plugin_trusted_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('allow_server', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('plugin_failures')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('plugin_id', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('plugin_failures_plugin').on('plugin_failures').columns(['plugin_id', 'version']).execute();
    },
  },
];
