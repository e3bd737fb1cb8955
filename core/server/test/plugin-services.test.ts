import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, FIXTURES, startKernel, type TestKernel } from './support/kernel.js';

// Plugins that depend on each other through a typed service, started by the real host.

let k: TestKernel | null = null;
afterEach(async () => {
  await k?.shutdown();
  k = null;
});

async function start(counterEnabled: boolean) {
  k = await startKernel({}, {}, (config) => {
    const registryFile = join(config.dataDir, 'registry.json');
    // The consumer is listed first: the host starts its provider before it all the same.
    const plugins = [
      { id: 'tally', path: join(FIXTURES, 'plugins', 'tally'), enabled: true },
      { id: 'counter', path: join(FIXTURES, 'plugins', 'counter'), enabled: counterEnabled },
    ];
    writeFileSync(registryFile, JSON.stringify({ plugins }));
    config.registryFile = registryFile;
  });
  return k.login('admin', ADMIN_PASSWORD);
}

describe('services between plugins', () => {
  it('starts the provider first and hands its service to the consumer; a missing optional one is null', async () => {
    const admin = await start(true);
    expect((await k!.call('GET', '/api/tally/next', admin)).body.data).toEqual({ value: 1, clock: false });
    expect((await k!.call('GET', '/api/tally/next', admin)).body.data).toEqual({ value: 2, clock: false });
  });

  it('holds back a consumer whose dependency is off, says why in plug-in management, and starts the rest', async () => {
    const admin = await start(false);
    const res = await k!.call('GET', '/api/tally/next', admin);
    expect(res.body.code).toBe(404);
    const list = await k!.app.inject({ method: 'GET', url: '/api/plugIn/list?pageSize=50', headers: { jwt: admin, 'accept-language': 'en-US' } });
    const tally = list.json().data.records.find((p: { id: string }) => p.id === 'tally');
    expect(tally).toMatchObject({ live: false, serverPart: 'failed', serverError: 'needs plugin counter, which is not enabled' });
    const zh = await k!.app.inject({ method: 'GET', url: '/api/plugIn/list?pageSize=50', headers: { jwt: admin, 'accept-language': 'zh-CN' } });
    expect(zh.json().data.records.find((p: { id: string }) => p.id === 'tally').serverError).toBe('需要插件 counter，但它未启用');
    // The kernel itself runs on.
    expect((await k!.call('GET', '/api/health')).status).toBe(200);
  });
});
