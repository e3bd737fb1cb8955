import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, requireTool, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The plugin inside a real kernel: it brings the kind the seeded Apertium node needs; without it the
// node reads unavailable with the reason and translation says the service is interrupted.
const installed = requireTool('apertium-apy', { files: ['/usr/share/apertium/modes/eng-spa.mode'], debian: 'apertium-apy apertium-eng-spa' });

const kernels: TestKernel[] = [];
afterAll(async () => {
  for (const k of kernels) await k.shutdown();
});

async function seededNode(k: TestKernel, token: string) {
  const engines = await k.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', token);
  const id = engines.body.data.records[0].nodeIds[0] as number;
  return (await k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${id}`, token)).body.data;
}

describe.skipIf(!installed)('Apertium engine plugin in a kernel', () => {
  it('registers apertium-local: the seeded node starts and translates a sentence and a long text', async () => {
    const k = await startTestKernel({ plugins: ['service', 'trans-text'] });
    kernels.push(k);
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; plugin: string; local: boolean }[];
    expect(kinds.find((x) => x.kind === 'apertium-local')).toMatchObject({ plugin: 'engine-apertium', local: true });

    const short = await k.call('POST', '/api/transText/translate', admin, { text: 'The red car is fast.', source: 'en', target: 'es' });
    expect(short.body.data?.text, JSON.stringify(short.body)).toBe('El coche rojo es rápidamente.');
    expect(await seededNode(k, admin)).toMatchObject({ kind: 'apertium-local', health: 'healthy', unavailable: null });

    // A long text makes batches of 25 sentences over 1,000 characters: they go through a warm pipeline
    // (recorded beside APy for the next start), and come out as APy translates each sentence alone.
    const sentence = 'My brother lives in a small house near the river and the school.';
    const alone = (await k.call('POST', '/api/transText/translate', admin, { text: sentence, source: 'en', target: 'es' })).body.data.text as string;
    const out = await k.call('POST', '/api/transText/translate', admin, { text: Array.from({ length: 30 }, () => sentence).join(' '), source: 'en', target: 'es' });
    expect(out.body.data?.text, JSON.stringify(out.body)).toBe(Array.from({ length: 30 }, () => alone).join(' '));
    const records = JSON.parse(readFileSync(join(k.config.dataDir, 'engine-processes.json'), 'utf8')) as unknown[];
    expect(records, JSON.stringify(records)).toHaveLength(2);
  }, 180_000);

  it('leaves the seeded node unavailable, with the reason, and its pairs untranslatable when the plugin is not deployed', async () => {
    const k = await startTestKernel({ plugins: ['service', 'trans-text'], builtinEngine: false });
    kernels.push(k);
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string }[];
    expect(kinds.map((x) => x.kind)).not.toContain('apertium-local');
    expect((await seededNode(k, admin)).unavailable).toMatch(/apertium-local/);
    const res = await k.call('POST', '/api/transText/translate', admin, { text: 'The red car is fast.', source: 'en', target: 'es' });
    expect(res.body).toMatchObject({ code: 400, msg: 'No engine translates en to es' });
  }, 120_000);
});
