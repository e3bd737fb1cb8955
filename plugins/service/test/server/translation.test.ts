import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, issueApiKey, seededContainerCount, startLibrePeer, startTestKernel, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';

// The translation service end to end inside one kernel: the seeded Apertium engine (real APy),
// the engine-management routes, text translation, the tools, usage records and the
// LibreTranslate-compatible API, all with the product plugins loaded by the real host.

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const SENTENCE = 'The cat is sleeping on the red sofa.';

let k: TestKernel;
let admin: string;
let user: { userId: number; token: string; apiKey: string };
let nodeId: number;
let peer: LibrePeer;

async function lt(path: string, body: unknown, contentType = 'application/json') {
  const payload = contentType === 'application/json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString();
  const res = await k.app.inject({ method: 'POST', url: `/api/lt${path}`, headers: { 'content-type': contentType }, payload });
  return { status: res.statusCode, body: res.json() };
}

async function setCaps(values: Record<string, string>) {
  const entries = Object.entries(values).map(([configKey, configValue]) => ({ configKey, configValue }));
  const res = await k.call('PUT', '/api/systemConfig/updateConfig', admin, { entries });
  expect(res.body.code, res.body.msg).toBe(200);
  // Nothing to wait for: the bus hands the change event to this instance's subscribers (the service's
  // cached caps) inside publish, before the configuration call answers.
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['service', 'trans-text', 'text-tools', 'trans-records', 'engine-libretranslate'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  const u = await createUserWithRole(k, 'translator', 'Transl-Passw0rd!', 'translators', ['transText:use', 'textTools:use']);
  const apiKey = await issueApiKey(k, u.userId);
  user = { userId: u.userId, token: await k.login('translator', 'Transl-Passw0rd!'), apiKey };
  const engines = await k.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', admin);
  nodeId = engines.body.data.records[0].nodeIds[0];
  peer = await startLibrePeer();
}, 120_000);

afterAll(async () => {
  await peer?.close();
  await k?.shutdown();
});

