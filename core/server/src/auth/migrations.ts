import { sql, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** Tables of the sign-in methods (module `core.auth`); runs after `core.access`, whose tables it extends. */

async function run(db: Kysely<any>, ...statements: string[]): Promise<void> {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const authMigrations: Migration[] = [
  {
    name: '001_sign_in_methods',
    async up(db) {
      await run(
        db,
        `alter table users add column locale text`,
        // API keys: a sha256 for lookup, the key itself AES-GCM-sealed so its owner can see it again.
        `alter table users add column api_key_hash text unique`,
        `alter table users add column api_key_sealed text`,
        // Identity at an outside provider: 'ldap:<symbol>' or 'oidc:<issuer>' plus the subject there.
        `alter table users add column external_source text`,
        `alter table users add column external_subject text`,
        `create unique index users_external_idx on users (external_source, external_subject) where external_source is not null`,
        // A quick-access session may only reach the one page it was made for.
        `alter table sessions add column scope_path text`,
        `create table login_throttle (
          scope text primary key,
          failures integer not null default 0,
          last_failure_at timestamptz not null,
          locked_until timestamptz)`,
        `create table slider_captchas (
          id text primary key,
          x integer not null,
          created_at timestamptz not null,
          attempted_at timestamptz,
          ticket_hash text unique,
          ticket_used_at timestamptz)`,
        `create table directory_domains (
          id serial primary key,
          symbol text not null unique,
          name text not null,
          url text not null,
          bind_dn text,
          bind_password text,
          base_dn text not null,
          user_filter text not null default '(uid={username})',
          enabled boolean not null default true)`,
        `create table sso_providers (
          id serial primary key,
          name text not null,
          issuer text not null,
          client_id text not null,
          client_secret text,
          redirect_uri text not null,
          scopes text not null default 'openid profile email',
          enabled boolean not null default true)`,
        `create table sso_logins (
          state text primary key,
          provider_id integer not null references sso_providers(id) on delete cascade,
          code_verifier text not null,
          nonce text not null,
          created_at timestamptz not null,
          ticket_hash text unique,
          user_id integer references users(id) on delete cascade,
          outcome text,
          completed_at timestamptz,
          collected_at timestamptz)`,
      );
    },
  },
  {
    // The redirect URI used at the start of a sign-on is the one the code exchange must repeat;
    // a provider without one derives it from the request's host.
    name: '002_sso_redirect_uri',
    async up(db) {
      await run(db, `alter table sso_logins add column redirect_uri text not null default ''`, `alter table sso_providers alter column redirect_uri set default ''`);
    },
  },
  {
    // When an API key was last used (shown by API-key management); written at most once a minute.
    name: '003_api_key_last_used',
    async up(db) {
      await run(db, `alter table users add column if not exists api_key_last_used_at timestamptz`);
    },
  },
  {
    // The environment settings a directory domain or SSO provider was last written from (a hash): the
    // same environment at the next start leaves edits made in the screens alone.
    name: '004_sign_in_env_hash',
    async up(db) {
      await run(db, `alter table directory_domains add column env_hash text`, `alter table sso_providers add column env_hash text`);
    },
  },
  {
    // What an API key reaches (comma-separated scopes of API_KEY_SCOPES): the translation API unless its owner grants more.
    name: '005_api_key_scopes',
    async up(db) {
      await run(db, `alter table users add column api_key_scopes text not null default 'translate'`);
    },
  },
  {
    // Addresses an account signed in from (throttle.ts): the owner there is not held back by the account's failure count.
    name: '006_known_sign_in_addresses',
    async up(db) {
      await run(
        db,
        `create table login_known_addresses (
          user_id integer not null references users(id) on delete cascade,
          address text not null,
          last_success_at timestamptz not null,
          primary key (user_id, address))`,
      );
    },
  },
  {
    // The guest account's name is a seeded name like the default department's: stored in Chinese, shown
    // in the reader's language (seededName). One an administrator has changed stays theirs.
    name: '007_guest_seeded_name',
    async up(db) {
      await run(db, `update users set real_name = '访客' where username = 'guest' and user_type = 3 and real_name = 'Guest'`);
    },
  },
  {
    // A quick-access session always names its page: a scope that is there but empty was read as no
    // scope (a full session). Such rows are ended and the table refuses them from now on.
    name: '008_quick_access_scope_not_empty',
    async up(db) {
      await run(
        db,
        `update sessions set revoked_at = now() where scope_path is not null and length(scope_path) < 2 and revoked_at is null`,
        `alter table sessions add constraint sessions_scope_path_names_a_page check (scope_path is null or (length(scope_path) > 1 and scope_path like '/%'))`,
      );
    },
  },
];
