/** The request's interface language, read as the kernel reads it: `locale` cookie, else Accept-Language. */
export function requestLocale(headers: Record<string, string | string[] | undefined>): 'zh-CN' | 'en-US' {
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : '';
  const value = /(?:^|;\s*)locale=([^;]+)/.exec(cookie)?.[1];
  if (value === 'en-US' || value === 'zh-CN') return value;
  const accept = typeof headers['accept-language'] === 'string' ? headers['accept-language'] : '';
  return accept.trim().toLowerCase().startsWith('en') ? 'en-US' : 'zh-CN';
}

/** Picks the text of the request's language. */
export const say = (headers: Record<string, string | string[] | undefined>, zh: string, en: string) => (requestLocale(headers) === 'zh-CN' ? zh : en);
