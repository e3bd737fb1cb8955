import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// A new engine capability is a plugin (issue 24): the fixture plugin `tts` declares `tts` (labels,
// contract, the engines page's card) and a kind of it; with no kernel edit, its nodes are added and
// started through the engines area, a request for `tts` is routed by language to the node that takes
// it, and the engines page's API lists the capability with its labels and its nodes.

const FIXTURE = join(import.meta.dirname, '..', '..', '..', '..', 'tests', 'fixtures', 'plugins', 'tts');

let k: TestKernel;
let admin: string;
const nodes: Record<string, number> = {};

async function addNode(containerName: string, languages: string[]) {
  const res = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'tts-fixture', containerName, authenticationFile: 'none', config: { languages } });
  expect(res.body.code, res.body.msg).toBe(200);
  const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${res.body.data.id}`, admin);
  expect(started.body.data, started.body.msg).toMatchObject({ running: true, health: 'healthy' });
  return res.body.data.id as number;
}

/** A call in the given console language (the answer's msg follows it). */
async function speak(payload: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: 'POST', url: '/api/tts/speak', headers: { jwt: admin, cookie: `locale=${locale}` }, payload: payload as object });
  return res.json() as { code: number; msg: string; data: any };
}

beforeAll(async () => {
  // engine-whisper brings the SDK's speech declaration: the page lists both, each from its plugin.
  k = await startTestKernel({ plugins: ['service', 'engine-whisper', { id: 'tts', path: FIXTURE }], builtinEngine: false });
  admin = await k.login('admin', ADMIN_PASSWORD);
  nodes.en = await addNode('tts-en', ['en']);
  nodes.de = await addNode('tts-de', ['de']);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('a capability declared by a plugin', () => {
  it('is listed for the engines page with its labels, icon and plugin, beside the SDK-declared ones', async () => {
    const res = await k.call('GET', '/api/translServiceNode/capabilities', admin);
    expect(res.body.code, res.body.msg).toBe(200);
    const list = res.body.data as { id: string; plugins: string[] }[];
    expect(list.find((c) => c.id === 'tts')).toEqual({
      id: 'tts',
      name: { 'zh-CN': '语音合成', 'en-US': 'Text to speech' },
      node: { 'zh-CN': '语音合成节点', 'en-US': 'text-to-speech node' },
      routing: 'language',
      plugins: ['tts'],
      console: { title: { 'zh-CN': '语音合成节点', 'en-US': 'Text-to-speech nodes' }, icon: 'volume-up' },
    });
    expect(list.find((c) => c.id === 'speech')).toMatchObject({ routing: 'language', plugins: ['engine-whisper'] });
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string }[];
    expect(kinds.find((x) => x.kind === 'tts-fixture')).toMatchObject({ capability: 'tts', plugin: 'tts' });
  });

  it('lists its nodes with the languages their health check learnt; an unknown capability is 404', async () => {
    const res = await k.call('GET', '/api/translServiceNode/ttsNodes', admin);
    expect(res.body.code, res.body.msg).toBe(200);
    expect((res.body.data as { id: number; languages: string[]; health: string }[]).map((n) => [n.id, n.languages, n.health])).toEqual([
      [nodes.en, ['en'], 'healthy'],
      [nodes.de, ['de'], 'healthy'],
    ]);
    const unknown = await k.app.inject({ method: 'GET', url: '/api/translServiceNode/radioNodes', headers: { jwt: admin, cookie: 'locale=zh-CN' } });
    expect(unknown.json()).toMatchObject({ code: 404 });
    expect(unknown.json().msg).toContain('radioNodes');
  });

  it('routes a request for tts by language to the node that takes it, 400 in both languages when none does', async () => {
    const en = await speak({ text: 'Hello', language: 'en' });
    expect(en).toMatchObject({ code: 200, data: { bytes: 49, nodeId: nodes.en, kind: 'tts-fixture' } });
    const de = await speak({ text: 'Hallo Welt', language: 'de' });
    expect(de).toMatchObject({ code: 200, data: { bytes: 54, nodeId: nodes.de } });
    // A chosen node that does not take the language is refused, not used.
    expect(await speak({ text: 'Hello', language: 'en', nodeId: nodes.de })).toMatchObject({ code: 400, msg: 'The text-to-speech node tts-de does not recognise English' });
    expect(await speak({ text: 'Bonjour', language: 'fr' })).toMatchObject({ code: 400, msg: 'No text-to-speech node takes French' });
    expect(await speak({ text: 'Bonjour', language: 'fr' }, 'zh-CN')).toMatchObject({ code: 400, msg: '没有能处理 French 的语音合成节点' });
  });

  it('answers 503 once its only node for the language is stopped', async () => {
    await k.call('GET', `/api/translServiceNode/stopTranslationService?id=${nodes.de}`, admin);
    expect(await speak({ text: 'Hallo', language: 'de' })).toMatchObject({ code: 503, msg: 'Service interrupted: no text-to-speech node is available right now. Try again later.' });
    expect(await speak({ text: 'Hello', language: 'en' })).toMatchObject({ code: 200, data: { nodeId: nodes.en } });
  });
});
