import type { Kysely } from 'kysely';
import type { Observable } from 'rxjs';
import { ApiError, Codes, requestLocale, type Caller, type DocumentTranslationService, type EngineService, type RawReply, type RequestContext, type RouteDefinition, isUploadedFile } from '@linguaport/sdk/server';
import { DEFAULT_TEXT_TRANSLATION_CAP, languageDisplayName } from '@linguaport/sdk/shared';
import { fromLibreCode } from './languages.js';
import { REQUEST_FAILURE_MESSAGES, type RequestFailure } from './service.js';
import { ltResponse } from './lt-openapi.js';
import { guessLanguage } from './text-tools.js';
import { countCharacters, readNumberSetting } from './usage.js';

/**
 * The LibreTranslate-compatible API under `/api/lt`: existing LibreTranslate clients work by
 * pointing them at `http://host/api/lt`. Answers and errors use LibreTranslate's shapes
 * (`{translatedText}`, `{error}` with 400, 403, 429), not the platform envelope, so the routes
 * are public and authenticate the key themselves: `api_key` or `apiKey` in the body or query,
 * `X-Api-Key` or `Authorization: Bearer`. Translations go through the same service as the
 * console, counted on the key owner's `api` channel. With LT_KEYLESS on, a call without a key
 * is served too, within LT_KEYLESS_CAP characters per address per day (counted by this process).
 * Every key (or keyless address) gets LT_RATE_LIMIT requests per minute; a 429 says when to
 * come back in `Retry-After`.
 */

export interface LtRouteDeps {
  db: Kysely<any>;
  engines: EngineService;
  resolveApiKey(db: Kysely<any>, key: string, now: Date): Promise<Caller | null>;
  /** One cheap check made on every cached hit, so a revoked key stops at once. */
  keyStillValid(db: Kysely<any>, key: string, userId: number, now: Date): Promise<boolean>;
  /** Emits when permissions change anywhere: cached callers are dropped. */
  permissionsChanged?: Observable<unknown>;
  /** The system configuration (LT_KEYLESS, LT_KEYLESS_CAP, LT_RATE_LIMIT, the caps, default languages). */
  readSetting(key: string): Promise<string | null>;
  /** The documents area's file translation, when a plugin provides it (files are refused otherwise). */
  documents?: () => DocumentTranslationService | null;
  now?: () => Date;
}

/** The largest file `/lt/translate_file` reads; the documents area applies its own, smaller, limits. */
export const LT_FILE_MAX_BYTES = 1024 * 1024 * 1024;

/** LibreTranslate's answer while a server translates no files (no plugin provides the documents area). */
export const FILES_DISABLED = 'Files translation are disabled on this server.';

/** Who is calling: a key's owner, or an address without a key (LT_KEYLESS). */
type Party = { caller: Caller; keyless: false } | { caller: null; keyless: true; address: string };

type Params = Record<string, unknown>;

const json = (status: number, body: unknown, headers?: Record<string, string>): RawReply => ({ raw: true, status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body), ...(headers ? { headers } : {}) });
const fail = (status: number, error: string, headers?: Record<string, string>) => json(status, { error }, headers);

/**
 * The language of this API's own refusals: LibreTranslate answers in English unless the client asks
 * for another language, so a client that names none gets English here too.
 */
const ltLocale = (req: RequestContext) => (req.headers['accept-language'] || /(?:^|;\s*)locale=/.test(String(req.headers.cookie ?? '')) ? requestLocale(req.headers) : 'en-US');

/** Seconds to the next UTC midnight, when daily character caps start again. */
const secondsToMidnight = (at: Date) => Math.max(1, Math.ceil((Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1) - at.getTime()) / 1000));

/** The key as LibreTranslate clients send it: `api_key` (its own web UI, translate), `apiKey` (libretranslate), a header. */
function keyOf(p: Params, req: RequestContext): string {
  for (const v of [p.api_key, p.apiKey]) if (typeof v === 'string' && v) return v;
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ') && auth.length > 7) return auth.slice(7).trim();
  return '';
}

/** LibreTranslate lists Chinese as zh-Hans / zh-Hant. */
function toLtCode(code: string): string {
  return code === 'zh-CN' ? 'zh-Hans' : code === 'zh-TW' ? 'zh-Hant' : code;
}

