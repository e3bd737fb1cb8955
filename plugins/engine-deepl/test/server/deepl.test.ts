// Database: none
import { afterEach, describe, expect, it } from 'vitest';
import { failsNode } from '@linguaport/sdk/server';
import { createDeeplAdapter, deeplConfig, deeplDefinition } from '../../server/adapter.js';
import { fromDeeplCode, toDeeplSource, toDeeplTarget } from '../../server/codes.js';
import { startDeeplPeer, TARGETS, type DeeplPeer } from '../support/deepl-peer.js';

// The DeepL adapter against a protocol-faithful peer on loopback (test/support/deepl-peer.ts).

let peer: DeeplPeer | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
});

const KEY = 'deepl-test-key:fx';
const adapter = (p: DeeplPeer, apiKey = KEY) => createDeeplAdapter({ url: p.url, apiKey, timeoutMs: 5000 });

describe('DeepL adapter', () => {
  it('maps platform codes to DeepL source and target codes and back', () => {
    expect(toDeeplSource('en-GB')).toBe('EN');
    expect(toDeeplSource('zh-CN')).toBe('ZH');
    expect(toDeeplTarget('en', TARGETS)).toBe('EN-US');
    expect(toDeeplTarget('en-GB', TARGETS)).toBe('EN-GB');
    expect(toDeeplTarget('pt-BR', TARGETS)).toBe('PT-BR');
    expect(toDeeplTarget('pt', TARGETS)).toBe('PT-PT');
    expect(toDeeplTarget('zh-CN', TARGETS)).toBe('ZH-HANS');
    expect(toDeeplTarget('zh-CN', ['ZH', 'EN-US'])).toBe('ZH');
    expect(toDeeplTarget('zh-TW', TARGETS)).toBe('ZH-HANT');
    expect(toDeeplTarget('de', TARGETS)).toBe('DE');
    expect(toDeeplTarget('ko', TARGETS)).toBeNull();
    expect(fromDeeplCode('EN-GB')).toBe('en-GB');
    expect(fromDeeplCode('ZH-HANS')).toBe('zh-CN');
    expect(fromDeeplCode('DE')).toBe('de');
  });

  it('lists its pairs from /v2/languages (source and target), with the key in the header', async () => {
    peer = await startDeeplPeer();
    const pairs = await adapter(peer).languagePairs();
    for (const p of [
      { source: 'en', target: 'de' },
      { source: 'de', target: 'en' },
      { source: 'de', target: 'en-GB' },
      { source: 'en', target: 'zh-CN' },
      { source: 'zh-CN', target: 'en-US' },
      { source: 'en', target: 'pt-BR' },
    ]) {
      expect(pairs).toContainEqual(p);
    }
    expect(pairs).not.toContainEqual({ source: 'en', target: 'en-GB' });
    expect(pairs).not.toContainEqual({ source: 'en', target: 'en' });
    const calls = peer.requests.filter((r) => r.path === '/v2/languages');
    expect(calls).toHaveLength(2);
    for (const c of calls) expect(c.headers.authorization).toBe(`DeepL-Auth-Key ${KEY}`);
  });

  it('translates a batch of text in one request: text as an array, upper-case codes, answers in order', async () => {
    peer = await startDeeplPeer();
    const engine = adapter(peer);
    expect(await engine.translate({ source: 'en', target: 'pt-BR', segments: ['red car', 'big old house'], format: 'text' })).toEqual(['[PT-BR] car red', '[PT-BR] house old big']);
    const [call] = peer.requests.filter((r) => r.path === '/v2/translate');
    expect(call!.body).toEqual({ text: ['red car', 'big old house'], source_lang: 'EN', target_lang: 'PT-BR' });
    expect(await engine.translate({ source: 'de', target: 'en', segments: ['rotes Auto'], format: 'text' })).toEqual(['[EN-US] Auto rotes']);
    expect(await engine.translate({ source: 'en', target: 'zh-CN', segments: ['red car'], format: 'text' })).toEqual(['[ZH-HANS] car red']);
  });

  it('translates html with tag_handling=html, the tags kept', async () => {
    peer = await startDeeplPeer();
    expect(await adapter(peer).translate({ source: 'en', target: 'de', segments: ['the <b>red car</b> here'], format: 'html' })).toEqual(['the <b>car red</b> here']);
    expect(peer.requests.find((r) => r.path === '/v2/translate')!.body).toMatchObject({ tag_handling: 'html', target_lang: 'DE' });
  });

  it('the peer takes the form body of the protocol too (text repeated)', async () => {
    peer = await startDeeplPeer();
    const form = new URLSearchParams([['text', 'red car'], ['text', 'old house'], ['target_lang', 'FR']]);
    const res = await fetch(`${peer.url}/v2/translate`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}` }, body: form });
    expect(await res.json()).toEqual({ translations: [{ detected_source_language: 'EN', text: '[FR] car red' }, { detected_source_language: 'EN', text: '[FR] house old' }] });
  });

  it('classifies each error: a bad key (403), a used-up quota (456) and too many requests (429) fail the node; a bad request (400) fails only the request', async () => {
    peer = await startDeeplPeer({ characterLimit: 10 });
    const batch = { source: 'en', target: 'de', segments: ['red car'], format: 'text' as const };

    const badKey = await adapter(peer, 'wrong-key').translate(batch).catch((e) => e);
    expect(badKey).toMatchObject({ kind: 'unavailable', status: 403 });
    expect(failsNode(badKey)).toBe(true);
    expect(await adapter(peer, 'wrong-key').health()).toMatchObject({ ok: false, detail: expect.stringMatching(/authentication key/) });

    const engine = adapter(peer);
    expect(await engine.translate(batch)).toEqual(['[DE] car red']);
    const quota = await engine.translate({ ...batch, segments: ['a longer sentence'] }).catch((e) => e);
    expect(quota).toMatchObject({ kind: 'unavailable', status: 456, message: expect.stringMatching(/quota exceeded/) });
    expect(failsNode(quota)).toBe(true);

    peer.options.characterLimit = undefined;
    peer.options.failNext = { count: 1, status: 429, message: 'Too many requests' };
    const busy = await engine.translate(batch).catch((e) => e);
    expect(busy).toMatchObject({ kind: 'unavailable', status: 429 });
    expect(failsNode(busy)).toBe(true);

    peer.options.failNext = { count: 1, status: 400, message: 'Bad request: text too long' };
    const bad = await engine.translate(batch).catch((e) => e);
    expect(bad).toMatchObject({ kind: 'rejected', status: 400 });
    expect(failsNode(bad)).toBe(false);

    // A target the node does not list never reaches it.
    const before = peer.requests.length;
    await expect(engine.translate({ ...batch, target: 'ko' })).rejects.toMatchObject({ kind: 'unsupported-pair' });
    expect(peer.requests.slice(before).some((r) => r.path === '/v2/translate')).toBe(false);
  });

  it('is made from a node config by its definition: the key is a secret, the address defaults to the Free API', async () => {
    peer = await startDeeplPeer();
    expect(deeplDefinition.secrets).toEqual(['apiKey']);
    expect(deeplConfig.safeParse({}).success).toBe(false);
    expect(deeplConfig.parse({ apiKey: 'k' }).baseUrl).toBe('https://api-free.deepl.com');
    const engine = deeplDefinition.create({ id: 7, name: 'deepl', config: deeplConfig.parse({ baseUrl: peer.url, apiKey: KEY }), containers: 1 }, { timeoutMs: 5000, process: null, featureUnavailable: () => null });
    expect(engine.kind).toBe('deepl');
    expect(await engine.health()).toMatchObject({ ok: true });
  });
});
