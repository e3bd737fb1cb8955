import type { Kysely } from 'kysely';
import type { Observable } from 'rxjs';
import { ApiError, requestLocale, type Caller, type EngineService, type RawReply, type RequestContext, type RouteDefinition } from '@linguaport/sdk/server';
import { fromLibreCode } from './languages.js';
import { REQUEST_FAILURE_MESSAGES, type RequestFailure } from './service.js';

/**
 * The LibreTranslate-compatible API under `/api/lt`: existing LibreTranslate clients work by
 * pointing them at `http://host/api/lt`. Answers and errors use LibreTranslate's shapes
 * (`{translatedText}`, `{error}` with 400, 403, 429), not the platform envelope, so the routes
 * are public and authenticate `api_key` (body, query or `X-Api-Key`) themselves. Translations
 * go through the same service as the console, counted on the key owner's `api` channel.
 */

export interface LtRouteDeps {
  db: Kysely<any>;
  engines: EngineService;
  resolveApiKey(db: Kysely<any>, key: string, now: Date): Promise<Caller | null>;
  /** One cheap check made on every cached hit, so a revoked key stops at once. */
  keyStillValid(db: Kysely<any>, key: string, userId: number, now: Date): Promise<boolean>;
  /** Emits when permissions change anywhere: cached callers are dropped. */
  permissionsChanged?: Observable<unknown>;
  now?: () => Date;
}

type Params = Record<string, unknown>;

const json = (status: number, body: unknown): RawReply => ({ raw: true, status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) });
const fail = (status: number, error: string) => json(status, { error });

/** LibreTranslate lists Chinese as zh-Hans / zh-Hant. */
function toLtCode(code: string): string {
  return code === 'zh-CN' ? 'zh-Hans' : code === 'zh-TW' ? 'zh-Hant' : code;
}

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

async function paramsOf(req: RequestContext): Promise<Params> {
  const out: Params = { ...((req.query as Params) ?? {}) };
  // The kernel has read a multipart body's fields into body already (http/multipart.ts).
  if (req.body && typeof req.body === 'object') Object.assign(out, req.body as Params);
  return out;
}

