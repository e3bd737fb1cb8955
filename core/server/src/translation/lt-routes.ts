import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import type { Observable } from 'rxjs';
import { ApiError, Codes, requestLocale, type Caller, type DocumentTranslationService, type EngineService, type RawReply, type RequestContext, type RouteDefinition, isUploadedFile } from '@linguaport/sdk/server';
import { DEFAULT_TEXT_TRANSLATION_CAP } from '@linguaport/sdk/shared';
import { fromLibreCode } from './languages.js';
import { createLtAccess, refused, type LtAccess, type Party } from './lt-access.js';
import { ltResponse } from './lt-openapi.js';
import { fail, json, languageName, paramsOf, secondsToMidnight, toLtCode } from './lt-reply.js';
import { REQUEST_FAILURE_MESSAGES, type RequestFailure } from './router.js';
import { guessLanguage } from './text-tools.js';
import type { FrontTranslateRequest } from './request-front.js';
import { countCharacters, readNumberSetting } from './usage.js';

/**
 * The LibreTranslate-compatible API under `/api/lt`: existing LibreTranslate clients work by
 * pointing them at `http://host/api/lt`. Answers and errors use LibreTranslate's shapes
 * (`{translatedText}`, `{error}` with 400, 403, 429), not the platform envelope, so the routes
 * are public and authenticate the key themselves: `api_key` or `apiKey` in the body or query,
 * `X-Api-Key` or `Authorization: Bearer` (lt-access.ts). Translations go through the same service
 * as the console, counted on the key owner's `api` channel. With LT_KEYLESS on, a call without a
 * key is served too, within LT_KEYLESS_CAP characters per address per day (counted by this
 * process). Every key (or keyless address) gets LT_RATE_LIMIT requests per minute; a 429 says
 * when to come back in `Retry-After`.
 */

