import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { startResourceImportKernel, type ResourceImportKernel } from '@linguaport/sdk/testing';

// A memory that already holds a unit (same source and target once normalised as the exact tier
// normalises them, same language pair): the import skips it (the default), overwrites its fields, or
// keeps both, as the call's `duplicates` says, and its report counts each. The same through a task.

let area: ResourceImportKernel;
let token: string;
type Entry = { id: number; source: string; target: string; status: string; meta: unknown };
const entries = (id: number) => (area.kernel.database.db as unknown as Kysely<{ tm_entries: Entry & { library_id: number } }>).selectFrom('tm_entries').select(['id', 'source', 'target', 'status']).where('library_id', '=', id).orderBy('id').execute();
const txt = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`);
const tmx = (units: Array<[string, string, string]>) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/><body>${units
      .map(([s, t, note]) => `<tu><note>${note}</note><tuv xml:lang="en"><seg>${s}</seg></tuv><tuv xml:lang="es"><seg>${t}</seg></tuv></tu>`)
      .join('')}</body></tmx>`,
  );

beforeAll(async () => {
  area = await startResourceImportKernel({ plugin: 'tm', routes: '/api/TM', table: 'tm_entries' }, {});
  token = await area.kernel.login('tm-sheets', 'Sheets-Passw0rd!');
}, 180_000);

afterAll(async () => {
  await area?.kernel.shutdown();
});

async function seeded(name: string) {
  const id = await area.library(name);
  const first = await area.upload('first.txt', txt(['Hello, world!\t¡Hola, mundo!', 'Good morning.\tBuenos días.']), 'en-US', id);
  expect(first.body.data).toEqual({ imported: 2, rejected: 0, rejections: [] });
  await area.kernel.database.db.updateTable('tm_entries' as never).set({ status: 'checked' } as never).execute();
  return id;
}
// Case, white space and quote variants fold as in the exact tier: the first line is the stored unit again.
const again = ['HELLO,   world!\t¡hola, MUNDO!', 'Thank you.\tGracias.', 'Thank  you.\tgracias.'];

describe('importing into a memory that holds the same units', () => {
  it('skips duplicates by default, counting them, and writes nothing over the stored unit', async () => {
    const id = await seeded('Skip');
    const res = await area.upload('again.txt', txt(again), 'en-US', id);
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 1, rejected: 0, rejections: [], duplicates: { mode: 'skip', added: 1, skipped: 2, overwritten: 0, keptBoth: 0 } });
    expect((await entries(id)).map((e) => [e.source, e.target, e.status])).toEqual([
      ['Hello, world!', '¡Hola, mundo!', 'checked'],
      ['Good morning.', 'Buenos días.', 'checked'],
      ['Thank you.', 'Gracias.', 'unchecked'],
    ]);
  }, 60_000);

  it('overwrites the stored unit with the imported one (texts, notes; reviewed again)', async () => {
    const id = await seeded('Overwrite');
    const before = await entries(id);
    const res = await area.upload('again.tmx', tmx([['HELLO,   world!', '¡hola, MUNDO!', 'from the vendor'], ['Thank you.', 'Gracias.', 'n1'], ['Thank  you.', 'gracias.', 'n2']]), 'en-US', id, { duplicates: 'overwrite' });
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 3, rejected: 0, rejections: [], duplicates: { mode: 'overwrite', added: 1, skipped: 0, overwritten: 2, keptBoth: 0 } });
    const after = await entries(id);
    expect(after.map((e) => [e.source, e.target, e.status])).toEqual([
      ['HELLO,   world!', '¡hola, MUNDO!', 'unchecked'],
      ['Good morning.', 'Buenos días.', 'checked'],
      ['Thank  you.', 'gracias.', 'unchecked'],
    ]);
    expect(after[0]!.id).toBe(before[0]!.id);
    const meta = await area.kernel.database.db.selectFrom('tm_entries' as never).select('meta' as never).where('id' as never, '=', after[0]!.id as never).executeTakeFirstOrThrow();
    expect(JSON.stringify(meta)).toContain('from the vendor');
  }, 60_000);

  it('keeps both when asked, through a background task too, and refuses an unknown choice', async () => {
    const id = await seeded('Keep both');
    const res = await area.upload('again.txt', txt(again), 'en-US', id, { duplicates: 'keepBoth' });
    expect(res.body.data, JSON.stringify(res.body)).toEqual({ imported: 3, rejected: 0, rejections: [], duplicates: { mode: 'keepBoth', added: 1, skipped: 0, overwritten: 0, keptBoth: 2 } });
    expect(await entries(id)).toHaveLength(5);

    const task = await area.upload('again.txt', txt(again), 'en-US', id, { duplicates: 'keepBoth', background: 'true' });
    const taskId: string = task.body.data.taskId;
    let view: { state: string; result: unknown } | undefined;
    await expect
      .poll(
        async () => {
          const got = await area.kernel.app.inject({ method: 'GET', url: `/api/TM/import/${taskId}`, headers: { jwt: token } });
          view = got.json().data;
          return view?.state;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe('completed');
    expect(view!.result).toEqual({ imported: 3, rejected: 0, rejections: [], duplicates: { mode: 'keepBoth', added: 0, skipped: 0, overwritten: 0, keptBoth: 3 } });
    expect(await entries(id)).toHaveLength(8);

    const bad = await area.upload('again.txt', txt(again), 'en-US', id, { duplicates: 'merge' });
    expect(bad.status).toBe(400);
    expect(await entries(id)).toHaveLength(8);
  }, 90_000);
});