export function ltRoutes(deps: LtRouteDeps): RouteDefinition[] {
  const now = deps.now ?? (() => new Date());
  // A key's caller (user, department, permissions) is resolved at most every 10 s, so a busy client
  // does not cost four queries per request. Each hit still checks the key itself with one indexed
  // query, so a reset, a disabled or deleted user or an expiry takes effect on the next request,
  // and a permission change drops the whole cache. Unknown keys are not cached: a key made a
  // moment ago works at once.
  const keyCache = new Map<string, { at: number; caller: Caller }>();
  deps.permissionsChanged?.subscribe(() => keyCache.clear());
  async function callerOf(p: Params, req: RequestContext): Promise<Caller | null> {
    const header = req.headers['x-api-key'];
    const key = typeof p.api_key === 'string' && p.api_key ? p.api_key : typeof header === 'string' ? header : '';
    if (!key) return null;
    const hit = keyCache.get(key);
    if (hit && Date.now() - hit.at < 10_000) {
      if (await deps.keyStillValid(deps.db, key, hit.caller.userId, now())) return hit.caller;
      keyCache.delete(key);
      return null;
    }
    const caller = await deps.resolveApiKey(deps.db, key, now());
    if (keyCache.size > 10_000) keyCache.clear();
    if (caller) keyCache.set(key, { at: Date.now(), caller });
    else keyCache.delete(key);
    return caller;
  }

  function errorReply(err: unknown, req: RequestContext): RawReply {
    if (err instanceof ApiError) {
      const status = [400, 403, 429, 503].includes(err.code) ? err.code : 500;
      // A request that failed on its own: said in the caller's language, with the engine's detail.
      const failure = err.data as { reason?: RequestFailure; detail?: string } | null;
      const texts = failure?.reason ? REQUEST_FAILURE_MESSAGES[failure.reason] : undefined;
      if (texts) return fail(status, `${texts[requestLocale(req.headers)]}: ${failure!.detail}`);
      return fail(status, err.message);
    }
    return fail(500, `Cannot translate text: ${(err as Error).message}`);
  }

  async function translateOne(caller: Caller, q: string, source: string, target: string, format: 'text' | 'html') {
    return deps.engines.translate({ text: q, source, target, format, callerId: caller.userId, channel: 'api' });
  }

  const translate: RouteDefinition = {
    method: 'POST',
    url: '/lt/translate',
    // Using a service changes no administered data: kept out of the operation log.
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Translate text (LibreTranslate)',
    async handler(req) {
      const p = await paramsOf(req);
      const q = p.q;
      if (q === undefined || q === null || q === '' || (Array.isArray(q) && q.length === 0)) return fail(400, 'Invalid request: missing q parameter');
      if (!p.source) return fail(400, 'Invalid request: missing source parameter');
      if (!p.target) return fail(400, 'Invalid request: missing target parameter');
      const format = p.format === undefined || p.format === '' ? 'text' : String(p.format);
      if (format !== 'text' && format !== 'html') return fail(400, `Invalid request: format must be text or html, got ${format}`);
      if (Array.isArray(q) ? q.some((x) => typeof x !== 'string') : typeof q !== 'string') return fail(400, 'Invalid request: q must be a string or an array of strings');
      const caller = await callerOf(p, req);
      if (!caller) return fail(403, 'Invalid API key');
      const source = p.source === 'auto' ? 'auto' : fromLibreCode(String(p.source));
      const target = fromLibreCode(String(p.target));
      try {
        if (!Array.isArray(q)) {
          const r = await translateOne(caller, q as string, source, target, format);
          return json(200, { translatedText: r.text, ...(r.detected ? { detectedLanguage: { language: toLtCode(r.detected.language), confidence: Math.round(r.detected.confidence * 100) } } : {}) });
        }
        const texts = q as string[];
        const results = await translateArray(caller, texts, source, target, format);
        return json(200, {
          translatedText: results.map((r) => r.text),
          ...(source === 'auto' ? { detectedLanguage: results.map((r) => ({ language: toLtCode(r.source), confidence: Math.round((r.detected?.confidence ?? 1) * 100) })) } : {}),
        });
      } catch (err) {
        return errorReply(err, req);
      }
    },
  };

  /**
   * An array goes to the engine as one text when it can be split back exactly (items joined by
   * a blank line none of them holds, same source language), so 25 short items cost one engine
   * batch, not 25 round trips.
   */
  async function translateArray(caller: Caller, texts: string[], source: string, target: string, format: 'text' | 'html') {
    const SEP = '\n\n';
    const joinable = source !== 'auto' && texts.every((t) => t.trim() !== '' && !t.includes(SEP) && t === t.trim());
    if (joinable) {
      const r = await translateOne(caller, texts.join(SEP), source, target, format);
      const parts = r.text.split(SEP);
      if (parts.length === texts.length) return parts.map((text) => ({ text, source: r.source, detected: r.detected }));
    }
    return Promise.all(texts.map((t) => (t.trim() === '' ? { text: t, source, detected: undefined } : translateOne(caller, t, source, target, format))));
  }

  const detect: RouteDefinition = {
    method: 'POST',
    url: '/lt/detect',
    // Using a service changes no administered data: kept out of the operation log.
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Detect the language of a text (LibreTranslate)',
    async handler(req) {
      const p = await paramsOf(req);
      if (typeof p.q !== 'string' || p.q === '') return fail(400, 'Invalid request: missing q parameter');
      const caller = await callerOf(p, req);
      if (!caller) return fail(403, 'Invalid API key');
      const d = await deps.engines.detect(p.q);
      // Too short or unsure: an empty list rather than a guess (LibreTranslate would guess).
      return json(200, d.language === 'unknown' ? [] : [{ language: toLtCode(d.language), confidence: Math.round(d.confidence * 100) }]);
    },
  };

  const languages: RouteDefinition = {
    method: 'GET',
    url: '/lt/languages',
    access: 'public',
    module: 'lt',
    summary: 'List the languages available for translation (LibreTranslate)',
    async handler() {
      const list = await deps.engines.languages();
      return json(
        200,
        list.map((l) => ({ code: toLtCode(l.code), name: languageName(l.code), targets: l.targets.map(toLtCode) })),
      );
    },
  };

  return [translate, detect, languages];
}
