import type { Kysely } from 'kysely';
import { ApiError, Codes, type EventBus, type LocalizedText, type SystemSettings } from '@linguaport/sdk/server';
import { notifyPermissionsChanged } from '../access/notify.js';
import type { ConfigGroup, ConfigValueType } from './migrations.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The system configuration: a fixed set of keys (seeded by the migrations) whose values admins and
 * plugins change. Every change is validated against the value's type and the cross-key rules of
 * spec 02 section 5 (System settings), then published as `systemConfig.changed`.
 */

export interface ConfigEntry {
  configKey: string;
  configValue: string | null;
  configName: string;
  nameZh: string;
  nameEn: string;
  group: ConfigGroup;
  valueType: ConfigValueType;
  width: number | null;
  height: number | null;
}

export const CONFIG_CHANGED = 'systemConfig.changed';

const columns = [
  'config_key as configKey',
  'config_value as configValue',
  'config_name as configName',
  'name_zh as nameZh',
  'name_en as nameEn',
  'config_group as group',
  'value_type as valueType',
  'width',
  'height',
] as const;

/**
 * Secrets (value type `secret`, e.g. DEFAULT_PASSWORD) are write-only: every read shows
 * SECRET_MASK when one is set and '' when none is, never the value. Writing SECRET_MASK back keeps
 * the stored value (a form saved with the mask untouched), an empty value clears it, anything else
 * replaces it. The server reads the real value through `ctx.settings.get` only.
 */
export const SECRET_MASK = '********';

export const isSecret = (e: Pick<ConfigEntry, 'valueType'>): boolean => e.valueType === 'secret';

