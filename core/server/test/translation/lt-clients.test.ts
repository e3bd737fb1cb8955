import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate as libreTranslate } from 'libretranslate';
import translate from 'translate';
import { ADMIN_PASSWORD, createUserWithRole, issueApiKey, startLibrePeer, startTestKernel, useOnlyLibreEngine, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';

// Real npm clients of LibreTranslate against a kernel listening on loopback, with a
// LibreTranslate-compatible peer as its engine: `libretranslate` sends the key as `apiKey`,
// `translate` (engine "libre") as `api_key`.

let k: TestKernel;
let peer: LibrePeer;
let base: string;
let apiKey: string;

beforeAll(async () => {
  peer = await startLibrePeer();
  k = await startTestKernel({ plugins: ['service', 'engine-libretranslate'] });
  const admin = await k.login('admin', ADMIN_PASSWORD);
  // Only the remote engine runs: the seeded local one is stopped.
  await useOnlyLibreEngine(k, admin, peer.url);
  const u = await createUserWithRole(k, 'npm-client', 'Client-Passw0rd!', 'npm-clients', []);
  apiKey = await issueApiKey(k, u.userId);
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(k.app.server.address() as AddressInfo).port}/api/lt`;
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  await peer?.close();
});

describe('LibreTranslate npm clients', () => {
  it('libretranslate@1.0.1 translates with its apiKey', async () => {
    const text = await libreTranslate({ query: 'The red car.', source: 'en', target: 'fr', apiurl: base, apiKey });
    expect(text).toBe('[fr] car. red The');
  });

  it('libretranslate@1.0.1 gets no translation with a wrong key', async () => {
    expect(await libreTranslate({ query: 'The red car.', source: 'en', target: 'fr', apiurl: base, apiKey: 'lp_wrong' })).toBeUndefined();
  });

  it('translate@3.1.0 (engine libre) translates with its api_key', async () => {
    const t = translate.Translate({ engine: 'libre', key: apiKey, url: `${base}/translate` } as never);
    expect(await t('The red car.', { from: 'en', to: 'fr' })).toBe('[fr] car. red The');
  });

  it('translate@3.1.0 reports the error of a wrong key', async () => {
    const t = translate.Translate({ engine: 'libre', key: 'lp_wrong', url: `${base}/translate` } as never);
    // Another text: the client caches what it has translated.
    await expect(t('The blue car.', { from: 'en', to: 'fr' })).rejects.toThrow(/Invalid API key|403/);
  });
});
