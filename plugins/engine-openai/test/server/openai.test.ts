// Database: none
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiPeer, type OpenAiPeer } from '@linguaport/sdk/testing';
import { createOpenAiAdapter } from '../../server/adapter.js';

let peer: OpenAiPeer | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
});

const batch = {
  source: 'en',
  target: 'es',
  segments: ['The red car.', 'A <b>big</b> house.'],
  format: 'html' as const,
  domain: 'automotive',
  terms: [{ source: 'car', target: 'coche' }],
  avoidTerms: [{ source: 'red', target: 'colorado' }],
};

describe('OpenAI-compatible adapter', () => {
  it('prompts with language names, domain, terms and the segments, and reads one output per segment', async () => {
    peer = await startOpenAiPeer({ apiKey: 'sk-test' });
    const engine = createOpenAiAdapter({ url: peer.url, model: 'peer-translator', apiKey: 'sk-test', languages: ['en', 'es'] });
    expect(await engine.translate(batch)).toEqual(['es: THE RED CAR.', 'es: A <B>BIG</B> HOUSE.']);
    const [req] = peer.requests;
    const system = req.messages.find((m) => m.role === 'system')!.content;
    expect(system).toContain('English (en)');
    expect(system).toContain('Spanish (es)');
    expect(system).toContain('automotive');
    expect(system).toContain('car => coche');
    // A term base's forbidden translation is named as one to avoid.
    expect(system).toMatch(/Forbidden terminology[^]*red =\/=> colorado/);
    expect(system).toContain('exactly 2 strings');
    expect(JSON.parse(req.messages.find((m) => m.role === 'user')!.content)).toEqual(batch.segments);
  });

  it('retries once with a stricter instruction when the count is wrong', async () => {
    peer = await startOpenAiPeer({ misbehave: 'wrong-count-once' });
    const engine = createOpenAiAdapter({ url: peer.url, model: 'peer-translator', languages: ['en', 'es'] });
    expect(await engine.translate(batch)).toHaveLength(2);
    expect(peer.requests).toHaveLength(2);
    expect(peer.requests[1].messages[0].content).toContain('previous answer was not usable');
  });

  it('refuses an answer with the wrong count after the retry', async () => {
    peer = await startOpenAiPeer({ misbehave: 'wrong-count' });
    const engine = createOpenAiAdapter({ url: peer.url, model: 'peer-translator', languages: ['en', 'es'] });
    await expect(engine.translate(batch)).rejects.toMatchObject({ name: 'EngineError', kind: 'bad-response' });
    expect(peer.requests).toHaveLength(2);
  });

  it('refuses prose, accepts a fenced JSON array', async () => {
    peer = await startOpenAiPeer({ misbehave: 'prose' });
    await expect(createOpenAiAdapter({ url: peer.url, model: 'peer-translator', languages: ['en', 'es'] }).translate(batch)).rejects.toMatchObject({
      kind: 'bad-response',
    });
    await peer.close();
    peer = await startOpenAiPeer({ misbehave: 'fenced' });
    expect(await createOpenAiAdapter({ url: peer.url, model: 'peer-translator', languages: ['en', 'es'] }).translate(batch)).toHaveLength(2);
  });

  it('checks health against /models and maps auth and model errors', async () => {
    peer = await startOpenAiPeer({ apiKey: 'sk-test', models: ['peer-translator'] });
    expect(await createOpenAiAdapter({ url: peer.url, model: 'peer-translator', apiKey: 'sk-test', languages: ['en'] }).health()).toMatchObject({ ok: true });
    expect(await createOpenAiAdapter({ url: peer.url, model: 'other', apiKey: 'sk-test', languages: ['en'] }).health()).toMatchObject({
      ok: false,
      detail: 'model other is not served',
    });
    const noKey = createOpenAiAdapter({ url: peer.url, model: 'peer-translator', languages: ['en', 'es'] });
    await expect(noKey.translate(batch)).rejects.toMatchObject({ kind: 'unavailable', status: 401 });
    const wrongModel = createOpenAiAdapter({ url: peer.url, model: 'other', apiKey: 'sk-test', languages: ['en', 'es'] });
    await expect(wrongModel.translate(batch)).rejects.toMatchObject({ kind: 'bad-response', status: 404 });
  });

  it('offers every direction among its languages and refuses others', async () => {
    peer = await startOpenAiPeer();
    const engine = createOpenAiAdapter({ url: peer.url, model: 'peer-translator', languages: ['en', 'es', 'zh-CN'] });
    expect(await engine.languagePairs()).toHaveLength(6);
    await expect(engine.translate({ ...batch, target: 'de' })).rejects.toMatchObject({ kind: 'unsupported-pair' });
    expect(peer.requests).toHaveLength(0);
  });
});
