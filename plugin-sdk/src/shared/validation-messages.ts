import { MAX_DECIMALS, MAX_ID, USER_NAME_MAX, USER_NAME_MIN, ValidationKeys, type ValidationKey } from './checks.js';
import { DEFAULT_LOCALE, resolveLocale } from './locale.js';
import type { Locale } from './manifest.js';

/**
 * Messages of the checks in `checks.ts`, flat-keyed (`validation.email`). The console adds each
 * locale's object to i18next as it is (i18next finds flat keys that contain dots, and `{{name}}`
 * is its interpolation syntax); the server uses `validationMessage` to answer 400 with a
 * readable msg. The spec gives no texts for these (spec 01 section 5), so these are ours. Limits
 * are written into the texts so a form needs no parameters to show them.
 */
export const validationMessages: Record<Locale, Record<ValidationKey, string>> = {
  'zh-CN': {
    [ValidationKeys.required]: '此项为必填项',
    [ValidationKeys.urlLike]: '请输入以 http、https、mailto 或 tel 开头的有效地址',
    [ValidationKeys.digits]: '只能输入数字',
    [ValidationKeys.decimal]: `请输入不小于 0 的数字，最多 ${MAX_DECIMALS} 位小数`,
    [ValidationKeys.positiveInteger]: '请输入正整数',
    [ValidationKeys.nonNegativeInteger]: '请输入非负整数',
    [ValidationKeys.email]: '请输入正确的邮箱地址',
    [ValidationKeys.phone]: '请输入正确的手机号、座机号或 400/800 号码',
    [ValidationKeys.slashPath]: '路径必须以 / 开头，且不能包含空格',
    [ValidationKeys.digitsAndPunctuation]: '只能包含数字和标点符号',
    [ValidationKeys.termSource]: '原文不能只包含特殊字符、数字或二者的组合',
    [ValidationKeys.reservedMarkers]: '译文不能包含保留标记（数据、时间、数字占位符或 |||）',
    [ValidationKeys.userNameLength]: `用户名长度必须在 ${USER_NAME_MIN} 到 ${USER_NAME_MAX} 个字符之间`,
    [ValidationKeys.passwordMismatch]: '两次输入的密码不一致',
    [ValidationKeys.id]: `编号必须是 1 到 ${MAX_ID} 之间的整数`,
    [ValidationKeys.noNul]: '文本不能包含空字符（NUL）',
    [ValidationKeys.uploadedFile]: '必须以 multipart/form-data 上传的文件',
    [ValidationKeys.languageTag]: '请输入有效的 BCP 47 语言标记，例如 en、en-GB、zh-Hans-CN',
  },
  'en-US': {
    [ValidationKeys.required]: 'This field is required',
    [ValidationKeys.urlLike]: 'Enter an address starting with http, https, mailto or tel',
    [ValidationKeys.digits]: 'Only digits are allowed',
    [ValidationKeys.decimal]: `Enter a number not below 0 with at most ${MAX_DECIMALS} decimals`,
    [ValidationKeys.positiveInteger]: 'Enter a positive integer',
    [ValidationKeys.nonNegativeInteger]: 'Enter an integer not below 0',
    [ValidationKeys.email]: 'Enter a valid email address',
    [ValidationKeys.phone]: 'Enter a valid mobile, landline or 400/800 number',
    [ValidationKeys.slashPath]: 'The path must start with / and contain no spaces',
    [ValidationKeys.digitsAndPunctuation]: 'Only digits and punctuation are allowed',
    [ValidationKeys.termSource]: 'The source cannot be only special characters, only digits, or a mix of the two',
    [ValidationKeys.reservedMarkers]: 'The translation cannot contain the reserved markers (data, time or number placeholders, or |||)',
    [ValidationKeys.userNameLength]: `The user name must be ${USER_NAME_MIN} to ${USER_NAME_MAX} characters long`,
    [ValidationKeys.passwordMismatch]: 'The two passwords do not match',
    [ValidationKeys.id]: `An id must be a whole number from 1 to ${MAX_ID}`,
    [ValidationKeys.noNul]: 'Text cannot contain a NUL character',
    [ValidationKeys.uploadedFile]: 'Must be a file uploaded as multipart/form-data',
    [ValidationKeys.languageTag]: 'Enter a valid BCP 47 language tag, such as en, en-GB or zh-Hans-CN',
  },
};

function isValidationKey(key: string): key is ValidationKey {
  return Object.prototype.hasOwnProperty.call(validationMessages[DEFAULT_LOCALE], key);
}

/**
 * The text of a validation message in a locale, `{{name}}` filled from params. An unknown key
 * comes back unchanged (as i18next does), so zod's own messages pass through readable.
 */
export function validationMessage(key: string, locale: string, params: Record<string, unknown> = {}): string {
  if (!isValidationKey(key)) return key;
  return validationMessages[resolveLocale(locale)][key].replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** The part of a zod issue the messages need; zod's issues fit it. */
export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
  params?: Record<string, unknown>;
}

/** One readable line for a 400 answer: `field: message; other.field: message`. */
export function describeIssues(issues: readonly IssueLike[], locale: string): string {
  return issues
    .map((issue) => {
      const text = validationMessage(issue.message, locale, issue.params);
      const field = issue.path.map(String).join('.');
      return field ? `${field}: ${text}` : text;
    })
    .join('; ');
}
