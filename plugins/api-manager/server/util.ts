import { z } from '@linguaport/sdk/shared';

/** Comma-separated ids in a query string (`ids=1,2,3`), as the spec's delete calls send them. */
export const idList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v.join(',') : v).split(',').map((s) => s.trim()).filter(Boolean).map(Number))
  .pipe(z.array(z.number().int().positive()).min(1, 'validation.required'));

export const pageQuery = {
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
};

/** The request's interface language as the kernel reads it (`locale` cookie, else Accept-Language), then the text in it. */
export function say(headers: Record<string, string | string[] | undefined>, zh: string, en: string): string {
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : '';
  const chosen = /(?:^|;\s*)locale=([^;]+)/.exec(cookie)?.[1];
  if (chosen === 'en-US') return en;
  if (chosen === 'zh-CN') return zh;
  const accept = typeof headers['accept-language'] === 'string' ? headers['accept-language'] : '';
  return accept.trim().toLowerCase().startsWith('en') ? en : zh;
}

export const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
export const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
