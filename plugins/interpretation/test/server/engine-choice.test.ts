import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startLibrePeer, startTestKernel, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';
import { concat, silence, speak, stream } from '../speech.js';
import { closeLiveSockets, connectLive } from '../live-client.js';

// The configuration names the engines: two translation engines for en -> es (the seeded Apertium and
// a LibreTranslate-compatible peer on 127.0.0.1, which answers "[es] <words reversed>"), the seeded
// pocketsphinx speech node. The kernel routes a named engine's requests to it alone and refuses one the
// user could not use anyway; a live session uses the configured engine, and one that has gone since
// falls back to the platform's choice with a notice.

let k: TestKernel;
let peer: LibrePeer;
let base: string;
let admin: string;
let user: string;
let ltEngine: number;
let ltNode: number;
let legalEngine: number;
let speechNode: number;
const en = { cookie: 'locale=en-US' };
const zh = { cookie: 'locale=zh-CN' };
const SENTENCE = 'The children are playing in the park.';
const config = (patch: Record<string, unknown> = {}) => ({ source: 'en', target: 'es', domain: '', speechNodeId: null, engineId: null, memories: [], termBases: [], speakerLabels: false, caption: { fontSize: 40, languages: 'two', theme: 'dark' }, ...patch });

async function call(method: string, url: string, token: string, payload?: unknown, headers: Record<string, string> = en) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return res.json();
}

const configs = async () => JSON.stringify(await (k.database.db as any).selectFrom('si_configs').selectAll().orderBy('user_id').execute());

/** One sentence spoken into a live session; its final caption and every message. */
async function speakInto(): Promise<{ final: any; messages: any[] }> {
  const audio = concat([silence(0.5), await speak(SENTENCE), silence(1.2)]);
  const live = connectLive(base, user);
  await live.waitFor((m) => m.type === 'ready');
  await stream((frame) => live.socket.send(frame), audio, 200);
  const final = await live.waitFor((m) => m.type === 'final' && m.utterance === 0, 60_000);
  live.socket.send(JSON.stringify({ type: 'stop' }));
  await live.waitFor((m) => m.type === 'ended');
  return { final, messages: live.messages };
}