/** The entries as callers may see them: secrets masked. */
export async function readEntries(db: Kysely<KernelTables>, groups?: ConfigGroup[]): Promise<ConfigEntry[]> {
  let q = db.selectFrom('system_config').select(columns).orderBy('config_group').orderBy('config_key');
  if (groups?.length) q = q.where('config_group', 'in', groups);
  // Every key is seeded with its names and one of the known value types.
  return (await q.$castTo<ConfigEntry>().execute()).map((e) => (isSecret(e) ? { ...e, configValue: e.configValue ? SECRET_MASK : '' } : e));
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const LANGUAGE = /^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

/** Why this value does not fit its entry's type, or null when it fits. */
function typeProblem(entry: ConfigEntry, value: string): LocalizedText | null {
  switch (entry.valueType) {
    case 'flag':
      return value === '0' || value === '1' ? null : { 'zh-CN': '必须是 0 或 1', 'en-US': 'must be 0 or 1' };
    case 'color':
      return HEX_COLOR.test(value) ? null : { 'zh-CN': '必须是十六进制颜色，例如 #353f9d', 'en-US': 'must be a hex colour such as #353f9d' };
    case 'language':
      return value === '' || LANGUAGE.test(value) ? null : { 'zh-CN': '必须是语言代码，例如 en 或 zh-CN', 'en-US': 'must be a language code such as en or zh-CN' };
    case 'integer': {
      if (!/^\d+$/.test(value)) return { 'zh-CN': '必须是整数', 'en-US': 'must be a whole number' };
      // PASSWORD_MAX_AGE_DAYS 0 means "no maximum"; every other number is a cap and must be above zero.
      if (Number(value) <= 0 && entry.configKey !== 'PASSWORD_MAX_AGE_DAYS') return { 'zh-CN': '必须大于 0', 'en-US': 'must be greater than zero' };
      return Number(value) > 1_000_000_000 ? { 'zh-CN': '数值过大', 'en-US': 'is too large' } : null;
    }
    case 'secret':
      // Empty clears the secret; the mask (kept value) never reaches here.
      return value === '' || value.length >= 8 ? null : { 'zh-CN': '至少需要 8 个字符', 'en-US': 'must be at least 8 characters' };
    case 'image':
      // Pictures are set through updatePictureConfig; clearing one (empty) is allowed here.
      return value === '' || value.startsWith('/api/systemConfig/picture/') ? null : { 'zh-CN': '需通过上传图片设置（updatePictureConfig）', 'en-US': 'is set by uploading a picture (updatePictureConfig)' };
    default:
      return value.length <= 2000 ? null : { 'zh-CN': '超过 2000 个字符', 'en-US': 'is longer than 2000 characters' };
  }
}

/**
 * Validates a batch of changes against the stored entries and applies them in one transaction.
 * Unknown keys answer 400 ("an entry can be changed only if its key exists").
 */
export async function updateEntries(db: Kysely<KernelTables>, bus: EventBus, given: { configKey: string; configValue: string }[], now: Date): Promise<string[]> {
  if (given.length === 0) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '请求无效：未提供任何配置项', 'en-US': 'Invalid request: no configuration entry given' });
  const entries = new Map((await readEntries(db)).map((e) => [e.configKey, e]));
  // A secret sent back as its mask is left as it is (the form showed the mask and it was not retyped).
  const changes = given.filter((c) => !(c.configValue === SECRET_MASK && entries.get(c.configKey) && isSecret(entries.get(c.configKey)!)));
  const problems: LocalizedText[] = [];
  const after = new Map([...entries].map(([k, e]) => [k, e.configValue]));
  for (const { configKey, configValue } of changes) {
    const entry = entries.get(configKey);
    if (!entry) {
      problems.push({ 'zh-CN': `${configKey}: 配置键不存在（只有已存在的键才能修改）`, 'en-US': `${configKey}: no such configuration key (an entry can be changed only if its key exists)` });
      continue;
    }
    const problem = typeProblem(entry, configValue);
    if (problem) problems.push({ 'zh-CN': `${configKey}: ${problem['zh-CN']}`, 'en-US': `${configKey}: ${problem['en-US']}` });
    after.set(configKey, configValue);
  }
  // Spec 02 section 5: the text cap may not exceed the API cap (checked on the state after the change).
  const text = Number(after.get('TEXT_TRANSLATION_CAP'));
  const api = Number(after.get('API_TRANSLATION_CAP'));
  const touchesCaps = changes.some((c) => c.configKey === 'TEXT_TRANSLATION_CAP' || c.configKey === 'API_TRANSLATION_CAP');
  if (touchesCaps && problems.length === 0 && text > api) {
    problems.push({ 'zh-CN': `TEXT_TRANSLATION_CAP: ${text} 大于 API_TRANSLATION_CAP ${api}；文本翻译上限不能超过接口上限`, 'en-US': `TEXT_TRANSLATION_CAP: ${text} is above API_TRANSLATION_CAP ${api}; the text cap may not exceed the API cap` });
  }
  if (problems.length) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：${problems.map((p) => p['zh-CN']).join('; ')}`, 'en-US': `Invalid request: ${problems.map((p) => p['en-US']).join('; ')}` });
  if (changes.length === 0) return [];
  let permissionsChanged = false;
  await db.transaction().execute(async (trx) => {
    for (const { configKey, configValue } of changes) {
      await trx.updateTable('system_config').set({ config_value: configValue, updated_at: now }).where('config_key', '=', configKey).execute();
      // System-config permission nodes mirror their switch (spec 01 section 6: granted only while 1).
      if (entries.get(configKey)!.valueType === 'flag') {
        const res = await trx.updateTable('permissions').set({ config_value: configValue }).where('config_key', '=', configKey).where('config_value', 'is distinct from', configValue).executeTakeFirst();
        if (Number(res.numUpdatedRows) > 0) permissionsChanged = true;
      }
    }
  });
  if (permissionsChanged) await notifyPermissionsChanged(bus, db, { all: true });
  const keys = [...new Set(changes.map((c) => c.configKey))];
  // Secrets are not broadcast: only the key names travel.
  const values = Object.fromEntries(keys.filter((k) => !isSecret(entries.get(k)!)).map((k) => [k, after.get(k)]));
  await bus.publish({ type: CONFIG_CHANGED, payload: { keys, values } });
  return keys;
}

/** `ctx.settings` for plugins. */
export function createSystemSettings(db: Kysely<KernelTables>, bus: EventBus, now: () => Date): SystemSettings {
  return {
    async get(key) {
      const row = await db.selectFrom('system_config').select('config_value').where('config_key', '=', key).executeTakeFirst();
      return row?.config_value ?? null;
    },
    async set(key, value) {
      await updateEntries(db, bus, [{ configKey: key, configValue: String(value) }], now());
    },
  };
}
