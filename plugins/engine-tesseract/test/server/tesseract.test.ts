import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The built-in OCR engine's kind with its seeded node in a kernel (the adapter itself is tested in
// packages/ocr/test).

describe('tesseract in a kernel', () => {
  let k: TestKernel;
  afterAll(async () => k?.shutdown());

  it('registers the tesseract-local kind and seeds its node running; the node checks healthy with its languages', async () => {
    k = await startTestKernel({ plugins: ['service', 'engine-tesseract'] });
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string; plugin: string; local: boolean }[];
    expect(kinds.find((x) => x.kind === 'tesseract-local')).toMatchObject({ capability: 'ocr', plugin: 'engine-tesseract', local: true });
    const rows = await k.database.db.selectFrom('engine_nodes').select(['id', 'desired_state']).where('kind', '=', 'tesseract-local').execute();
    expect(rows).toEqual([{ id: expect.any(Number), desired_state: 'running' }]);
    const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${rows[0]!.id}`, admin);
    expect(started.body.data, started.body.msg).toMatchObject({ health: 'healthy' });
    // Seeded with English; the health check learnt the installed packs (Chinese among them here).
    const stored = await k.database.db.selectFrom('engine_nodes').select(['health', 'languages']).where('id', '=', rows[0]!.id).executeTakeFirstOrThrow();
    expect(stored.health).toBe('healthy');
    expect(stored.languages).toEqual(expect.arrayContaining(['en', 'zh-CN']));
  }, 60_000);
});
