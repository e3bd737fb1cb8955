import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Locale } from '../shared/manifest.js';

/**
 * Reading the kernel's operation log in the reader's language. A line keeps its operation
 * (`route`, e.g. `POST /user/add`) and parameters; `operation_titles` holds each operation's
 * title in both languages. Select `operationTitleColumns` from `operation_log` joined with
 * `operationTitleJoin`, then `operationLine` gives the line. Rows written before titles existed
 * keep their English `message`.
 */
export const operationTitleJoin: RawBuilder<unknown> = sql`left join operation_titles on operation_titles.route = operation_log.route`;
export const operationTitleColumns: RawBuilder<unknown> = sql`operation_log.params as op_params, operation_titles.name_zh as op_title_zh, operation_titles.name_en as op_title_en`;

/** A selected row: `message`, `method`, `url` and the `operationTitleColumns`. */
export type OperationLineRow = Readonly<Record<string, unknown>>;

/** A title with the line's parameters filled in (`{username}`); one the line does not keep stays named. */
export function fillOperationTitle(title: string, params: unknown): string {
  const values = (typeof params === 'string' ? (JSON.parse(params) as unknown) : params) as Record<string, unknown> | null | undefined;
  return title.replace(/\{(\w+)\}/g, (whole, name: string) => (values && values[name] != null ? String(values[name]) : whole));
}

/**
 * The line as the reader reads it: the operation's name in their language, nothing more. The method
 * and address stay in the row's own `method` and `url` fields: a reader is not shown a raw route.
 */
export function operationLine(row: OperationLineRow, locale: Locale): string {
  const title = locale === 'en-US' ? row.op_title_en : row.op_title_zh;
  if (typeof title !== 'string' || !title) return String(row.message);
  return fillOperationTitle(title, row.op_params);
}

/**
 * The log stores a module's id; the reader sees its name. The kernel's own modules (sign-in and
 * its areas, named by their first URL segment) are named here; a plugin's module takes the name
 * of its first menu, which the permission tree holds in both languages from the plugin's locales.
 */
const KERNEL_MODULES: Record<string, { zh: string; en: string }> = {
  auth: { zh: '登录认证', en: 'Sign-in' },
  user: { zh: '用户账户', en: 'User accounts' },
  role: { zh: '角色', en: 'Roles' },
  plugIn: { zh: '插件管理', en: 'Plug-in management' },
  plugins: { zh: '插件', en: 'Plug-ins' },
  systemConfig: { zh: '系统配置', en: 'System configuration' },
  permissionMenu: { zh: '权限菜单', en: 'Permission menus' },
  messageRemind: { zh: '消息提醒', en: 'Messages' },
  lt: { zh: 'LibreTranslate 接口', en: 'LibreTranslate API' },
  sso: { zh: '单点登录', en: 'Single sign-on' },
  ldap: { zh: '目录服务', en: 'Directory (LDAP)' },
  tasks: { zh: '任务', en: 'Tasks' },
  quickAccess: { zh: '快捷访问', en: 'Quick access' },
  captcha: { zh: '滑块验证', en: 'Slider puzzle' },
};

/** A module id of the log (a plugin id, `auth`, a kernel area) to its name in the reader's language; an unknown one stays as stored. */
export async function operationModuleNames(db: Kysely<any>, locale: Locale): Promise<(module: string) => string> {
  const menus = await sql<{ plugin_id: string; name_zh: string; name_en: string }>`
    select distinct on (plugin_id) plugin_id, name_zh, name_en from permissions
    where plugin_id is not null and type = 1 order by plugin_id, sort, id`.execute(db);
  const byPlugin = new Map(menus.rows.map((r) => [r.plugin_id, { zh: r.name_zh, en: r.name_en }]));
  return (module) => {
    const name = byPlugin.get(module) ?? KERNEL_MODULES[module];
    return name ? (locale === 'en-US' ? name.en : name.zh) : module;
  };
}
