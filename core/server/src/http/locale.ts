import type { Locale } from '@linguaport/sdk/shared';

/** The interface language of a request: the `locale` cookie, else Accept-Language, else zh-CN (spec 01 section 1). */
export function localeOf(headers: Record<string, string | string[] | undefined>): Locale {
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : '';
  const fromCookie = /(?:^|;\s*)locale=([^;]+)/.exec(cookie)?.[1];
  if (fromCookie) {
    const value = decodeURIComponent(fromCookie);
    if (value === 'en-US' || value === 'zh-CN') return value;
  }
  const accept = typeof headers['accept-language'] === 'string' ? headers['accept-language'] : '';
  const first = accept.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en-US' : 'zh-CN';
}
