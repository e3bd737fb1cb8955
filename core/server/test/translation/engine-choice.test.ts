import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startLibrePeer, startTestKernel, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';
import { FIXTURES } from '../support/kernel.js';

// A request may name its engine (`engineId`): two engines translate en -> es, the seeded Apertium
// and a LibreTranslate-compatible peer on 127.0.0.1 (it answers "[es] <words reversed>"). Every
// request naming one is served by that one (the segment's origin says so), however routing would
// have balanced them; an engine the request could not use anyway is refused before anything runs.

let k: TestKernel;
let peer: LibrePeer;
let admin: string;
let apertium: number;
let remote: number;
const en = { cookie: 'locale=en-US' };
const zh = { cookie: 'locale=zh-CN' };

async function translate(engineId: number | undefined, text: string, pair = { source: 'en', target: 'es' }, headers = en) {
  const payload = { segments: [{ id: '1', source: text }], ...pair, ...(engineId === undefined ? {} : { engineId }) };
  const res = await k.app.inject({ method: 'POST', url: '/api/glossary/segments', headers: { jwt: admin, ...headers }, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  peer = await startLibrePeer();
  k = await startTestKernel({ plugins: [{ id: 'glossary', path: join(FIXTURES, 'plugins', 'glossary') }, 'service', 'engine-libretranslate'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  const seeded = await k.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', admin);
  apertium = seeded.body.data.records[0].id;
  remote = (await k.call('POST', '/api/translServiceInfo/add', admin, { name: 'Remote LT', imageName: 'libretranslate', sourceLanguage: 'en', targetLanguage: 'es' })).body.data.id;
  const node = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'libretranslate', containerName: 'lt', baseUrl: peer.url, authenticationFile: 'none', engineId: remote });
  expect(node.body.code, JSON.stringify(node.body)).toBe(200);
  expect((await k.call('GET', `/api/translServiceNode/startTranslationService?id=${node.body.data.id}`, admin)).body.data.health).toBe('healthy');
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
  await peer?.close();
});

describe('a request naming its engine', () => {
  it('is served by that engine every time, and without a choice both engines serve', async () => {
    const origins = async (engineId: number | undefined, n: number) => {
      const out: { engineId: number; target: string }[] = [];
      for (let i = 0; i < n; i++) {
        const res = await translate(engineId, `The house number ${i} is big.`);
        expect(res.body.code, JSON.stringify(res.body)).toBe(200);
        const segment = res.body.data.segments[0];
        expect(segment.origin.kind).toBe('engine');
        out.push({ engineId: segment.origin.engineId, target: segment.target });
      }
      return out;
    };
    const toRemote = await origins(remote, 6);
    expect(toRemote.every((o) => o.engineId === remote && o.target.startsWith('[es] '))).toBe(true);
    const toApertium = await origins(apertium, 6);
    expect(toApertium.every((o) => o.engineId === apertium && !o.target.startsWith('[es]') && /casa/i.test(o.target))).toBe(true);
    // Unnamed, routing balances between them: the choice above was not luck.
    const either = await origins(undefined, 8);
    expect(new Set(either.map((o) => o.engineId))).toEqual(new Set([apertium, remote]));
  }, 60_000);

  it('refuses an engine that does not exist, does not take the pair, or is disabled, in both languages', async () => {
    const before = peer.requests.length;
    const missing = await translate(999_999, 'The house is big.');
    expect(missing.body).toMatchObject({ code: 400, msg: 'No translation engine with id 999999', data: { reason: 'noSuchEngine' } });
    expect((await translate(999_999, 'The house is big.', undefined, zh)).body.msg).toBe('找不到编号为 999999 的翻译引擎');
    // The remote engine is for en -> es only; Apertium takes es -> en.
    const foreign = await translate(remote, 'La casa es grande.', { source: 'es', target: 'en' });
    expect(foreign.body).toMatchObject({ code: 400, data: { reason: 'engineNotForPair' } });
    expect(foreign.body.msg).toContain('does not translate Spanish into English');
    expect((await translate(apertium, 'La casa es grande.', { source: 'es', target: 'en' })).body.code).toBe(200);
    expect((await k.call('PUT', '/api/translServiceInfo/update', admin, { id: remote, enabled: false })).body.code).toBe(200);
    const disabled = await translate(remote, 'The house is big.', undefined, zh);
    expect(disabled.body).toMatchObject({ code: 400, msg: '翻译引擎 Remote LT 已停用或已过期', data: { reason: 'engineDisabled' } });
    expect(peer.requests.length).toBe(before);
    expect((await k.call('PUT', '/api/translServiceInfo/update', admin, { id: remote, enabled: true })).body.code).toBe(200);
  });
});