export interface LtRouteDeps {
  db: Kysely<KernelTables>;
  engines: EngineService;
  resolveApiKey(db: Kysely<KernelTables>, key: string, now: Date): Promise<Caller | null>;
  /** One cheap check made on every cached hit, so a revoked key stops at once. */
  keyStillValid(db: Kysely<KernelTables>, key: string, userId: number, now: Date): Promise<boolean>;
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

/** What every route function gets: the dependencies, the clock, and the key and quota checks. */
interface LtContext {
  deps: LtRouteDeps;
  now: () => Date;
  access: LtAccess;
}

/** Every `/api/lt` route; each declares LibreTranslate's answer (lt-openapi.ts), so the document and the route agree. */
export function ltRoutes(deps: LtRouteDeps): RouteDefinition[] {
  const now = deps.now ?? (() => new Date());
  const access = createLtAccess({ db: deps.db, resolveApiKey: deps.resolveApiKey, keyStillValid: deps.keyStillValid, permissionsChanged: deps.permissionsChanged, readSetting: deps.readSetting, now });
  const lt: LtContext = { deps, now, access };
  const routes = [translateRoute(lt), detectRoute(lt), languagesRoute(lt), frontendSettingsRoute(lt), healthRoute(), suggestRoute(lt), translateFileRoute(lt), downloadFileRoute(lt)];
  return routes.map((def) => ({ ...def, response: ltResponse(def) }));
}

/** An error of the translation service as LibreTranslate answers it (400, 403, 429, 503, else 500). */
function errorReply(err: unknown, req: RequestContext, now: () => Date): RawReply {
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

/** Thrown into the request front when a cached key turns out revoked: the request fails uncounted, answered 403. */
const KEY_REFUSED = new Error('Invalid API key');

/** What the request front waits for before counting: the key's check when it runs beside the engine (lt-access.ts). */
const admittedOf = (party: Party) => (!party.keyless && party.confirmed ? party.confirmed.then((valid) => (valid ? undefined : Promise.reject(KEY_REFUSED))) : undefined);

// Keyless calls are nobody's (caller 0) on the text channel: the per-request text cap applies, and the
// address's daily characters are counted by lt-access.ts instead of a user's API cap.
function translateOne(engines: EngineService, party: Party, q: string, source: string, target: string, format: 'text' | 'html', admitted?: Promise<void>) {
  if (party.keyless) return engines.translate({ text: q, source, target, format, callerId: 0, channel: 'text' });
  const request: FrontTranslateRequest = { text: q, source, target, format, callerId: party.caller.userId, channel: 'api', admitted };
  return engines.translate(request);
}

/**
 * An array goes to the engine as one text when it can be split back exactly (items joined by
 * a blank line none of them holds, same source language), so 25 short items cost one engine
 * batch, not 25 round trips.
 */
async function translateArray(engines: EngineService, party: Party, texts: string[], source: string, target: string, format: 'text' | 'html', admitted?: Promise<void>) {
  const SEP = '\n\n';
  const joinable = source !== 'auto' && texts.every((t) => t.trim() !== '' && !t.includes(SEP) && t === t.trim());
  if (joinable) {
    const r = await translateOne(engines, party, texts.join(SEP), source, target, format, admitted);
    const parts = r.text.split(SEP);
    if (parts.length === texts.length) return parts.map((text) => ({ text, source: r.source, detected: r.detected }));
  }
  // A blank item is answered as it came, once the key is confirmed like the rest.
  return Promise.all(texts.map(async (t) => (t.trim() === '' ? (await admitted, { text: t, source, detected: undefined }) : translateOne(engines, party, t, source, target, format, admitted))));
}

/** POST /lt/translate: a text or an array of texts, `{translatedText}` (and the detected language with `auto`). */
function translateRoute({ deps, now, access }: LtContext): RouteDefinition {
  return {
    method: 'POST',
    url: '/lt/translate',
    // Using a service changes no administered data: kept out of the operation log.
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Translate text (LibreTranslate)',
    async handler(req) {
      const p = paramsOf(req);
      const q = p.q;
      if (q === undefined || q === null || q === '' || (Array.isArray(q) && q.length === 0)) return fail(400, 'Invalid request: missing q parameter');
      if (!p.source) return fail(400, 'Invalid request: missing source parameter');
      if (!p.target) return fail(400, 'Invalid request: missing target parameter');
      const format = p.format === undefined || p.format === '' ? 'text' : String(p.format);
      if (format !== 'text' && format !== 'html') return fail(400, `Invalid request: format must be text or html, got ${format}`);
      if (Array.isArray(q) ? q.some((x) => typeof x !== 'string') : typeof q !== 'string') return fail(400, 'Invalid request: q must be a string or an array of strings');
      const alternatives = p.alternatives === undefined || p.alternatives === '' ? 0 : Number(p.alternatives);
      if (!Number.isInteger(alternatives) || alternatives < 0) return fail(400, 'Invalid request: alternatives must be a whole number');
      // A cached key's check runs beside the engine's work; the front counts nothing before it passes.
      const party = await access.partyEarly(p, req);
      if (refused(party)) return party;
      const admitted = admittedOf(party);
      admitted?.catch(() => {});
      if (party.keyless) {
        const over = await access.takeKeyless(party.address, (Array.isArray(q) ? (q as string[]) : [q as string]).reduce((n, t) => n + countCharacters(t, format), 0), req);
        if (over) return over;
      }
      // The engines give one translation: asked for alternatives, the answer holds an empty list (per text).
      const alt = (n: number | null) => (alternatives > 0 ? { alternatives: n === null ? [] : Array.from({ length: n }, () => []) } : {});
      const source = p.source === 'auto' ? 'auto' : fromLibreCode(String(p.source));
      const target = fromLibreCode(String(p.target));
      try {
        if (!Array.isArray(q)) {
          const r = await translateOne(deps.engines, party, q as string, source, target, format, admitted);
          return json(200, { translatedText: r.text, ...alt(null), ...(r.detected ? { detectedLanguage: { language: toLtCode(r.detected.language), confidence: Math.round(r.detected.confidence * 100) } } : {}) });
        }
        const texts = q as string[];
        const results = await translateArray(deps.engines, party, texts, source, target, format, admitted);
        return json(200, {
          translatedText: results.map((r) => r.text),
          ...alt(texts.length),
          ...(source === 'auto' ? { detectedLanguage: results.map((r) => ({ language: toLtCode(r.source), confidence: Math.round((r.detected?.confidence ?? 1) * 100) })) } : {}),
        });
      } catch (err) {
        // A refused key is answered as before any work; so is any failure of a request whose key turned out refused.
        const keyRefused = err === KEY_REFUSED || (admitted !== undefined && (await admitted.then(() => false, (e) => (e === KEY_REFUSED ? true : Promise.reject(e)))));
        if (keyRefused) return fail(403, 'Invalid API key');
        return errorReply(err, req, now);
      }
    },
  };
}

/** POST /lt/detect: the language of a text, a low-confidence best guess rather than nothing. */
function detectRoute({ deps, access }: LtContext): RouteDefinition {
  return {
    method: 'POST',
    url: '/lt/detect',
    // Using a service changes no administered data: kept out of the operation log.
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Detect the language of a text (LibreTranslate)',
    async handler(req) {
      const p = paramsOf(req);
      if (typeof p.q !== 'string' || p.q === '') return fail(400, 'Invalid request: missing q parameter');
      const party = await access.partyOf(p, req);
      if (refused(party)) return party;
      const d = await deps.engines.detect(p.q);
      // Too short or unsure: a best guess at a low confidence, as LibreTranslate answers (clients expect one).
      const best = d.language === 'unknown' ? await guessLanguage(p.q, (await deps.engines.languages()).map((l) => l.code)) : d;
      return json(200, best.language === 'unknown' ? [] : [{ language: toLtCode(best.language), confidence: Math.round(best.confidence * 100) }]);
    },
  };
}

/** GET /lt/languages: every language a client may name, with its targets, in LibreTranslate's codes. */
function languagesRoute({ deps }: LtContext): RouteDefinition {
  return {
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
}

/** GET /lt/frontend/settings: the server's settings as LibreTranslate's web UI reads them. */
function frontendSettingsRoute({ deps }: LtContext): RouteDefinition {
  return {
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
}

/** GET /lt/health: whether the API answers. */
function healthRoute(): RouteDefinition {
  return {
    method: 'GET',
    url: '/lt/health',
    access: 'public',
    module: 'lt',
    summary: 'Whether the API answers (LibreTranslate)',
    handler: async () => json(200, { status: 'ok' }),
  };
}

/** POST /lt/suggest: a better translation from a client, kept for review. */
function suggestRoute({ deps, now, access }: LtContext): RouteDefinition {
  return {
    method: 'POST',
    url: '/lt/suggest',
    log: false,
    access: 'public',
    module: 'lt',
    summary: 'Suggest a better translation, kept for review (LibreTranslate)',
    async handler(req) {
      const p = paramsOf(req);
      for (const name of ['q', 's', 'source', 'target'] as const) {
        if (typeof p[name] !== 'string' || p[name] === '') return fail(400, `Invalid request: missing ${name} parameter`);
      }
      const party = await access.partyOf(p, req);
      if (refused(party)) return party;
      await deps.db
        .insertInto('lt_suggestions')
        .values({ q: String(p.q), s: String(p.s), source: fromLibreCode(String(p.source)), target: fromLibreCode(String(p.target)), user_id: party.keyless ? null : party.caller.userId, created_at: now() })
        .execute();
      return json(200, { success: true });
    },
  };
}

/** POST /lt/translate_file: served by the documents area when a plugin provides it; LibreTranslate's own refusal otherwise. */
function translateFileRoute({ deps, now, access }: LtContext): RouteDefinition {
  return {
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
      const p = paramsOf(req);
      // Only a file the kernel's multipart reader made: a body shaped like one is no upload.
      const file = isUploadedFile(p.file) ? p.file : undefined;
      if (!file) return fail(400, 'Invalid request: missing file parameter');
      if (!p.source) return fail(400, 'Invalid request: missing source parameter');
      if (!p.target) return fail(400, 'Invalid request: missing target parameter');
      const party = await access.partyOf(p, req);
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
        return errorReply(err, req, now);
      }
    },
  };
}

/** GET /lt/download_file/:filename: a file `/lt/translate_file` translated. */
function downloadFileRoute({ deps }: LtContext): RouteDefinition {
  return {
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
}
