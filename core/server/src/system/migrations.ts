import { sql, type Kysely } from 'kysely';
import type { Migration } from '@linguaport/sdk/server';
import { DEFAULT_API_TRANSLATION_CAP, DEFAULT_TEXT_TRANSLATION_CAP } from '@linguaport/sdk/shared';

/** System configuration entries, messages and the operation log, module `core.system`. */

async function run(db: Kysely<any>, ...statements: string[]): Promise<void> {
  // One statement per call: parameterised protocols (pg, PGlite query) refuse multi-statement text.
  for (const s of statements) await sql.raw(s).execute(db);
}

export type ConfigGroup = 'company' | 'contact' | 'translation' | 'switch' | 'picture' | 'account';
export type ConfigValueType = 'text' | 'color' | 'flag' | 'integer' | 'image' | 'language' | 'secret';

export interface ConfigSeed {
  key: string;
  value: string;
  zh: string;
  en: string;
  group: ConfigGroup;
  type: ConfigValueType;
  /** Picture keys: the size the image is shown at (spec: logo 142x35 and the two banners). */
  width?: number;
  height?: number;
}

/**
 * Every entry the product knows. "An entry can be changed only if its key exists", so the set of
 * keys is fixed here; admins change values only. `secret` entries are never sent to the public.
 */
export const CONFIG_SEEDS: ConfigSeed[] = [
  { key: 'SYSTEM_COLOR', value: '#353f9d', zh: '主题色', en: 'Theme colour', group: 'company', type: 'color' },
  { key: 'DEFAULT_SOURCE_LANGUAGE', value: 'en', zh: '默认源语言', en: 'Default source language', group: 'company', type: 'language' },
  { key: 'DEFAULT_TARGET_LANGUAGE', value: 'es', zh: '默认目标语言', en: 'Default target language', group: 'company', type: 'language' },
  { key: 'COMPANY_LOGO', value: '', zh: '公司标志', en: 'Company logo', group: 'picture', type: 'image', width: 142, height: 35 },
  { key: 'LOGIN_BANNER', value: '', zh: '登录页横幅', en: 'Login banner', group: 'picture', type: 'image', width: 1600, height: 300 },
  { key: 'HOME_BANNER', value: '', zh: '首页横幅', en: 'Home banner', group: 'picture', type: 'image', width: 1670, height: 660 },
  { key: 'IS_HAVE_LOG_OUT', value: '1', zh: '显示退出登录按钮', en: 'Show the log-out button', group: 'switch', type: 'flag' },
  { key: 'SITE_TITLE', value: 'Linguaport', zh: '站点标题', en: 'Site title', group: 'company', type: 'text' },
  { key: 'FILING_NUMBER', value: '', zh: '备案号', en: 'Filing number', group: 'company', type: 'text' },
  { key: 'CONTACT_PHONE', value: '', zh: '联系电话', en: 'Phone', group: 'contact', type: 'text' },
  { key: 'CONTACT_EMAIL', value: '', zh: '电子邮箱', en: 'Email', group: 'contact', type: 'text' },
  { key: 'CONTACT_ADDRESS', value: '', zh: '地址', en: 'Address', group: 'contact', type: 'text' },
  { key: 'CONTACT_WEBSITE', value: '', zh: '网址', en: 'Website', group: 'contact', type: 'text' },
  { key: 'LANDING_SLIDER', value: '0', zh: '登录滑块验证', en: 'Slider puzzle at sign-in', group: 'switch', type: 'flag' },
  { key: 'GUEST_LOGIN', value: '0', zh: '访客登录', en: 'Guest login', group: 'switch', type: 'flag' },
  { key: 'ALLOW_REGISTER', value: '0', zh: '允许注册', en: 'Allow self-registration', group: 'switch', type: 'flag' },
  { key: 'REGISTER_AUTO_APPROVE', value: '0', zh: '注册自动审核通过', en: 'Approve registrations automatically', group: 'switch', type: 'flag' },
  { key: 'ENGINE_EXPIRY_NOTICE', value: '1', zh: '引擎到期提醒', en: 'Engine expiry notice', group: 'switch', type: 'flag' },
  { key: 'PASSWORD_MAX_AGE_DAYS', value: '90', zh: '密码有效天数（0 为不限）', en: 'Password maximum age in days (0: none)', group: 'account', type: 'integer' },
  { key: 'DEFAULT_PASSWORD', value: 'Linguaport@123', zh: '导入用户的默认密码', en: 'Default password of imported users', group: 'account', type: 'secret' },
  { key: 'TEXT_TRANSLATION_CAP', value: String(DEFAULT_TEXT_TRANSLATION_CAP), zh: '文本翻译字符上限', en: 'Text translation character cap', group: 'translation', type: 'integer' },
  { key: 'API_TRANSLATION_CAP', value: String(DEFAULT_API_TRANSLATION_CAP), zh: '接口翻译字符上限', en: 'API translation character cap', group: 'translation', type: 'integer' },
  { key: 'FILE_COUNT_LIMIT', value: '10', zh: '单次文件数量上限', en: 'Files per upload', group: 'translation', type: 'integer' },
  { key: 'FILE_SIZE_LIMIT_MB', value: '20', zh: '单个文件大小上限（MB）', en: 'File size limit (MB)', group: 'translation', type: 'integer' },
  { key: 'QUEUE_LIMIT', value: '100', zh: '排队任务上限', en: 'Queue limit', group: 'translation', type: 'integer' },
];

