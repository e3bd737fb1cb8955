import { LOCALES, type Locale } from './manifest.js';

/** The platform's default language (spec 02 section 9). */
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** A supported locale for any incoming tag (cookie, header, user setting); unknown tags get the default. */
export function resolveLocale(tag: string | null | undefined): Locale {
  return tag && (LOCALES as readonly string[]).includes(tag) ? (tag as Locale) : DEFAULT_LOCALE;
}
