import { requestLocale, type RawReply, type RequestContext } from '@linguaport/sdk/server';
import { languageDisplayName } from '@linguaport/sdk/shared';

/**
 * LibreTranslate's shapes for `/api/lt` answers: `{...}` or `{error}` as raw JSON (not the
 * platform envelope), its language codes and names, and the language of its refusals.
 */

export type Params = Record<string, unknown>;

export const json = (status: number, body: unknown, headers?: Record<string, string>): RawReply => ({ raw: true, status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body), ...(headers ? { headers } : {}) });
export const fail = (status: number, error: string, headers?: Record<string, string>) => json(status, { error }, headers);

/**
 * The language of this API's own refusals: LibreTranslate answers in English unless the client asks
 * for another language, so a client that names none gets English here too.
 */
export const ltLocale = (req: RequestContext) => (req.headers['accept-language'] || /(?:^|;\s*)locale=/.test(String(req.headers.cookie ?? '')) ? requestLocale(req.headers) : 'en-US');

/** Seconds to the next UTC midnight, when daily character caps start again. */
export const secondsToMidnight = (at: Date) => Math.max(1, Math.ceil((Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1) - at.getTime()) / 1000));

/** LibreTranslate lists Chinese as zh-Hans / zh-Hant. */
export function toLtCode(code: string): string {
  return code === 'zh-CN' ? 'zh-Hans' : code === 'zh-TW' ? 'zh-Hant' : code;
}

/** LibreTranslate names languages in English; variants by name too (`ca-x-valencia` -> Catalan (Valencian)). */
export const languageName = (code: string) => languageDisplayName(code, 'en-US');

/** Query and body fields together (the kernel has read a multipart body's fields into body already, http/multipart.ts). */
export function paramsOf(req: RequestContext): Params {
  const out: Params = { ...((req.query as Params) ?? {}) };
  if (req.body && typeof req.body === 'object') Object.assign(out, req.body as Params);
  return out;
}
