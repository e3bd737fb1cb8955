import type { Locale } from './manifest.js';

/**
 * Names the platform seeds into its tables at install (the default department, the built-in roles)
 * are stored once, in Chinese; shown, they follow the reader's language. A name an administrator has
 * changed is theirs and shows as written.
 */
const SEEDED: Readonly<Record<string, Readonly<Record<Locale, string>>>> = {
  默认部门: { 'zh-CN': '默认部门', 'en-US': 'Default department' },
  超级管理员: { 'zh-CN': '超级管理员', 'en-US': 'Super administrator' },
  普通用户: { 'zh-CN': '普通用户', 'en-US': 'Normal user' },
  访客: { 'zh-CN': '访客', 'en-US': 'Guest' },
  翻译员: { 'zh-CN': '翻译员', 'en-US': 'Translator' },
  审校员: { 'zh-CN': '审校员', 'en-US': 'Reviewer' },
  项目经理: { 'zh-CN': '项目经理', 'en-US': 'Project manager' },
};

/** Descriptions seeded with those rows, in English, by the Chinese name they belong with. */
const SEEDED_DESCRIPTIONS: Readonly<Record<string, Readonly<Record<Locale, string>>>> = {
  'Default department': { 'zh-CN': '默认部门', 'en-US': 'Default department' },
  'Super administrator: holds every permission': { 'zh-CN': '超级管理员：拥有全部权限', 'en-US': 'Super administrator: holds every permission' },
  'Normal user: the role new users get': { 'zh-CN': '普通用户：新用户获得的角色', 'en-US': 'Normal user: the role new users get' },
  'Guest: what visitors without an account may use': { 'zh-CN': '访客：未登录访客可使用的功能', 'en-US': 'Guest: what visitors without an account may use' },
  'Translator: translates text and documents, uses and adds to memories, term bases and corpora': {
    'zh-CN': '翻译员：翻译文本和文档，使用并补充记忆库、术语库和语料库',
    'en-US': 'Translator: translates text and documents, uses and adds to memories, term bases and corpora',
  },
  'Reviewer: a translator who also reviews memory entries and terms': { 'zh-CN': '审校员：在翻译员之外还审核记忆库条目和术语', 'en-US': 'Reviewer: a translator who also reviews memory entries and terms' },
  'Project manager: a reviewer who also creates and manages memories, term bases and corpora': {
    'zh-CN': '项目经理：在审校员之外还创建和管理记忆库、术语库和语料库',
    'en-US': 'Project manager: a reviewer who also creates and manages memories, term bases and corpora',
  },
};

/** A seeded name in `locale`; any other name unchanged. */
export function seededName(name: string, locale: Locale): string;
export function seededName(name: string | null, locale: Locale): string | null;
export function seededName(name: string | null, locale: Locale): string | null {
  return name === null ? null : (SEEDED[name]?.[locale] ?? name);
}

/** A seeded description in `locale`; any other text unchanged. */
export function seededDescription(text: string | null, locale: Locale): string | null {
  return text === null ? null : (SEEDED_DESCRIPTIONS[text]?.[locale] ?? text);
}
