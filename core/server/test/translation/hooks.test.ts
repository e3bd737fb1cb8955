import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetApiKey } from '../../src/auth/api-keys.js';
import { loadSecret } from '../../src/auth/secret.js';
import { ADMIN_PASSWORD, createUserWithRole, FIXTURES, startKernel, type TestKernel } from '../support/kernel.js';
import { startLibrePeer, useOnlyLibreEngine, type LibrePeer } from '@linguaport/sdk/testing';

// A plugin's pipeline hooks run in every translation of the platform: text translation, the public
// LibreTranslate-compatible API, and translateSegments (documents, CAT), against a real remote engine
// (a LibreTranslate-compatible peer on loopback).

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
let k: TestKernel;
let admin: string;
let user: { token: string; apiKey: string };
let peer: LibrePeer;

beforeAll(async () => {
  peer = await startLibrePeer();
  k = await startKernel({ logLevel: 'warn' }, {}, (config) => {
    const registryFile = join(config.dataDir, 'registry.json');
    const plugins = [
      { id: 'glossary', path: join(FIXTURES, 'plugins', 'glossary'), enabled: true },
      ...['service', 'trans-text', 'engine-libretranslate'].map((id) => ({ id, path: join(ROOT, 'plugins', id), enabled: true })),
    ];
    writeFileSync(registryFile, JSON.stringify({ plugins }));
    config.registryFile = registryFile;
  });
  admin = await k.login('admin', ADMIN_PASSWORD);
  // Only the remote engine runs: the seeded local one is stopped.
  await useOnlyLibreEngine(k, admin, peer.url);
  const u = await createUserWithRole(k, 'writer', 'Writer-Passw0rd!', 'writers', ['transText:use']);
  user = { token: await k.login('writer', 'Writer-Passw0rd!'), apiKey: (await resetApiKey(k.database.db, loadSecret(k.config.dataDir), u.userId, new Date()))! };
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  await peer?.close();
});

const TEXT = 'Good morning. The red car.';

describe('pipeline hooks of a plugin', () => {
  it('run in text translation: a memory match keeps its sentence from the engine', async () => {
    peer.requests.length = 0;
    const res = await k.call('POST', '/api/transText/translate', user.token, { text: TEXT, source: 'en', target: 'fr' });
    expect(res.body.code, res.body.msg).toBe(200);
    // The memory's sentence never reached the engine; the other one did (the peer reverses words).
    expect(res.body.data.text).toBe('Bonjour. [fr] car. red The');
    const sent = peer.requests.filter((r) => r.path === '/translate').map((r) => r.body.q);
    expect(JSON.stringify(sent)).not.toContain('Good morning');
  });

  it('run in the public API', async () => {
    const res = await k.app.inject({ method: 'POST', url: '/api/lt/translate', headers: { 'content-type': 'application/json' }, payload: { q: TEXT, source: 'en', target: 'fr', api_key: user.apiKey } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().translatedText).toBe('Bonjour. [fr] car. red The');
  });

  it('run in translateSegments, which says where each translation came from and what the checks found', async () => {
    const res = await k.call('POST', '/api/glossary/segments', user.token, {
      source: 'en',
      target: 'fr',
      segments: [
        { id: 'a', source: 'Good morning.' },
        { id: 'b', source: 'The red car.' },
        { id: 'c', source: '   ' },
      ],
    });
    expect(res.body.code, res.body.msg).toBe(200);
    const [a, b, c] = res.body.data.segments;
    expect(a).toMatchObject({ id: 'a', target: 'Bonjour.', origin: { kind: 'hook', hook: 'glossary:memory', score: 100 }, issues: [] });
    expect(b).toMatchObject({ id: 'b', target: '[fr] car. red The', origin: { kind: 'engine' } });
    expect(b.origin.nodeId).toBeGreaterThan(0);
    expect(b.issues).toEqual([{ hook: 'glossary:term-check', severity: 'warning', code: 'term-missing', message: 'car should read voiture' }]);
    expect(c).toEqual({ id: 'c', source: '   ', target: '   ', origin: { kind: 'unchanged' }, issues: [] });
  });

  it('let the write-back stage see each channel with its resources', async () => {
    const seen = (await k.call('GET', '/api/glossary/seen', user.token)).body.data as Array<{ channel: string; resources: object; segments: unknown[] }>;
    expect(seen.map((s) => s.channel)).toEqual(['text', 'api', 'document']);
    expect(seen[2]!.resources).toEqual({ memories: [7] });
    expect(seen[2]!.segments).toEqual([
      { source: 'Good morning.', target: 'Bonjour.', origin: 'hook' },
      { source: 'The red car.', target: '[fr] car. red The', origin: 'engine' },
    ]);
  });

  it('refuses segments without ids or with a repeated id, with 400', async () => {
    const twice = await k.call('POST', '/api/glossary/segments', user.token, { source: 'en', target: 'fr', segments: [{ id: 'a', source: 'x' }, { id: 'a', source: 'y' }] });
    expect(twice.body.code).toBe(400);
    const none = await k.call('POST', '/api/glossary/segments', user.token, { source: 'en', target: 'fr', segments: [] });
    expect(none.body.code).toBe(400);
  });
});
