import { sql, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';

/** The identity model (spec 02 section 3: User, Department, Role, Permission), module `core.access`. */

async function run(db: Kysely<any>, ...statements: string[]): Promise<void> {
  // One statement per call: parameterised protocols (pg, PGlite query) refuse multi-statement text.
  for (const s of statements) await sql.raw(s).execute(db);
}

/** The top-level menu groups a manifest's `menu.group` may name. */
export const MENU_GROUPS = [
  { key: 'translation', zh: '翻译', en: 'Translation', icon: 'translate', sort: 10 },
  { key: 'resources', zh: '语言资源', en: 'Resources', icon: 'book', sort: 20 },
  { key: 'cat', zh: '辅助翻译', en: 'CAT', icon: 'edit', sort: 30 },
  { key: 'api', zh: '接口', en: 'API', icon: 'code', sort: 80 },
  { key: 'system', zh: '系统管理', en: 'System', icon: 'cog', sort: 90 },
] as const;

/** The team roles seeded by 003_team_roles: names stored in Chinese, shown in the reader's language (the SDK's seededName). */
export const TEAM_ROLE_SEEDS = [
  { key: 'translator', name: '翻译员', description: 'Translator: translates text and documents, uses and adds to memories, term bases and corpora' },
  { key: 'reviewer', name: '审校员', description: 'Reviewer: a translator who also reviews memory entries and terms' },
  { key: 'projectManager', name: '项目经理', description: 'Project manager: a reviewer who also creates and manages memories, term bases and corpora' },
] as const;

/** Group nodes are directories, not screens: the console redirects them to their first child. */
export const groupPath = (key: string) => `/group/${key}`;
export const groupKey = (key: string) => `group:${key}`;

export const accessMigrations: Migration[] = [
  {
    name: '001_identity_tables',
    async up(db) {
      await run(
        db,
        `create table departments (
          id serial primary key,
          name text not null,
          code text not null unique,
          description text,
          head_user_id integer,
          created_by integer,
          created_at timestamptz not null default now(),
          is_default boolean not null default false)`,
        `create table roles (
          id serial primary key,
          name text not null unique,
          description text,
          created_by integer,
          created_at timestamptz not null default now(),
          is_default boolean not null default false,
          is_super boolean not null default false)`,
        `create table users (
          id serial primary key,
          username text not null unique,
          real_name text,
          password_hash text not null,
          user_type integer not null default 0,
          status text not null default 'checked' check (status in ('checked', 'unchecked')),
          enabled boolean not null default true,
          email text,
          phone text,
          employee_no text,
          expires_at timestamptz,
          priority integer not null default 0,
          memo text,
          api_key text unique,
          api_key_updated_at timestamptz,
          need_password_change boolean not null default false,
          password_changed_at timestamptz,
          created_by integer,
          created_at timestamptz not null default now(),
          last_login_at timestamptz)`,
        `create table user_department_roles (
          user_id integer not null references users(id) on delete cascade,
          department_id integer not null references departments(id) on delete cascade,
          role_id integer not null references roles(id) on delete cascade,
          primary key (user_id, department_id, role_id))`,
        `create table department_roles (
          department_id integer not null references departments(id) on delete cascade,
          role_id integer not null references roles(id) on delete cascade,
          primary key (department_id, role_id))`,
        `create table permissions (
          id serial primary key,
          parent_id integer references permissions(id) on delete set null,
          plugin_id text,
          key text not null unique,
          name_zh text not null,
          name_en text not null,
          type integer not null check (type in (1, 2, 3, 4)),
          path text,
          icon text,
          sort integer not null default 100,
          config_key text,
          config_value text,
          show_in_menu boolean not null default true,
          show_in_shortcut boolean not null default false,
          show_to_users boolean not null default true,
          shortcut_image text,
          active boolean not null default true)`,
        `create table role_permissions (
          role_id integer not null references roles(id) on delete cascade,
          permission_id integer not null references permissions(id) on delete cascade,
          primary key (role_id, permission_id))`,
        `create table sessions (
          id serial primary key,
          token_hash text not null unique,
          user_id integer not null references users(id) on delete cascade,
          department_id integer references departments(id) on delete set null,
          created_at timestamptz not null,
          expires_at timestamptz not null,
          revoked_at timestamptz)`,
        `create index sessions_user_idx on sessions (user_id)`,
        `create table public_keys (
          id serial primary key,
          public_key text not null unique,
          private_key_pem text not null,
          created_at timestamptz not null,
          used_at timestamptz)`,
        `create table system_config (
          config_key text primary key,
          config_value text,
          config_name text,
          description text)`,
      );
    },
  },
  {
    name: '002_seed_defaults',
    async up(db) {
      await db.insertInto('departments').values({ name: '默认部门', code: 'default', description: 'Default department', is_default: true }).execute();
      await db
        .insertInto('roles')
        .values([
          { name: '超级管理员', description: 'Super administrator: holds every permission', is_super: true, is_default: false },
          { name: '普通用户', description: 'Normal user: the role new users get', is_super: false, is_default: true },
        ])
        .execute();
      await db
        .insertInto('permissions')
        .values(MENU_GROUPS.map((g) => ({ key: groupKey(g.key), name_zh: g.zh, name_en: g.en, type: 1, path: groupPath(g.key), icon: g.icon, sort: g.sort })))
        .execute();
      await db
        .insertInto('system_config')
        .values([
          { config_key: 'SYSTEM_COLOR', config_value: '#353f9d', config_name: 'Theme colour' },
          { config_key: 'DEFAULT_SOURCE_LANGUAGE', config_value: 'en', config_name: 'Default source language' },
          { config_key: 'DEFAULT_TARGET_LANGUAGE', config_value: 'es', config_name: 'Default target language' },
          { config_key: 'COMPANY_LOGO', config_value: '', config_name: 'Company logo' },
          { config_key: 'IS_HAVE_LOG_OUT', config_value: '1', config_name: 'Show the log-out button' },
          { config_key: 'SITE_TITLE', config_value: 'Linguaport', config_name: 'Site title' },
        ])
        .execute();
    },
  },
  {
    // Team roles beside the normal user and the super administrator (issue 22). Their grants come from
    // the manifests' `roles` (and `defaultGrant`) at the next permission-tree sync: `grants_pending`.
    // A name an administrator already gave a role of theirs is left to them: that team role is skipped.
    name: '003_team_roles',
    async up(db) {
      await run(
        db,
        `alter table roles add column builtin text unique`,
        `alter table roles add column grants_pending boolean not null default false`,
        `alter table permissions add column admin boolean not null default false`,
        `update roles set builtin = 'super' where id = (select min(id) from roles where is_super)`,
        `update roles set builtin = 'normal' where id = (select min(id) from roles where is_default)`,
      );
      for (const r of TEAM_ROLE_SEEDS) {
        const taken = await db.selectFrom('roles').select('id').where(sql`lower(name)`, '=', r.name.toLowerCase()).executeTakeFirst();
        if (taken) continue;
        await db.insertInto('roles').values({ name: r.name, description: r.description, builtin: r.key, grants_pending: true }).execute();
      }
    },
  },
  {
    // The user list's indexes (ctx.organisation.users.page), once created by the user plugin's
    // migrations: `if not exists`, so a database where that plugin made them keeps them as they are.
    // (column, id) for every sortable column lets an index scan serve any page without a sort
    // (93 ms -> 7 ms at 100,000 users); trigram indexes serve the substring search (pg_trgm is
    // enabled by the kernel on PGlite and PostgreSQL); few users wait for a check (status).
    name: '004_user_list_indexes',
    async up(db) {
      await run(
        db,
        `create index if not exists users_lower_username_idx on users (lower(username))`,
        `create index if not exists udr_department_idx on user_department_roles (department_id)`,
        `create index if not exists udr_role_idx on user_department_roles (role_id)`,
        `create index if not exists users_username_trgm_idx on users using gin (username gin_trgm_ops)`,
        `create index if not exists users_real_name_trgm_idx on users using gin (real_name gin_trgm_ops)`,
        `create index if not exists users_sort_username_idx on users (username, id)`,
        `create index if not exists users_sort_real_name_idx on users (real_name, id)`,
        `create index if not exists users_sort_created_at_idx on users (created_at, id)`,
        `create index if not exists users_sort_priority_idx on users (priority, id)`,
        `create index if not exists users_sort_expires_at_idx on users (expires_at, id)`,
        `create index if not exists users_sort_last_login_idx on users (last_login_at, id)`,
        `create index if not exists users_status_idx on users (status)`,
      );
    },
  },
];