describe('translation service', () => {
  it('seeds one Apertium engine with a local node on first start', async () => {
    const res = await k.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', admin);
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.records[0]).toMatchObject({ name: 'Apertium', imageName: 'apertium', enabled: true, containerCount: seededContainerCount() });
  });

  it('translates typed text to Spanish with Apertium and keeps it in the history', async () => {
    const res = await k.call('POST', '/api/transText/translate', user.token, { text: SENTENCE, source: 'en', target: 'es' });
    expect(res.body.code).toBe(200);
    expect(res.body.data.text).toMatch(/gato/);
    expect(res.body.data.text).toMatch(/sofá rojo/);
    const history = await k.call('GET', '/api/transText/history', user.token);
    expect(history.body.data[0]).toMatchObject({ sourceText: SENTENCE, targetText: res.body.data.text });
    const edit = await k.call('PUT', `/api/transText/history/${history.body.data[0].id}`, user.token, { targetText: 'El gato duerme en el sofá rojo.' });
    expect(edit.body.code).toBe(200);
    expect((await k.call('GET', '/api/transText/history', user.token)).body.data[0].targetText).toBe('El gato duerme en el sofá rojo.');
  }, 60_000);

  it('detects English, and answers unknown for a too short text', async () => {
    expect((await k.call('POST', '/api/language/detect', user.token, { text: SENTENCE })).body.data.language).toBe('en');
    expect((await k.call('POST', '/api/language/detect', user.token, { text: 'ok' })).body.data.language).toBe('unknown');
  });

  it('detects a German sentence no engine takes and says so instead of blaming the text, in the caller\'s language', async () => {
    const german = 'Kannst du mir bitte sagen, wann der nächste Zug nach Hamburg fährt?';
    const detected = await k.call('POST', '/api/transText/detect', user.token, { text: german });
    expect(detected.body.data).toMatchObject({ language: 'de', translatable: false, targets: [] });
    const english = await k.call('POST', '/api/transText/detect', user.token, { text: SENTENCE });
    expect(english.body.data).toMatchObject({ language: 'en', translatable: true });
    expect(english.body.data.targets).toContain('es');
    const chinese = await k.call('POST', '/api/transText/detect', user.token, { text: '我们每年夏天都会回老家看望爷爷奶奶。' });
    expect(chinese.body.data.language.startsWith('zh')).toBe(true);
    const asked = (locale: string) =>
      k.app.inject({ method: 'POST', url: '/api/transText/translate', headers: { jwt: user.token, 'accept-language': locale }, payload: { text: german, source: 'auto', target: 'es' } });
    const en = await asked('en-US');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({ code: 400, msg: 'No engine translates from German', data: { reason: 'noEngineForSource', language: 'de' } });
    expect((await asked('zh-CN')).json().msg).toBe('没有引擎能从德语翻译');
    // The public API says it too (in English), not "too short".
    const api = await lt('/translate', { q: german, source: 'auto', target: 'es', api_key: user.apiKey });
    expect(api.status).toBe(400);
    expect(api.body.error).toMatch(/German/);
  });

  it('splits sentences and segments words', async () => {
    const split = await k.call('POST', '/api/clause/split', user.token, { text: 'Dr. Smith came. He left!' });
    expect(split.body.data.sentences).toEqual(['Dr. Smith came. ', 'He left!']);
    const words = await k.call('POST', '/api/participle/segment', user.token, { text: '我爱北京天安门', language: 'zh-CN' });
    expect(words.body.data.words).toEqual(['我', '爱', '北京', '天安门']);
  });

  it('refuses a text over the text translation cap', async () => {
    // Through the system configuration: its change event drops the service's cached caps at once.
    await setCaps({ TEXT_TRANSLATION_CAP: '10' });
    const res = await k.call('POST', '/api/transText/translate', user.token, { text: SENTENCE, source: 'en', target: 'es' });
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toMatch(/cap/);
    await setCaps({ TEXT_TRANSLATION_CAP: '5000' });
    expect((await k.call('POST', '/api/transText/translate', user.token, { text: SENTENCE, source: 'en', target: 'es' })).body.code).toBe(200);
  }, 20_000);

  it('serves LibreTranslate clients with an API key and counts the characters on the key owner', async () => {
    const res = await lt('/translate', { q: SENTENCE, source: 'en', target: 'es', format: 'text', api_key: user.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.translatedText).toMatch(/gato/);
    const arr = await lt('/translate', { q: ['The red car.', 'The dog is small.'], source: 'en', target: 'es', api_key: user.apiKey }, 'application/json');
    expect(arr.body.translatedText).toHaveLength(2);
    expect(arr.body.translatedText[0]).toMatch(/coche rojo/);
    const auto = await lt('/translate', { q: SENTENCE, source: 'auto', target: 'es', api_key: user.apiKey }, 'application/x-www-form-urlencoded');
    expect(auto.body.detectedLanguage).toMatchObject({ language: 'en' });
    // Usage is written off the request path, within about 100 ms.
    const expected = SENTENCE.length * 2 + 'The red car.'.length + 'The dog is small.'.length;
    const usage = () => k.database.db.selectFrom('usage_records').select('characters').where('user_id', '=', user.userId).where('channel', '=', 'api').executeTakeFirst();
    await expect.poll(async () => Number((await usage())?.characters), { timeout: 5000 }).toBe(expected);
    const records = await k.call('GET', '/api/transRecords/list?username=translator', admin);
    expect(records.body.data.records[0]).toMatchObject({ username: 'translator', apiCharacters: expected, textCharacters: SENTENCE.length * 2 });
  }, 30_000);

  it('answers LibreTranslate error shapes: 400 bad input, 403 bad key, 429 over the API cap', async () => {
    expect(await lt('/translate', { source: 'en', target: 'es', api_key: user.apiKey })).toEqual({ status: 400, body: { error: 'Invalid request: missing q parameter' } });
    expect(await lt('/translate', { q: 'Hello there.', source: 'en', target: 'es', api_key: 'nope' })).toEqual({ status: 403, body: { error: 'Invalid API key' } });
    expect((await lt('/translate', { q: 'Hello there.', source: 'en', target: 'es' })).status).toBe(403);
    expect((await lt('/translate', { q: 'Hello there.', source: 'en', target: 'xx', api_key: user.apiKey })).status).toBe(400);
    await setCaps({ TEXT_TRANSLATION_CAP: '10', API_TRANSLATION_CAP: '100' });
    const over = await lt('/translate', { q: 'Hello there.', source: 'en', target: 'es', api_key: user.apiKey });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/cap/);
    await setCaps({ API_TRANSLATION_CAP: '100000', TEXT_TRANSLATION_CAP: '5000' });
  }, 20_000);

  it('stops a reset key, a disabled user and a deleted user on the very next request, and takes a new key at once', async () => {
    const u = await createUserWithRole(k, 'lt-revoke', 'Revoke-Passw0rd!', 'lt-revokers', ['transText:use']);
    const first = await issueApiKey(k, u.userId);
    const detect = (key: string) => lt('/detect', { q: SENTENCE, api_key: key });
    expect((await detect(first)).status).toBe(200);
    // Reset (a day later, past the 24-hour limit): the old key is refused even while its caller is cached.
    const second = await issueApiKey(k, u.userId, new Date(Date.now() + 25 * 3_600_000));
    expect(second).not.toBe(first);
    expect(await detect(first)).toEqual({ status: 403, body: { error: 'Invalid API key' } });
    expect((await detect(second)).status).toBe(200);
    await k.database.db.updateTable('users').set({ enabled: false }).where('id', '=', u.userId).execute();
    expect((await detect(second)).status).toBe(403);
    await k.database.db.updateTable('users').set({ enabled: true }).where('id', '=', u.userId).execute();
    expect((await detect(second)).status).toBe(200);
    await k.database.db.deleteFrom('users').where('id', '=', u.userId).execute();
    expect((await detect(second)).status).toBe(403);
  }, 20_000);

  it('lists languages with targets and detects through the API', async () => {
    const res = await k.app.inject({ method: 'GET', url: '/api/lt/languages' });
    const en = res.json().find((l: { code: string }) => l.code === 'en');
    expect(en.targets).toEqual(expect.arrayContaining(['es', 'ca']));
    expect((await lt('/detect', { q: SENTENCE, api_key: user.apiKey })).body[0]).toMatchObject({ language: 'en' });
  });

  it('says service interrupted when the node is stopped, and translates again once started', async () => {
    const stop = await k.call('GET', `/api/translServiceNode/stopTranslationService?id=${nodeId}`, admin);
    expect(stop.body.data).toMatchObject({ running: false, health: 'stopped', desiredState: 'stopped' });
    const down = await k.call('POST', '/api/transText/translate', user.token, { text: SENTENCE, source: 'en', target: 'es' });
    expect(down.body.code).toBe(503);
    expect(down.body.msg).toMatch(/Service interrupted/);
    expect((await lt('/translate', { q: SENTENCE, source: 'en', target: 'es', api_key: user.apiKey })).status).toBe(503);
    // Health says so too: the only engine has no node up.
    const sick = (await k.call('GET', '/api/health')).body.data;
    expect(sick.status).toBe('degraded');
    expect(sick.engines[0]).toMatchObject({ name: 'Apertium', ready: false, nodes: [{ id: nodeId, health: 'stopped', desired: 'stopped' }] });
    const start = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${nodeId}`, admin);
    expect(start.body.data).toMatchObject({ running: true, health: 'healthy' });
    const up = await k.call('POST', '/api/transText/translate', user.token, { text: SENTENCE, source: 'en', target: 'es' });
    expect(up.body.data.text).toMatch(/gato/);
    const well = (await k.call('GET', '/api/health')).body.data;
    expect(well.status).toBe('ok');
    expect(well.engines[0]).toMatchObject({ name: 'Apertium', ready: true, nodes: [{ id: nodeId, health: 'healthy', desired: 'running' }] });
  }, 60_000);

  it('fails over from a failing remote node (a node-wide 503) to a healthy one and marks the failing one unhealthy', async () => {
    const engine = await k.call('POST', '/api/translServiceInfo/add', admin, { name: 'Remote LT', imageName: 'libretranslate', sourceLanguage: 'en', targetLanguage: 'fr' });
    const add = (containerName: string) =>
      k.call('POST', '/api/translServiceNode/add', admin, { kind: 'libretranslate', containerName, baseUrl: peer.url, authenticationFile: 'none', engineId: engine.body.data.id, password: 'node-secret' });
    const a = await add('lt-a');
    const b = await add('lt-b');
    expect(a.body.data).not.toHaveProperty('password');
    const sealed = await k.database.db.selectFrom('engine_nodes').select('password_sealed').where('id', '=', a.body.data.id).executeTakeFirstOrThrow();
    expect(sealed.password_sealed).not.toContain('node-secret');
    for (const n of [a, b]) expect((await k.call('GET', `/api/translServiceNode/startTranslationService?id=${n.body.data.id}`, admin)).body.data.health).toBe('healthy');
    peer.options.failNext = { count: 1, status: 503, error: 'upstream down' };
    const res = await k.call('POST', '/api/transText/translate', user.token, { text: 'red car', source: 'en', target: 'fr' });
    expect(res.body.data.text).toBe('[fr] car red');
    const healths = await Promise.all([a, b].map((n) => k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${n.body.data.id}`, admin)));
    expect(healths.map((h) => h.body.data.health).sort()).toEqual(['healthy', 'unhealthy']);
  }, 30_000);

  it('accepts an authorization file signed by a trusted key and refuses others with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'licence-'));
    const script = join(ROOT, 'scripts', 'licence.mjs');
    const publicKey = execFileSync('node', [script, 'keygen', dir], { encoding: 'utf8' }).trim();
    const file = execFileSync('node', [script, 'sign', join(dir, 'licence-key.pem'), '--engine', 'apertium', '--pairs', 'en-es', '--nodes', '2', '--expires', '2099-01-01'], { encoding: 'utf8' });
    const upload = (content: string) =>
      k.app.inject({
        method: 'POST',
        url: '/api/translServiceNode/uploadAuthorizationFile',
        headers: { jwt: admin, 'content-type': 'multipart/form-data; boundary=XB' },
        payload: `--XB\r\nContent-Disposition: form-data; name="engineId"\r\n\r\n1\r\n--XB\r\nContent-Disposition: form-data; name="file"; filename="a.lic"\r\nContent-Type: application/json\r\n\r\n${content}\r\n--XB--\r\n`,
      });
    expect((await upload(file)).json().msg).toMatch(/No trusted licence key/);
    expect((await k.call('POST', '/api/translServiceNode/addTrustedKey', admin, { name: 'vendor', publicKey })).body.code).toBe(200);
    const ok = (await upload(file)).json();
    expect(ok.code).toBe(200);
    expect(ok.data.expiresAt).toBe('2099-01-01T00:00:00.000Z');
    const tampered = JSON.parse(file);
    tampered.payload = tampered.payload.replace('"nodeLimit":2', '"nodeLimit":9');
    expect((await upload(JSON.stringify(tampered))).json()).toMatchObject({ code: 400, msg: 'The authorization file is not signed by a trusted licence key.' });
    expect((await upload('hello')).json().msg).toMatch(/not a licence/);
  }, 30_000);

  it('answers 403 to every mutating call without its key, and changes nothing', async () => {
    const before = await k.database.db.selectFrom('engines').selectAll().orderBy('id').execute();
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/translServiceInfo/add', { name: 'x', imageName: 'apertium' }],
      ['PUT', '/api/translServiceInfo/update', { id: 1, name: 'renamed' }],
      ['DELETE', '/api/translServiceInfo/delete/1'],
      ['POST', '/api/translServiceInfo/addUseLanguageAbbreviation', { id: 1, abbreviations: { en: 'EN' } }],
      ['POST', '/api/translServiceInfo/selectUsedModel', { id: 1, model: 'm' }],
      ['POST', '/api/translServiceInfo/selectModelLanguage', { id: 1, sourceLanguage: 'en', targetLanguage: 'es' }],
      ['POST', '/api/translServiceNode/add', { kind: 'apertium-local', containerName: 'x', authenticationFile: 'a' }],
      ['DELETE', `/api/translServiceNode/delete?id=${nodeId}`],
      ['GET', `/api/translServiceNode/stopTranslationService?id=${nodeId}`],
      ['POST', '/api/translServiceNode/addTrustedKey', { name: 'k', publicKey: 'MCowBQYDK2VwAyEAEy/mtXpYzvMasqcF/jZH2T3DRIASlwNuJ47XdGTg3rE=' }],
      ['GET', '/api/transRecords/export'],
    ];
    for (const [method, url, body] of calls) {
      const res = await k.call(method, url, user.token, body);
      expect([res.status, url]).toEqual([403, url]);
    }
    expect(await k.database.db.selectFrom('engines').selectAll().orderBy('id').execute()).toEqual(before);
    expect((await k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${nodeId}`, admin)).body.data.running).toBe(true);
  });

  it('takes the bodies the console dialogs send: full edit with cleared fields, model language, abbreviations', async () => {
    const engine = (await k.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', admin)).body.data.records[0];
    // An empty name comes back as a field message the Edit dialog places beside the name.
    const empty = await k.call('PUT', '/api/translServiceInfo/update', admin, { id: engine.id, name: '' });
    expect([empty.body.code, empty.body.msg]).toEqual([400, expect.stringMatching(/^(Invalid request: |请求无效：)?body\.name: Engine name is required$/)]);

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const edit = { id: engine.id, name: 'Apertium edited', imageName: 'apertium', sourceLanguage: null, targetLanguage: null, domain: 'news', consumer: null, nodeIds: engine.nodeIds, expiresAt, enabled: true, containerCount: 3 };
    const saved = await k.call('PUT', '/api/translServiceInfo/update', admin, edit);
    expect(saved.body.data).toMatchObject({ ...edit, id: engine.id });

    const pick = await k.call('POST', '/api/translServiceInfo/selectModelLanguage', admin, { id: engine.id, sourceLanguage: 'en', targetLanguage: 'es' });
    expect(pick.body.data).toMatchObject({ sourceLanguage: 'en', targetLanguage: 'es' });
    const pairs = (await k.call('GET', `/api/translServiceInfo/getTranslationServiceByIdLanguage/${engine.id}`, admin)).body.data;
    expect(pairs).toEqual([{ source: 'en', target: 'es', abbreviation: null }]);

    await k.call('POST', '/api/translServiceInfo/addUseLanguageAbbreviation', admin, { id: engine.id, abbreviations: { en: 'EN' } });
    const merged = await k.call('POST', '/api/translServiceInfo/addUseLanguageAbbreviation', admin, { id: engine.id, abbreviations: { es: 'ES' } });
    expect(merged.body.data).toEqual({ en: 'EN', es: 'ES' });
    expect((await k.call('GET', `/api/translServiceInfo/getTranslationServiceByIdLanguage/${engine.id}`, admin)).body.data).toEqual([{ source: 'en', target: 'es', abbreviation: 'EN' }]);

    // Back to the seeded state (any pair, no expiry) for the tests after this one.
    const back = await k.call('PUT', '/api/translServiceInfo/update', admin, { ...edit, name: engine.name, domain: engine.domain, expiresAt: null, containerCount: engine.containerCount });
    expect(back.body.data).toMatchObject({ name: engine.name, sourceLanguage: null, targetLanguage: null, expiresAt: null });
  });

  it('exports the usage records as XLSX', async () => {
    const res = await k.app.inject({ method: 'GET', url: '/api/transRecords/export?lang=en-US', headers: { jwt: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    const XLSX = await import('@e965/xlsx');
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(XLSX.read(res.rawPayload).Sheets['Usage records']);
    expect(rows.find((r) => r['User name'] === 'translator')).toBeTruthy();
  });
});
