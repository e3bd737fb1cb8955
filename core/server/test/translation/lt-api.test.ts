import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, issueApiKey, startLibrePeer, startTestKernel, useOnlyLibreEngine, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';

// The LibreTranslate-compatible API (/api/lt) as LibreTranslate's own clients see it, against a real
// remote engine (a LibreTranslate-compatible peer on loopback): where the key may travel, the web UI's
// settings, suggestions, the {error} shape on every path, rate limits, keyless use and CORS.

let k: TestKernel;
let admin: string;
let user: { userId: number; apiKey: string };
let peer: LibrePeer;

async function lt(method: 'GET' | 'POST' | 'OPTIONS', path: string, opts: { body?: unknown; headers?: Record<string, string>; raw?: string } = {}) {
  const headers = { ...(opts.body !== undefined || opts.raw !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  const res = await k.app.inject({ method, url: `/api/lt${path}`, headers, ...(opts.raw !== undefined ? { payload: opts.raw } : opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}) });
  return { status: res.statusCode, headers: res.headers, body: res.body ? (String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body) : null };
}

/** Changes settings and waits until the API reads them (the change event drops the cached values). */
async function setConfig(values: Record<string, string>, seen: () => Promise<boolean>) {
  const entries = Object.entries(values).map(([configKey, configValue]) => ({ configKey, configValue }));
  const res = await k.call('PUT', '/api/systemConfig/updateConfig', admin, { entries });
  expect(res.body.code, res.body.msg).toBe(200);
  await expect.poll(seen, { timeout: 10_000, interval: 50 }).toBe(true);
}

const keyRequired = async () => (await lt('GET', '/frontend/settings')).body.keyRequired as boolean;

beforeAll(async () => {
  peer = await startLibrePeer();
  k = await startTestKernel({ plugins: ['service', 'engine-libretranslate'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  // Only the remote engine runs: the seeded local one is stopped.
  await useOnlyLibreEngine(k, admin, peer.url);
  const u = await createUserWithRole(k, 'lt-client', 'Client-Passw0rd!', 'lt-clients', []);
  user = { userId: u.userId, apiKey: await issueApiKey(k, u.userId) };
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  await peer?.close();
});

const HELLO = { q: 'The red car.', source: 'en', target: 'fr' };

describe('LibreTranslate-compatible API', () => {
  it('takes the key as api_key or apiKey, in the body or the query, or as Authorization: Bearer', async () => {
    const expected = { status: 200, body: { translatedText: '[fr] car. red The' } };
    expect(await lt('POST', '/translate', { body: { ...HELLO, api_key: user.apiKey } })).toMatchObject(expected);
    expect(await lt('POST', '/translate', { body: { ...HELLO, apiKey: user.apiKey } })).toMatchObject(expected);
    expect(await lt('POST', `/translate?apiKey=${encodeURIComponent(user.apiKey)}`, { body: HELLO })).toMatchObject(expected);
    expect(await lt('POST', `/translate?api_key=${encodeURIComponent(user.apiKey)}`, { body: HELLO })).toMatchObject(expected);
    expect(await lt('POST', '/translate', { body: HELLO, headers: { authorization: `Bearer ${user.apiKey}` } })).toMatchObject(expected);
    expect(await lt('POST', '/translate', { body: { ...HELLO, apiKey: 'lp_wrong' } })).toMatchObject({ status: 403, body: { error: 'Invalid API key' } });
    expect((await lt('POST', '/translate', { body: HELLO })).status).toBe(403);
  });

  it('answers alternatives as empty lists, one per text', async () => {
    expect((await lt('POST', '/translate', { body: { ...HELLO, alternatives: 3, api_key: user.apiKey } })).body).toEqual({ translatedText: '[fr] car. red The', alternatives: [] });
    const arr = await lt('POST', '/translate', { body: { ...HELLO, q: ['The red car.', 'A dog.'], alternatives: 2, api_key: user.apiKey } });
    expect(arr.body.alternatives).toEqual([[], []]);
    expect((await lt('POST', '/translate', { body: { ...HELLO, api_key: user.apiKey } })).body).not.toHaveProperty('alternatives');
  });

  it('detects with a low-confidence best guess for a short text instead of an empty list', async () => {
    const long = await lt('POST', '/detect', { body: { q: 'The weather is very nice today and we are going to the beach.', api_key: user.apiKey } });
    expect(long.body).toEqual([{ language: 'en', confidence: expect.any(Number) }]);
    expect(long.body[0].confidence).toBeGreaterThan(50);
    const short = await lt('POST', '/detect', { body: { q: 'ok', api_key: user.apiKey } });
    expect(short.status).toBe(200);
    expect(short.body).toHaveLength(1);
    expect(short.body[0].confidence).toBeLessThanOrEqual(30);
    expect(['en', 'fr']).toContain(short.body[0].language);
  });

  it('serves /frontend/settings and /health as LibreTranslate does', async () => {
    const s = await lt('GET', '/frontend/settings');
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({
      apiKeys: true,
      keyRequired: true,
      charLimit: -1,
      frontendTimeout: expect.any(Number),
      suggestions: true,
      filesTranslation: false,
      supportedFilesFormat: [],
      language: { source: { code: 'en', name: 'English' }, target: { code: 'es', name: 'Spanish' } },
    });
    expect(await lt('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    // A target-only language is listed too, so clients checking both codes accept the pair.
    expect((await lt('GET', '/languages')).body).toEqual([
      { code: 'en', name: 'English', targets: ['fr'] },
      { code: 'fr', name: 'French', targets: [] },
    ]);
  });

  it('stores a suggestion with its key owner for a reviewer', async () => {
    const res = await lt('POST', '/suggest', { body: { q: 'The red car.', s: 'La voiture rouge.', source: 'en', target: 'fr', api_key: user.apiKey } });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const rows = await k.database.db.selectFrom('lt_suggestions').selectAll().execute();
    expect(rows).toEqual([expect.objectContaining({ q: 'The red car.', s: 'La voiture rouge.', source: 'en', target: 'fr', user_id: user.userId })]);
    expect(await lt('POST', '/suggest', { body: { q: 'x', source: 'en', target: 'fr', api_key: user.apiKey } })).toMatchObject({ status: 400, body: { error: 'Invalid request: missing s parameter' } });
    expect((await lt('POST', '/suggest', { body: { q: 'x', s: 'y', source: 'en', target: 'fr', api_key: 'lp_wrong' } })).status).toBe(403);
  });

  it('declares file translation, answering that it is disabled', async () => {
    // LibreTranslate's clients send files as multipart; anything else is refused first (415, in its shape).
    const boundary = 'ltboundary';
    const form = await k.app.inject({ method: 'POST', url: '/api/lt/translate_file', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: `--${boundary}\r\nContent-Disposition: form-data; name="source"\r\n\r\nen\r\n--${boundary}--\r\n` });
    expect({ status: form.statusCode, body: form.json() }).toMatchObject({ status: 403, body: { error: 'Files translation are disabled on this server.' } });
    const json = await lt('POST', '/translate_file', { body: {} });
    expect(json.status).toBe(415);
    expect(Object.keys(json.body)).toEqual(['error']);
    expect(await lt('GET', '/download_file/abc.txt')).toMatchObject({ status: 403, body: { error: 'Files translation are disabled on this server.' } });
  });

  it('answers {error} on every path: malformed JSON, unknown paths, wrong methods, NUL characters', async () => {
    const bad = await lt('POST', '/translate', { raw: '{"q": "x",' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringMatching(/^Invalid request/) });
    expect(await lt('GET', '/nothing/here')).toMatchObject({ status: 404, body: { error: expect.stringContaining('Not Found') } });
    expect((await lt('GET', '/translate')).body).toEqual({ error: expect.any(String) });
    const nul = await lt('POST', '/translate', { body: { ...HELLO, q: 'a\u0000b', api_key: user.apiKey } });
    expect(nul.status).toBe(400);
    expect(Object.keys(nul.body)).toEqual(['error']);
    // The rest of the API keeps the envelope.
    expect((await k.call('GET', '/api/nothing/here')).body).toMatchObject({ code: 404 });
  });

  it('refuses a translation with a key reset while its caller is cached, and counts nothing for it', async () => {
    const u = await createUserWithRole(k, 'lt-reset', 'Reset-Passw0rd!', 'lt-reset', []);
    const first = await issueApiKey(k, u.userId);
    const usage = async () => Number((await k.database.db.selectFrom('usage_records').select('characters').where('user_id', '=', u.userId).where('channel', '=', 'api').executeTakeFirst())?.characters ?? 0);
    // Cached by a first call (the key's caller is kept for 10 s; its validity is checked on every call).
    expect((await lt('POST', '/translate', { body: { ...HELLO, api_key: first } })).status).toBe(200);
    const second = await issueApiKey(k, u.userId, new Date(Date.now() + 25 * 3_600_000));
    expect(await lt('POST', '/translate', { body: { ...HELLO, api_key: first } })).toMatchObject({ status: 403, body: { error: 'Invalid API key' } });
    expect(await lt('POST', '/translate', { body: { ...HELLO, q: ['One.', 'Two.'], api_key: first } })).toMatchObject({ status: 403, body: { error: 'Invalid API key' } });
    expect((await lt('POST', '/translate', { body: { ...HELLO, api_key: second } })).status).toBe(200);
    // Exactly the two served calls: a refused one counted would show here.
    await expect.poll(usage, { timeout: 5000 }).toBe(2 * HELLO.q.length);
  });

  it('limits requests per minute per key, with Retry-After', async () => {
    await setConfig({ LT_RATE_LIMIT: '3' }, async () => (await k.database.db.selectFrom('system_config').select('config_value').where('config_key', '=', 'LT_RATE_LIMIT').executeTakeFirst())?.config_value === '3');
    const u = await createUserWithRole(k, 'lt-busy', 'Busy-Passw0rd!', 'lt-busy', []);
    const key = await issueApiKey(k, u.userId);
    let refused: Awaited<ReturnType<typeof lt>> | null = null;
    await expect
      .poll(async () => {
        refused = await lt('POST', '/detect', { body: { q: 'Hello there my friend, how are you?', api_key: key } });
        return refused.status;
      }, { timeout: 10_000, interval: 10 })
      .toBe(429);
    expect(refused!.body.error).toMatch(/3 per minute/);
    // In the client's language when it names one (English when it names none, as LibreTranslate).
    expect((await lt('POST', '/detect', { body: { q: 'Hello there.', api_key: key }, headers: { 'accept-language': 'zh-CN' } })).body.error).toBe('请求过于频繁：每分钟最多 3 次');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused!.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another key is not held back.
    const other = await createUserWithRole(k, 'lt-calm', 'Calm-Passw0rd!', 'lt-calm', []);
    expect((await lt('POST', '/detect', { body: { q: 'Hello there my friend.', api_key: await issueApiKey(k, other.userId) } })).status).toBe(200);
    await setConfig({ LT_RATE_LIMIT: '600' }, async () => (await lt('POST', '/detect', { body: { q: 'Hello there my friend.', api_key: key } })).status === 200);
  });

  it('puts Retry-After on the daily character cap', async () => {
    await setConfig({ TEXT_TRANSLATION_CAP: '10', API_TRANSLATION_CAP: '20' }, async () => (await lt('POST', '/translate', { body: { ...HELLO, q: 'A long enough text to pass the small cap.', api_key: user.apiKey } })).status === 429);
    const over = await lt('POST', '/translate', { body: { ...HELLO, q: 'A long enough text to pass the small cap.', api_key: user.apiKey } });
    expect(over.body.error).toMatch(/cap/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    await setConfig({ API_TRANSLATION_CAP: '100000', TEXT_TRANSLATION_CAP: '5000' }, async () => (await lt('POST', '/translate', { body: { ...HELLO, api_key: user.apiKey } })).status === 200);
  });

  it('serves keyless calls when allowed, within a per-address character quota', async () => {
    expect(await keyRequired()).toBe(true);
    await setConfig({ LT_KEYLESS: '1', LT_KEYLESS_CAP: '30' }, async () => !(await keyRequired()));
    expect((await lt('GET', '/frontend/settings')).body.charLimit).toBe(5000);
    const first = await lt('POST', '/translate', { body: { ...HELLO, q: 'The red car is fast.' } });
    expect(first).toMatchObject({ status: 200, body: { translatedText: '[fr] fast. is car red The' } });
    const over = await lt('POST', '/translate', { body: { ...HELLO, q: 'The blue car is slow.' } });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/without a key/);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(24 * 3600);
    // The next day (UTC) the address starts again.
    k.clock.advance(24 * 3_600_000);
    expect((await lt('POST', '/translate', { body: { ...HELLO, q: 'The blue car is slow.' } })).status).toBe(200);
    admin = await k.login('admin', ADMIN_PASSWORD);
    // A wrong key is still refused, keyless or not.
    expect((await lt('POST', '/translate', { body: { ...HELLO, api_key: 'lp_wrong' } })).status).toBe(403);
    expect((await lt('POST', '/suggest', { body: { q: 'a', s: 'b', source: 'en', target: 'fr' } })).status).toBe(200);
    await setConfig({ LT_KEYLESS: '0' }, keyRequired);
    expect((await lt('POST', '/translate', { body: HELLO })).status).toBe(403);
  });

  it('allows browser origins from the setting only, with preflight', async () => {
    const origin = 'https://app.example.org';
    const pre = () => lt('OPTIONS', '/translate', { headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    const none = await pre();
    expect(none.status).toBe(204);
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
    await setConfig({ LT_CORS_ORIGINS: `https://other.example.org, ${origin}` }, async () => (await pre()).headers['access-control-allow-origin'] === origin);
    const granted = await pre();
    expect(granted.headers['access-control-allow-methods']).toContain('POST');
    expect(granted.headers['access-control-allow-headers']).toBe('content-type');
    const call = await lt('POST', '/translate', { body: { ...HELLO, api_key: user.apiKey }, headers: { origin } });
    expect(call.headers['access-control-allow-origin']).toBe(origin);
    expect((await lt('GET', '/languages', { headers: { origin: 'https://evil.example.org' } })).headers['access-control-allow-origin']).toBeUndefined();
    // Only /api/lt: the rest of the API grants no origin.
    const other = await k.app.inject({ method: 'GET', url: '/api/health', headers: { origin } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    await setConfig({ LT_CORS_ORIGINS: '' }, async () => (await pre()).headers['access-control-allow-origin'] === undefined);
  });
});
