import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomainUsage } from '../src/plugins/domain-usage.js';

// ctx.domains: areas that store domain codes count their own records; the kernel counts its engines.

let k: TestKernel;
beforeAll(async () => {
  k = await startTestKernel({ plugins: ['domain', 'term', 'corpus'], builtinEngine: false });
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('domain usage', () => {
  it('asks every registered area and the kernel, and forgets a stopped plugin\'s counters', async () => {
    const usage = createDomainUsage(k.database.db);
    await k.database.db.insertInto('engines').values({ name: 'Legal', image_name: 'apertium:x', domain: 'legal' }).execute();
    const area = usage.forPlugin('area');
    area.register('area_records', async (code) => (code === 'legal' ? 3 : 0));
    expect(await area.of('legal')).toEqual([{ table: 'area_records', rows: 3 }, { table: 'engines', rows: 1 }]);
    expect(await area.of('medical')).toEqual([]);
    usage.dropOwner('area');
    expect(await area.of('legal')).toEqual([{ table: 'engines', rows: 1 }]);
  });

  it('refuses deleting a domain a corpus uses, counted by the corpus area itself', async () => {
    const admin = await k.login('admin', ADMIN_PASSWORD);
    await k.database.db.insertInto('corpus_corpora').values([{ name: 'c1', source_lang: 'en', target_lang: 'es', domain: 'finance', owner_id: 1 }, { name: 'c2', source_lang: 'en', target_lang: 'es', domain: 'finance', owner_id: 1 }]).execute();
    const res = await k.call('DELETE', '/api/domain/delete/finance', admin);
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('corpus_corpora: 2');
    expect(res.body.data.usage).toEqual([{ table: 'corpus_corpora', rows: 2 }]);
  });
});
