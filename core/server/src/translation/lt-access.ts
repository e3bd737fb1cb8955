import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import type { Observable } from 'rxjs';
import type { Caller, RawReply, RequestContext } from '@linguaport/sdk/server';
import { readNumberSetting } from './usage.js';
import { fail, ltLocale, secondsToMidnight, type Params } from './lt-reply.js';

/**
 * Who may call `/api/lt` and how much: the API key (resolved to its owner, cached briefly), the
 * keyless mode (LT_KEYLESS) with its per-address daily characters (LT_KEYLESS_CAP), and the
 * per-minute request limit (LT_RATE_LIMIT) per key owner or keyless address.
 */

/**
 * Who is calling: a key's owner, or an address without a key (LT_KEYLESS). `confirmed`, given by
 * `partyEarly` for a cached key, resolves to whether the key is still valid (see there).
 */
export type Party = { caller: Caller; keyless: false; confirmed?: Promise<boolean> } | { caller: null; keyless: true; address: string };

export interface LtAccessDeps {
  db: Kysely<KernelTables>;
  resolveApiKey(db: Kysely<KernelTables>, key: string, now: Date): Promise<Caller | null>;
  /** One cheap check made on every cached hit, so a revoked key stops at once. */
  keyStillValid(db: Kysely<KernelTables>, key: string, userId: number, now: Date): Promise<boolean>;
  /** Emits when permissions change anywhere: cached callers are dropped. */
  permissionsChanged?: Observable<unknown>;
  readSetting(key: string): Promise<string | null>;
  now: () => Date;
}

export interface LtAccess {
  /**
   * The party behind a request, or the reply refusing it: 403 for a wrong key or a missing one
   * (unless keyless use is on), 429 with Retry-After past the per-minute limit.
   */
  partyOf(p: Params, req: RequestContext): Promise<Party | RawReply>;
  /**
   * As `partyOf`, except that a cached key's one-query validity check is not waited for: the party
   * carries it as `confirmed`, so the caller can run it beside the engine's work. The caller must not
   * answer, store or count anything for the party before `confirmed` is true (translateRoute passes
   * it to the request front as `admitted`), and must refuse with 403 when it is false.
   */
  partyEarly(p: Params, req: RequestContext): Promise<Party | RawReply>;
  /** Keyless use: the address's characters today, refused past LT_KEYLESS_CAP (429 until midnight UTC). */
  takeKeyless(address: string, characters: number, req: RequestContext): Promise<RawReply | null>;
}

/** Whether `partyOf` refused the request (its reply is to be sent as it is). */
export const refused = (x: Party | RawReply): x is RawReply => (x as RawReply).raw === true;

/** The key as LibreTranslate clients send it: `api_key` (its own web UI, translate), `apiKey` (libretranslate), a header. */
export function keyOf(p: Params, req: RequestContext): string {
  for (const v of [p.api_key, p.apiKey]) if (typeof v === 'string' && v) return v;
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ') && auth.length > 7) return auth.slice(7).trim();
  return '';
}

export function createLtAccess(deps: LtAccessDeps): LtAccess {
  const { now } = deps;
  // A key's caller (user, department, permissions) is resolved at most every 10 s, so a busy client
  // does not cost four queries per request. Each hit still checks the key itself with one indexed
  // query, so a reset, a disabled or deleted user or an expiry takes effect on the next request,
  // and a permission change drops the whole cache. Unknown keys are not cached: a key made a
  // moment ago works at once. `/translate` runs that check beside the engine (partyEarly).
  const keyCache = new Map<string, { at: number; caller: Caller }>();
  deps.permissionsChanged?.subscribe(() => keyCache.clear());
  // Requests per minute, per key owner or keyless address: a fixed one-minute window each.
  const windows = new Map<string, { start: number; count: number }>();
  // Keyless characters per address on the current UTC day, kept by this process (emptied when the day turns).
  const keyless = new Map<string, number>();
  let keylessDay = '';

  /** A key's caller; for a cached one, `confirmed` is its validity check, started and not awaited. */
  async function callerOf(key: string): Promise<{ caller: Caller; confirmed?: Promise<boolean> } | null> {
    if (!key) return null;
    const hit = keyCache.get(key);
    if (hit && Date.now() - hit.at < 10_000) {
      const confirmed = deps.keyStillValid(deps.db, key, hit.caller.userId, now()).then((valid) => {
        // A refused key leaves the cache: its next request is resolved in full (and refused before any work).
        if (!valid && keyCache.get(key) === hit) keyCache.delete(key);
        return valid;
      });
      // Whoever awaits it sees a failure; a request answered before that (a 429) leaves no unhandled rejection.
      confirmed.catch(() => {});
      return { caller: hit.caller, confirmed };
    }
    const caller = await deps.resolveApiKey(deps.db, key, now());
    if (keyCache.size > 10_000) keyCache.clear();
    if (caller) keyCache.set(key, { at: Date.now(), caller });
    else keyCache.delete(key);
    return caller ? { caller } : null;
  }

  async function partyOf(p: Params, req: RequestContext): Promise<Party | RawReply> {
    return partyWith(p, req, true);
  }

  async function partyEarly(p: Params, req: RequestContext): Promise<Party | RawReply> {
    return partyWith(p, req, false);
  }

  async function partyWith(p: Params, req: RequestContext, awaitCheck: boolean): Promise<Party | RawReply> {
    const key = keyOf(p, req);
    let party: Party;
    if (key) {
      const found = await callerOf(key);
      if (!found || (awaitCheck && found.confirmed && !(await found.confirmed))) return fail(403, 'Invalid API key');
      party = { caller: found.caller, keyless: false, ...(!awaitCheck && found.confirmed ? { confirmed: found.confirmed } : {}) };
    } else {
      if ((await deps.readSetting('LT_KEYLESS')) !== '1') return fail(403, 'Please contact the server operator to get an API key');
      party = { caller: null, keyless: true, address: req.ip ?? 'unknown' };
    }
    return overRate(party, await readNumberSetting(deps.readSetting, 'LT_RATE_LIMIT', 600), req) ?? party;
  }

  /** The per-minute limit: counts this request in its key owner's or address's window; the 429 past it. */
  function overRate(party: Party, limit: number, req: RequestContext): RawReply | null {
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
    return null;
  }

  async function takeKeyless(address: string, characters: number, req: RequestContext): Promise<RawReply | null> {
    const at = now();
    const day = at.toISOString().slice(0, 10);
    if (day !== keylessDay) {
      keyless.clear();
      keylessDay = day;
    }
    const cap = await readNumberSetting(deps.readSetting, 'LT_KEYLESS_CAP', 10_000);
    const used = keyless.get(address) ?? 0;
    if (used + characters > cap) {
      return fail(429, { 'zh-CN': `已达字符上限：今日无密钥已用 ${used} / ${cap} 个字符，本次请求 ${characters} 个`, 'en-US': `Character limit reached: ${used} of ${cap} characters used today without a key, this request has ${characters}` }[ltLocale(req)], { 'retry-after': String(secondsToMidnight(at)) });
    }
    if (keyless.size > 50_000) keyless.clear();
    keyless.set(address, used + characters);
    return null;
  }

  return { partyOf, partyEarly, takeKeyless };
}
