import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@linguaport/sdk/shared';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';
import { Cookies, readCookie, writeCookie } from './auth/storage.js';

export const LOCALES: readonly Locale[] = ['zh-CN', 'en-US'];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export function savedLocale(): Locale {
  const value = readCookie(Cookies.locale);
  return (LOCALES as readonly string[]).includes(value ?? '') ? (value as Locale) : DEFAULT_LOCALE;
}

/** One i18next instance for the host (namespace `core`) and every plugin namespace. */
export async function createI18n(lng: Locale = savedLocale()): Promise<I18n> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: ['core'],
    defaultNS: 'core',
    resources: { 'zh-CN': { core: zhCN }, 'en-US': { core: enUS } },
    interpolation: { escapeValue: false },
    // Plugin resources arrive after start; re-render when they do.
    react: { bindI18nStore: 'added', useSuspense: false },
  });
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  return i18n;
}

export async function switchLocale(i18n: I18n, lng: Locale, before?: (lng: Locale) => Promise<void>): Promise<void> {
  await before?.(lng);
  await i18n.changeLanguage(lng);
  writeCookie(Cookies.locale, lng, 365);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