beforeAll(async () => {
  peer = await startLibrePeer();
  k = await startTestKernel({ plugins: ['interpretation', 'service', 'engine-libretranslate', 'tm'] });
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(k.app.server.address() as { port: number }).port}/api/interpretation/live`;
  admin = await k.login('admin', ADMIN_PASSWORD);
  const engine = await call('POST', '/api/translServiceInfo/add', admin, { name: 'Remote LT', imageName: 'libretranslate', sourceLanguage: 'en', targetLanguage: 'es' });
  ltEngine = engine.data.id;
  const node = await call('POST', '/api/translServiceNode/add', admin, { kind: 'libretranslate', containerName: 'lt', baseUrl: peer.url, authenticationFile: 'none', engineId: ltEngine });
  expect(node.code, JSON.stringify(node)).toBe(200);
  ltNode = node.data.id;
  expect((await call('GET', `/api/translServiceNode/startTranslationService?id=${ltNode}`, admin)).data.health).toBe('healthy');
  // The same node as a legal-domain engine: not one to choose for another domain.
  legalEngine = (await call('POST', '/api/translServiceInfo/add', admin, { name: 'Legal LT', imageName: 'libretranslate', domain: 'legal', nodeIds: [ltNode] })).data.id;
  await createUserWithRole(k, 'si-chooser', 'Chooser-Passw0rd!', 'choosers', ['interpretation:use', 'interpretation:configure']);
  user = await k.login('si-chooser', 'Chooser-Passw0rd!');
}, 120_000);
afterAll(async () => {
  closeLiveSockets();
  await k?.shutdown();
  await peer?.close();
});

describe('choosing the engines of live interpretation', () => {
  it('lists the speech nodes that hear the language and the engines that translate the pair and domain', async () => {
    const answer = await call('GET', '/api/interpretation/engines?source=en&target=es', user);
    expect(answer.code, JSON.stringify(answer)).toBe(200);
    const ids = answer.data.translation.map((e: { id: number }) => e.id);
    expect(ids).toContain(ltEngine);
    expect(ids).toContain(legalEngine);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(answer.data.translation.find((e: { id: number }) => e.id === ltEngine)).toMatchObject({ name: 'Remote LT', ready: true });
    expect(answer.data.speech.length).toBeGreaterThan(0);
    speechNode = answer.data.speech[0].id;
    expect(answer.data.speech[0].ready).toBe(true);
    // Another domain leaves the legal engine out; a pair the remote engine does not take leaves it out.
    const news = await call('GET', '/api/interpretation/engines?source=en&target=es&domain=news', user);
    expect(news.data.translation.map((e: { id: number }) => e.id)).not.toContain(legalEngine);
    expect((await call('GET', '/api/interpretation/engines?source=es&target=en', user)).data.translation.map((e: { id: number }) => e.id)).not.toContain(ltEngine);
    expect((await call('GET', '/api/interpretation/engines?source=de&target=es', user)).data.speech).toEqual([]);
  });

  it('refuses an engine the user could not use anyway, in both languages, changing nothing', async () => {
    const before = await configs();
    const missing = await call('PUT', '/api/interpretation/config', user, config({ engineId: 999_999 }));
    expect(missing).toMatchObject({ code: 400 });
    expect(missing.msg).toContain('Translation engine 999999 cannot be chosen');
    expect((await call('PUT', '/api/interpretation/config', user, config({ engineId: 999_999 }), zh)).msg).toContain('翻译引擎 999999 不可选用');
    // The legal engine for a news configuration; a translation node named as the speech engine.
    expect((await call('PUT', '/api/interpretation/config', user, config({ engineId: legalEngine, domain: 'news' }))).code).toBe(400);
    const notSpeech = await call('PUT', '/api/interpretation/config', user, config({ speechNodeId: ltNode }));
    expect(notSpeech.code).toBe(400);
    expect(notSpeech.msg).toContain(`Speech node ${ltNode} cannot be chosen`);
    expect((await call('PUT', '/api/interpretation/config', user, config({ engineId: 0 }))).code).toBe(400);
    expect(await configs()).toBe(before);
  });

  it('refuses a memory the user may not use when the configuration is saved, not in the live session', async () => {
    const before = await configs();
    const memory = await call('POST', '/api/TM/library/add', admin, { name: "The administrator's", ownership: 'custom', users: [{ userId: 1, use: true, edit: true }] });
    expect(memory.code, JSON.stringify(memory)).toBe(200);
    const refused = await call('PUT', '/api/interpretation/config', user, config({ memories: [memory.data.id] }));
    expect(refused.code).toBe(403);
    expect(refused.msg).toBe(`Insufficient permission: you may not use memory ${memory.data.id}`);
    expect((await call('PUT', '/api/interpretation/config', user, config({ memories: [memory.data.id] }), zh)).msg).toBe(`权限不足：您不能使用记忆库 ${memory.data.id}`);
    expect(await configs()).toBe(before);
    await call('DELETE', `/api/TM/library/delete?id=${memory.data.id}`, admin);
  });

  it('translates a live session with the configured engine and recognises it on the configured speech node', async () => {
    const saved = await call('PUT', '/api/interpretation/config', user, config({ engineId: ltEngine, speechNodeId: speechNode }));
    expect(saved.code, JSON.stringify(saved)).toBe(200);
    expect(saved.data).toMatchObject({ engineId: ltEngine, speechNodeId: speechNode });
    const before = peer.requests.filter((r) => r.path === '/translate').length;
    const { final, messages } = await speakInto();
    expect(final.text).toMatch(/park/i);
    // The peer's answer, not Apertium's ("parque").
    expect(final.translation).toMatch(/^\[es\] /);
    expect(final.translation).toMatch(/park/i);
    expect(peer.requests.filter((r) => r.path === '/translate').length).toBeGreaterThan(before);
    expect(messages.some((m) => m.type === 'notice')).toBe(false);
  }, 120_000);

  it('falls back to the platform\'s choice with a notice when the configured engine has been disabled', async () => {
    const disabled = await call('PUT', '/api/translServiceInfo/update', admin, { id: ltEngine, enabled: false });
    expect(disabled.code, JSON.stringify(disabled)).toBe(200);
    // The saved choice can no longer be saved again...
    expect((await call('PUT', '/api/interpretation/config', user, config({ engineId: ltEngine }))).code).toBe(400);
    const { final, messages } = await speakInto();
    // ...and the session said so and translated with Apertium.
    expect(messages.find((m) => m.type === 'notice')?.message).toMatch(/translation engine is no longer available/);
    expect(final.translation).toMatch(/parque/i);
    await call('PUT', '/api/translServiceInfo/update', admin, { id: ltEngine, enabled: true });
  }, 120_000);
});
