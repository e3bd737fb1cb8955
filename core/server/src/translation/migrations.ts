import { availableParallelism } from 'node:os';
import type { Migration } from '@linguaport/sdk/server';
import { sql } from 'kysely';

/**
 * Tables of the translation service (module `core.translation`). An engine with no source or
 * target language serves every pair its nodes offer (the seeded Apertium engine); the pairs a
 * node offers are learnt by its health check and kept in `engine_nodes.pairs`.
 */
/**
 * Pipelines per pair for the seeded Apertium engine: two per core (at least 2, at most 8). A pipeline
 * handles one request at a time and keeps one stage busy, so a few per core keep the CPU busy: on 2
 * cores, 4 pipelines gave APy about 8,900 words/s against about 5,500 with 2 (npm run bench).
 */
export function seededContainerCount(cores: number = availableParallelism()): number {
  return Math.min(8, Math.max(2, 2 * cores));
}

export const translationMigrations: Migration[] = [
  {
    name: '001_engines_nodes_usage',
    async up(db) {
      for (const statement of [
        `create table engine_nodes (
          id serial primary key,
          kind text not null check (kind in ('apertium-local', 'libretranslate', 'openai')),
          container_name text not null,
          ip text,
          gpu_card text,
          ssh_port integer,
          user_name text,
          password_sealed text,
          resource_path text,
          config_path text,
          incremental_support boolean not null default false,
          create_service boolean not null default false,
          authentication_file text,
          library_address text,
          model text,
          base_url text,
          api_key_sealed text,
          languages jsonb not null default '[]',
          pairs jsonb not null default '[]',
          desired_state text not null default 'stopped' check (desired_state in ('running', 'stopped')),
          health text not null default 'unknown' check (health in ('unknown', 'healthy', 'unhealthy', 'stopped')),
          last_error text,
          last_checked_at timestamptz,
          created_at timestamptz not null default now())`,
        `create table engines (
          id serial primary key,
          name text not null,
          image_name text not null,
          source_language text,
          target_language text,
          domain text,
          consumer text,
          node_ids jsonb not null default '[]',
          expires_at timestamptz,
          enabled boolean not null default true,
          container_count integer not null default 1 check (container_count between 1 and 16),
          licence jsonb,
          language_abbreviations jsonb not null default '{}',
          created_at timestamptz not null default now())`,
        `create table usage_records (
          user_id integer not null,
          day date not null,
          channel text not null check (channel in ('text', 'api', 'document')),
          characters bigint not null default 0,
          documents integer not null default 0,
          last_used_at timestamptz not null,
          primary key (user_id, day, channel))`,
        // The text-translation history is the trans-text plugin's own table now (its migration takes over
        // `translation_history` on databases made before, or creates `trans_text_history`).
        `create table trusted_licence_keys (
          id serial primary key,
          name text not null,
          public_key text not null unique,
          created_at timestamptz not null default now())`,
      ]) {
        await sql.raw(statement).execute(db);
      }
    },
  },
  {
    // A fresh install translates out of the box: one Apertium engine on a local node, seeded once.
    // Seeded even when Apertium is not installed yet: its node then reports unhealthy with the reason,
    // and installing the packages later brings it up without any set-up of the administrator's.
    name: '002_seed_apertium',
    async up(db) {
      const node = await db
        .insertInto('engine_nodes')
        .values({ kind: 'apertium-local', container_name: 'apertium-local', ip: '127.0.0.1', desired_state: 'running', create_service: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('engines')
        .values({ name: 'Apertium', image_name: 'apertium', node_ids: JSON.stringify([node.id]), container_count: seededContainerCount(), enabled: true, consumer: 'all' })
        .execute();
    },
  },
  {
    // Engine kinds come from plugins (ctx.engines.registerAdapter): the closed list of kinds goes, and a
    // node's adapter fields move into one JSON object its adapter's schema describes (secrets sealed in it).
    name: '003_node_kind_from_adapters',
    async up(db) {
      for (const statement of [
        `do $$ declare c text; begin
           for c in select conname from pg_constraint
                    where conrelid = 'engine_nodes'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%kind%' loop
             execute format('alter table engine_nodes drop constraint %I', c);
           end loop;
         end $$`,
        `alter table engine_nodes add constraint engine_nodes_kind_format check (kind ~ '^[a-z][a-z0-9-]{1,39}$')`,
        `alter table engine_nodes add column config jsonb not null default '{}'`,
        `update engine_nodes set config = jsonb_strip_nulls(jsonb_build_object('baseUrl', base_url, 'apiKey', api_key_sealed)) where kind = 'libretranslate'`,
        `update engine_nodes set config = jsonb_strip_nulls(jsonb_build_object('baseUrl', base_url, 'apiKey', api_key_sealed, 'model', model, 'languages', languages)) where kind = 'openai'`,
      ]) {
        await sql.raw(statement).execute(db);
      }
    },
  },
  {
    // Suggestions sent through the LibreTranslate API's /suggest: kept for a reviewer to take into a memory
    // (the memory area will read them from here). Keyless suggestions have no owner.
    name: '004_lt_suggestions',
    async up(db) {
      await sql
        .raw(
          `create table lt_suggestions (
            id serial primary key,
            q text not null,
            s text not null,
            source text not null,
            target text not null,
            user_id integer,
            created_at timestamptz not null default now())`,
        )
        .execute(db);
    },
  },
  {
    // A fresh install recognises English speech out of the box: one pocketsphinx node (kind pocketsphinx-local,
    // registered by the kernel then, by plugins/engine-pocketsphinx now), left running. Other languages come through speech nodes of remote kinds
    // (engine-whisper) that an administrator adds in the engine-management area.
    name: '005_seed_pocketsphinx',
    async up(db) {
      await db
        .insertInto('engine_nodes')
        .values({ kind: 'pocketsphinx-local', container_name: 'pocketsphinx-local', ip: '127.0.0.1', desired_state: 'running', languages: JSON.stringify(['en']) })
        .execute();
    },
  },
  {
    // Usage channels are declared by plugins (usageChannels in plugin.json), no longer a closed list here.
    name: '006_usage_channels_declared',
    async up(db) {
      await sql`alter table usage_records drop constraint if exists usage_records_channel_check`.execute(db);
      await sql`alter table usage_records add constraint usage_records_channel_word check (channel ~ '^[a-z][a-zA-Z0-9]{1,39}$')`.execute(db);
    },
  },
];
