import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { startResourceImportKernel, type ResourceImportKernel } from '@linguaport/sdk/testing';

// A term base that already holds a term (same source and target, case, width and white space folded,
// same language pair): the import skips it (the default), overwrites its fields, or keeps both, as the
// call's `duplicates` says, and its report counts each.

let area: ResourceImportKernel;
type Entry = { id: number; source: string; target: string; note: string | null; domain: string | null; forbidden: boolean; status: string };
const entries = (id: number) =>
  (area.kernel.database.db as unknown as Kysely<{ term_entries: Entry & { library_id: number } }>).selectFrom('term_entries').select(['id', 'source', 'target', 'note', 'domain', 'forbidden', 'status']).where('library_id', '=', id).orderBy('id').execute();
const csv = (lines: string[]) => Buffer.from(`source,target,note,domain,forbidden\n${lines.join('\n')}\n`);

beforeAll(async () => {
  area = await startResourceImportKernel({ plugin: 'term', routes: '/api/term', table: 'term_entries' }, {});
}, 180_000);

afterAll(async () => {
  await area?.kernel.shutdown();
});

async function seeded(name: string) {
  const id = await area.library(name);
  const first = await area.upload('first.csv', csv(['hard disk,disco duro,old note,IT,no', 'router,enrutador,,,']), 'en-US', id);
  expect(first.body.data).toEqual({ imported: 2, rejected: 0, rejections: [] });
  return id;
}
const again = ['Hard  Disk,DISCO DURO,new note,Storage,yes', 'firewall,cortafuegos,,,', 'ｆｉｒｅｗａｌｌ,cortafuegos,wide,,'];

describe('importing into a term base that holds the same terms', () => {
  it('skips duplicates by default and counts them in the report, in both languages alike', async () => {
    const id = await seeded('Skip');
    const res = await area.upload('again.csv', csv(again), 'zh-CN', id);
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 1, rejected: 0, rejections: [], duplicates: { mode: 'skip', added: 1, skipped: 2, overwritten: 0, keptBoth: 0 } });
    expect((await entries(id)).map((e) => [e.source, e.note])).toEqual([
      ['hard disk', 'old note'],
      ['router', null],
      ['firewall', null],
    ]);
  }, 60_000);

  it('overwrites the stored term with the imported fields', async () => {
    const id = await seeded('Overwrite');
    const res = await area.upload('again.csv', csv(again), 'en-US', id, { duplicates: 'overwrite' });
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 3, rejected: 0, rejections: [], duplicates: { mode: 'overwrite', added: 1, skipped: 0, overwritten: 2, keptBoth: 0 } });
    expect((await entries(id)).map(({ id: _, ...e }) => e)).toEqual([
      { source: 'Hard  Disk', target: 'DISCO DURO', note: 'new note', domain: 'Storage', forbidden: true, status: 'unchecked' },
      { source: 'router', target: 'enrutador', note: null, domain: null, forbidden: false, status: 'unchecked' },
      { source: 'ｆｉｒｅｗａｌｌ', target: 'cortafuegos', note: 'wide', domain: null, forbidden: false, status: 'unchecked' },
    ]);
  }, 60_000);

  it('keeps both when asked, and refuses an unknown choice', async () => {
    const id = await seeded('Keep both');
    const res = await area.upload('again.csv', csv(again), 'en-US', id, { duplicates: 'keepBoth' });
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 3, rejected: 0, rejections: [], duplicates: { mode: 'keepBoth', added: 1, skipped: 0, overwritten: 0, keptBoth: 2 } });
    expect(await entries(id)).toHaveLength(5);
    const bad = await area.upload('again.csv', csv(again), 'en-US', id, { duplicates: 'merge' });
    expect(bad.status).toBe(400);
    expect(await entries(id)).toHaveLength(5);
  }, 60_000);
});