/** LibreTranslate names languages in English; variants by name too (`ca-x-valencia` -> Catalan (Valencian)). */
const languageName = (code: string) => languageDisplayName(code, 'en-US');

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
  async function callerOf(key: string): Promise<Caller | null> {
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

  // Requests per minute, per key owner or keyless address: a fixed one-minute window each.
  const windows = new Map<string, { start: number; count: number }>();
  // Keyless characters per address on the current UTC day, kept by this process (emptied when the day turns).
  const keyless = new Map<string, number>();
  let keylessDay = '';

  /**
   * The party behind a request, or the reply refusing it: 403 for a wrong key or a missing one
   * (unless keyless use is on), 429 with Retry-After past the per-minute limit.
   */
  async function partyOf(p: Params, req: RequestContext): Promise<Party | RawReply> {
    const key = keyOf(p, req);
    let party: Party;
    if (key) {
      const caller = await callerOf(key);
      if (!caller) return fail(403, 'Invalid API key');
      party = { caller, keyless: false };
    } else {
      if ((await deps.readSetting('LT_KEYLESS')) !== '1') return fail(403, 'Please contact the server operator to get an API key');
      party = { caller: null, keyless: true, address: req.ip ?? 'unknown' };
    }
    const limit = await readNumberSetting(deps.readSetting, 'LT_RATE_LIMIT', 600);
    const id = party.keyless ? `ip:${party.address}` : `user:${party.caller.userId}`;
    const at = Date.now();
    let w = windows.get(id);
    if (!w || at - w.start >= 60_000) {
      if (windows.size > 50_000) windows.clear();
      w = { start: at, count: 0 };
      windows.set(id, w);
    }
    if (++w.count > limit) {
      return fail(429, { 'zh-CN': `请求过于频繁：每分钟最多 ${limit} 次`, 'en-US': `Too many requests: the limit is ${limit} per minute` }[ltLocale(req)], { 'retry-after': String(Math.max(1, Math.ceil((w.start + 60_000 - at) / 1000))) });
    }
    return party;
  }
  const refused = (x: Party | RawReply): x is RawReply => (x as RawReply).raw === true;

  /** Keyless use: the address's characters today, refused past LT_KEYLESS_CAP (429 until midnight UTC). */
  async function takeKeyless(address: string, characters: number, req: RequestContext): Promise<RawReply | null> {
    const at = now();
    const day = at.toISOString().slice(0, 10);
    if (day !== keylessDay) {
      keyless.clear();
      keylessDay = day;
    }
    const id = address;
    const cap = await readNumberSetting(deps.readSetting, 'LT_KEYLESS_CAP', 10_000);
    const used = keyless.get(id) ?? 0;
    if (used + characters > cap) {
      return fail(429, { 'zh-CN': `已达字符上限：今日无密钥已用 ${used} / ${cap} 个字符，本次请求 ${characters} 个`, 'en-US': `Character limit reached: ${used} of ${cap} characters used today without a key, this request has ${characters}` }[ltLocale(req)], { 'retry-after': String(secondsToMidnight(at)) });
    }
    if (keyless.size > 50_000) keyless.clear();
    keyless.set(id, used + characters);
    return null;
  }

  function errorReply(err: unknown, req: RequestContext): RawReply {
    if (err instanceof ApiError) {
      const status = [400, 403, 429, 503].includes(err.code) ? err.code : 500;
      // A request that failed on its own: said in the caller's language, with the engine's detail.
      const failure = err.data as { reason?: RequestFailure; detail?: string } | null;
      const texts = failure?.reason ? REQUEST_FAILURE_MESSAGES[failure.reason] : undefined;
      if (texts) return fail(status, `${texts[requestLocale(req.headers)]}: ${failure!.detail}`);
      // The daily API cap: back after midnight UTC.
      return fail(status, err.message, status === 429 ? { 'retry-after': String(secondsToMidnight(now())) } : undefined);
    }
    return fail(500, `Cannot translate text: ${(err as Error).message}`);
  }

  // Keyless calls are nobody's (caller 0) on the text channel: the per-request text cap applies, and the
  // address's daily characters are counted here instead of a user's API cap.
  async function translateOne(party: Party, q: string, source: string, target: string, format: 'text' | 'html') {
    if (party.keyless) return deps.engines.translate({ text: q, source, target, format, callerId: 0, channel: 'text' });
    return deps.engines.translate({ text: q, source, target, format, callerId: party.caller.userId, channel: 'api' });
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
      const alternatives = p.alternatives === undefined || p.alternatives === '' ? 0 : Number(p.alternatives);
      if (!Number.isInteger(alternatives) || alternatives < 0) return fail(400, 'Invalid request: alternatives must be a whole number');
      const party = await partyOf(p, req);
      if (refused(party)) return party;
      if (party.keyless) {
        const over = await takeKeyless(party.address, (Array.isArray(q) ? (q as string[]) : [q as string]).reduce((n, t) => n + countCharacters(t, format), 0), req);
        if (over) return over;
      }
      // The engines give one translation: asked for alternatives, the answer holds an empty list (per text).
      const alt = (n: number | null) => (alternatives > 0 ? { alternatives: n === null ? [] : Array.from({ length: n }, () => []) } : {});
      const caller = party;
      const source = p.source === 'auto' ? 'auto' : fromLibreCode(String(p.source));
      const target = fromLibreCode(String(p.target));
      try {
        if (!Array.isArray(q)) {
          const r = await translateOne(caller, q as string, source, target, format);
          return json(200, { translatedText: r.text, ...alt(null), ...(r.detected ? { detectedLanguage: { language: toLtCode(r.detected.language), confidence: Math.round(r.detected.confidence * 100) } } : {}) });
        }
        const texts = q as string[];
        const results = await translateArray(caller, texts, source, target, format);
        return json(200, {
          translatedText: results.map((r) => r.text),
          ...alt(texts.length),
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
  async function translateArray(caller: Party, texts: string[], source: string, target: string, format: 'text' | 'html') {
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
      const party = await partyOf(p, req);
      if (refused(party)) return party;
      const d = await deps.engines.detect(p.q);
      // Too short or unsure: a best guess at a low confidence, as LibreTranslate answers (clients expect one).
      const best = d.language === 'unknown' ? await guessLanguage(p.q, (await deps.engines.languages()).map((l) => l.code)) : d;
      return json(200, best.language === 'unknown' ? [] : [{ language: toLtCode(best.language), confidence: Math.round(best.confidence * 100) }]);
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
      // Every language a client may name is listed, a target-only one too (with no targets of its own):
      // clients check both the source and the target against these codes, as LibreTranslate lists all of its.
      const targetsOf = new Map(list.map((l) => [l.code, l.targets]));
      for (const t of list.flatMap((l) => l.targets)) if (!targetsOf.has(t)) targetsOf.set(t, []);
      return json(
        200,
        [...targetsOf].sort(([a], [b]) => a.localeCompare(b)).map(([code, targets]) => ({ code: toLtCode(code), name: languageName(code), targets: targets.map(toLtCode) })),
      );
    },
  };

  const frontendSettings: RouteDefinition = {
    method: 'GET',
    url: '/lt/frontend/settings',
    access: 'public',
    module: 'lt',
    summary: "The server's settings as LibreTranslate's web UI reads them (LibreTranslate)",
    async handler() {
      const keyRequired = (await deps.readSetting('LT_KEYLESS')) !== '1';
      const lang = async (key: string, fallback: string) => {
        const code = (await deps.readSetting(key)) || fallback;
        return { code: toLtCode(code), name: languageName(code) };
      };
      return json(200, {
        // Keyed calls have a daily cap but no per-request one (-1, as LibreTranslate says "no limit"); keyless ones the text cap.
        charLimit: keyRequired ? -1 : await readNumberSetting(deps.readSetting, 'TEXT_TRANSLATION_CAP', DEFAULT_TEXT_TRANSLATION_CAP),
        frontendTimeout: 500,
        apiKeys: true,
        keyRequired,
        suggestions: true,
        filesTranslation: !!deps.documents?.(),
        supportedFilesFormat: deps.documents?.()?.formats() ?? [],
        language: { source: await lang('DEFAULT_SOURCE_LANGUAGE', 'en'), target: await lang('DEFAULT_TARGET_LANGUAGE', 'es') },
      });
    },
  };

  const health: RouteDefinition = {
    method: 'GET',
    url: '/lt/health',
    access: 'public',
    module: 'lt',
    summary: 'Whether the API answers (LibreTranslate)',
    handler: async () => json(200, { status: 'ok' }),
  };

  const suggest: RouteDefinition = {
    method: 'POST',
    url: '/lt/suggest',
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Suggest a better translation, kept for review (LibreTranslate)',
    async handler(req) {
      const p = await paramsOf(req);
      for (const name of ['q', 's', 'source', 'target'] as const) {
        if (typeof p[name] !== 'string' || p[name] === '') return fail(400, `Invalid request: missing ${name} parameter`);
      }
      const party = await partyOf(p, req);
      if (refused(party)) return party;
      await deps.db
        .insertInto('lt_suggestions')
        .values({ q: p.q, s: p.s, source: fromLibreCode(String(p.source)), target: fromLibreCode(String(p.target)), user_id: party.keyless ? null : party.caller.userId, created_at: now() })
        .execute();
      return json(200, { success: true });
    },
  };

  // Served by the documents area when a plugin provides it; LibreTranslate's own refusal otherwise.
  const translateFile: RouteDefinition = {
    method: 'POST',
    url: '/lt/translate_file',
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Translate a file (LibreTranslate)',
    upload: { maxBytes: LT_FILE_MAX_BYTES },
    async handler(req) {
      const documents = deps.documents?.();
      if (!documents) return fail(403, FILES_DISABLED);
      const p = await paramsOf(req);
      // Only a file the kernel's multipart reader made: a body shaped like one is no upload.
      const file = isUploadedFile(p.file) ? p.file : undefined;
      if (!file) return fail(400, 'Invalid request: missing file parameter');
      if (!p.source) return fail(400, 'Invalid request: missing source parameter');
      if (!p.target) return fail(400, 'Invalid request: missing target parameter');
      const party = await partyOf(p, req);
      if (refused(party)) return party;
      // A file is kept and translated for someone: keyless callers have no one to keep it for.
      if (party.keyless) return fail(403, 'Translating files needs an API key');
      try {
        const done = await documents.translateFile({
          caller: party.caller,
          file,
          source: p.source === 'auto' ? 'auto' : fromLibreCode(String(p.source)),
          target: fromLibreCode(String(p.target)),
        });
        const proto = typeof req.headers['x-forwarded-proto'] === 'string' ? req.headers['x-forwarded-proto'].split(',')[0]!.trim() : 'http';
        const host = typeof req.headers.host === 'string' ? req.headers.host : 'localhost';
        return json(200, { translatedFileUrl: `${proto}://${host}/api/lt/download_file/${done.downloadId}` });
      } catch (err) {
        // A full queue is LibreTranslate's "too many requests"; the rest as the text calls answer them.
        if (err instanceof ApiError && err.code === Codes.QUEUE_FULL) return fail(429, err.messages?.[requestLocale(req.headers)] ?? err.message);
        if (err instanceof ApiError && err.messages && [400, 403, 404].includes(err.code)) return fail(err.code === 404 ? 400 : err.code, err.messages[requestLocale(req.headers)]);
        return errorReply(err, req);
      }
    },
  };
  const downloadFile: RouteDefinition = {
    method: 'GET',
    url: '/lt/download_file/:filename',
    access: 'public',
    module: 'lt',
    summary: 'Download a translated file (LibreTranslate)',
    async handler(req) {
      const documents = deps.documents?.();
      if (!documents) return fail(403, FILES_DISABLED);
      const id = String((req.params as { filename?: unknown }).filename ?? '');
      const found = await documents.download(id);
      if (!found) return fail(404, 'Invalid filename');
      const ascii = found.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      return { raw: true, status: 200, contentType: found.contentType, body: found.body, headers: { 'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(found.name)}` } } satisfies RawReply;
    },
  };

  // Each declares LibreTranslate's answer (lt-openapi.ts), so the document and the route agree.
  return [translate, detect, languages, frontendSettings, health, suggest, translateFile, downloadFile].map((def) => ({ ...def, response: ltResponse(def) }));
}