/**
 * The LibreTranslate-compatible API's settings (`/api/lt`), added after the first seed: keyless use
 * (off by default) with its per-address daily characters, requests per minute per key (or address),
 * and the browser origins allowed to call it (comma-separated, `*` for any; none by default).
 */
export const LT_CONFIG_SEEDS: ConfigSeed[] = [
  { key: 'LT_KEYLESS', value: '0', zh: '接口免密钥调用', en: 'API calls without a key', group: 'translation', type: 'flag' },
  { key: 'LT_KEYLESS_CAP', value: '10000', zh: '免密钥调用每地址每日字符上限', en: 'Characters per address per day without a key', group: 'translation', type: 'integer' },
  { key: 'LT_RATE_LIMIT', value: '600', zh: '接口每分钟请求上限（每个密钥）', en: 'API requests per minute per key', group: 'translation', type: 'integer' },
  { key: 'LT_CORS_ORIGINS', value: '', zh: '接口允许的浏览器来源', en: 'Browser origins allowed to call the API', group: 'translation', type: 'text' },
];

/**
 * System-config permissions (spec 01 section 6): tree nodes carrying a configKey whose configValue
 * mirrors the switch of the same key, so a role granted the node sees the feature only while the
 * switch is on (the console checks configValue = 1).
 */
export const CONFIG_PERMISSION_NODES = [{ key: 'notice:engineExpiry', configKey: 'ENGINE_EXPIRY_NOTICE', zh: '引擎到期提醒', en: 'Engine expiry notice' }] as const;

export const systemMigrations: Migration[] = [
  {
    name: '001_config_columns_messages_oplog',
    async up(db) {
      await run(
        db,
        `alter table system_config add column name_zh text`,
        `alter table system_config add column name_en text`,
        `alter table system_config add column config_group text not null default 'company'`,
        `alter table system_config add column value_type text not null default 'text'`,
        `alter table system_config add column width integer`,
        `alter table system_config add column height integer`,
        `alter table system_config add column updated_at timestamptz`,
        `create table messages (
          id serial primary key,
          user_id integer not null references users(id) on delete cascade,
          department_id integer references departments(id) on delete set null,
          type text not null check (type in ('check', 'proofreading', 'feedback', 'alert', 'cat')),
          content text not null,
          is_read boolean not null default false,
          created_at timestamptz not null default now())`,
        `create index messages_user_idx on messages (user_id, is_read, created_at desc)`,
        `create table operation_log (
          id bigserial primary key,
          module text not null,
          message text not null,
          operator_id integer,
          operator_name text,
          method text not null,
          url text not null,
          outcome text not null check (outcome in ('success', 'failure')),
          code integer not null,
          ip text,
          created_at timestamptz not null default now())`,
        `create index operation_log_time_idx on operation_log (created_at desc)`,
        `create index operation_log_module_idx on operation_log (module, created_at desc)`,
      );
      for (const s of CONFIG_SEEDS) {
        const meta = { config_name: s.en, name_zh: s.zh, name_en: s.en, config_group: s.group, value_type: s.type, width: s.width ?? null, height: s.height ?? null };
        // Existing entries keep their value (the access seed made six of them).
        await db
          .insertInto('system_config')
          .values({ config_key: s.key, config_value: s.value, ...meta })
          .onConflict((oc) => oc.column('config_key').doUpdateSet(meta))
          .execute();
      }
    },
  },
  {
    name: '002_config_permission_nodes',
    async up(db) {
      const group = await db.selectFrom('permissions').select('id').where('key', '=', 'group:system').executeTakeFirst();
      for (const n of CONFIG_PERMISSION_NODES) {
        const value = (await db.selectFrom('system_config').select('config_value').where('config_key', '=', n.configKey).executeTakeFirst())?.config_value ?? '0';
        await db
          .insertInto('permissions')
          .values({ key: n.key, parent_id: group?.id ?? null, name_zh: n.zh, name_en: n.en, type: 3, path: null, sort: 100, config_key: n.configKey, config_value: value })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
      }
    },
  },
  {
    name: '003_lt_settings',
    async up(db) {
      for (const s of LT_CONFIG_SEEDS) {
        await db
          .insertInto('system_config')
          .values({ config_key: s.key, config_value: s.value, config_name: s.en, name_zh: s.zh, name_en: s.en, config_group: s.group, value_type: s.type })
          .onConflict((oc) => oc.column('config_key').doNothing())
          .execute();
      }
    },
  },
  {
    // A log line is kept as its operation (the route, `POST /user/add`) and parameters, so it reads in
    // the reader's language; `message` stays the English line, and is what older rows show.
    name: '004_oplog_titles',
    async up(db) {
      await run(
        db,
        `alter table operation_log add column route text`,
        `alter table operation_log add column params jsonb`,
        `create table operation_titles (
          route text primary key,
          name_zh text not null,
          name_en text not null)`,
      );
    },
  },
  {
    // A message the platform writes (a review notice) is kept in both languages and read in the
    // reader's, instead of one "English / 中文" text that the lists cut.
    name: '005_message_languages',
    async up(db) {
      await run(db, `alter table messages add column content_zh text`, `alter table messages add column content_en text`);
    },
  },
];
