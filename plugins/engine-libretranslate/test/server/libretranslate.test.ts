// Database: none
import { afterEach, describe, expect, it } from 'vitest';
import { startLibrePeer, type LibrePeer } from '@linguaport/sdk/testing';
import { createLibreTranslateAdapter, libreTranslateConfig, libreTranslateDefinition } from '../../server/adapter.js';
import { fromLibreCode, toLibreCode } from '../../server/codes.js';

let peer: LibrePeer | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
});

describe('LibreTranslate adapter', () => {
  it('lists the node languages as platform pairs', async () => {
    peer = await startLibrePeer();
    const pairs = await createLibreTranslateAdapter({ url: peer.url }).languagePairs();
    expect(pairs).toContainEqual({ source: 'en', target: 'es' });
    expect(pairs).toContainEqual({ source: 'en', target: 'zh-CN' });
    expect(pairs).not.toContainEqual({ source: 'es', target: 'fr' });
  });

  it('translates a batch in one request with q as an array, in order, with the api key', async () => {
    peer = await startLibrePeer({ apiKey: 'k-123' });
    const engine = createLibreTranslateAdapter({ url: peer.url, apiKey: 'k-123' });
    const out = await engine.translate({ source: 'en', target: 'zh-CN', segments: ['red car', 'big old house'], format: 'text' });
    expect(out).toEqual(['[zh-Hans] car red', '[zh-Hans] house old big']);
    const calls = peer.requests.filter((r) => r.path === '/translate');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ q: ['red car', 'big old house'], source: 'en', target: 'zh-Hans', format: 'text', api_key: 'k-123' });
  });

  it('passes html through with format html', async () => {
    peer = await startLibrePeer();
    const out = await createLibreTranslateAdapter({ url: peer.url }).translate({ source: 'en', target: 'es', segments: ['the <b>red car</b> here'], format: 'html' });
    expect(out).toEqual(['the <b>car red</b> here']);
  });

  it('maps its error shapes to engine errors', async () => {
    peer = await startLibrePeer({ apiKey: 'right' });
    const wrongKey = createLibreTranslateAdapter({ url: peer.url, apiKey: 'wrong' });
    await expect(wrongKey.translate({ source: 'en', target: 'es', segments: ['a'], format: 'text' })).rejects.toMatchObject({
      kind: 'unavailable',
      status: 403,
    });
    const engine = createLibreTranslateAdapter({ url: peer.url, apiKey: 'right' });
    await expect(engine.translate({ source: 'es', target: 'fr', segments: ['a'], format: 'text' })).rejects.toMatchObject({
      kind: 'unsupported-pair',
      status: 400,
    });
    await expect(engine.translate({ source: 'en', target: 'de', segments: ['a'], format: 'text' })).rejects.toMatchObject({ kind: 'unsupported-pair' });
    peer.options.failNext = { count: 1, status: 429, error: 'Slowdown: 10 per 1 minute' };
    await expect(engine.translate({ source: 'en', target: 'es', segments: ['a'], format: 'text' })).rejects.toMatchObject({ kind: 'unavailable', status: 429 });
    peer.options.failNext = { count: 1, status: 500, error: 'Cannot translate text: boom' };
    await expect(engine.translate({ source: 'en', target: 'es', segments: ['a'], format: 'text' })).rejects.toMatchObject({ kind: 'rejected', status: 500 });
  });

  it('times out, and reports an unreachable node as unavailable', async () => {
    peer = await startLibrePeer({ delayMs: 500 });
    const slow = createLibreTranslateAdapter({ url: peer.url, timeoutMs: 100 });
    await expect(slow.translate({ source: 'en', target: 'es', segments: ['a'], format: 'text' })).rejects.toMatchObject({ kind: 'timeout' });
    const url = peer.url;
    await peer.close();
    peer = null;
    const gone = createLibreTranslateAdapter({ url });
    await expect(gone.languagePairs()).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await gone.health()).toMatchObject({ ok: false });
  });

  it('is made from a node\'s config by its definition, which refuses a node without a base URL', async () => {
    peer = await startLibrePeer({ apiKey: 'k-9' });
    expect(libreTranslateDefinition.config.safeParse({}).success).toBe(false);
    const config = libreTranslateConfig.parse({ baseUrl: peer.url, apiKey: 'k-9' });
    const engine = libreTranslateDefinition.create({ id: 1, name: 'lt', config, containers: 1 }, { timeoutMs: 5000, process: null, featureUnavailable: () => null });
    expect(engine.kind).toBe('libretranslate');
    expect(await engine.health()).toMatchObject({ ok: true });
    expect(await engine.translate({ source: 'en', target: 'es', segments: ['Red car.', 'Big house.'], format: 'text' })).toEqual(['[es] car. Red', '[es] house. Big']);
  });

  it('matches LibreTranslate Chinese codes old and new', () => {
    expect(fromLibreCode('zh')).toBe('zh-CN');
    expect(fromLibreCode('zh-Hans')).toBe('zh-CN');
    expect(fromLibreCode('zt')).toBe('zh-TW');
    expect(toLibreCode('zh-CN', ['en', 'zh-Hans'])).toBe('zh-Hans');
    expect(toLibreCode('zh-CN', ['en', 'zh'])).toBe('zh');
    expect(toLibreCode('pt-BR', ['en', 'pt'])).toBe('pt');
    expect(toLibreCode('ja', ['en'])).toBeNull();
  });
});
