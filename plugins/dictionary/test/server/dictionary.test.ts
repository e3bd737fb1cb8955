import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

let kernel: TestKernel;
let admin: string;
let plain: string;
let typeId: number;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['dictionary'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'reader', 'Reader-Passw0rd', 'reader', []);
  plain = await kernel.login('reader', 'Reader-Passw0rd');
  const res = await kernel.call('POST', '/api/dictType/add', admin, { name: 'File status', code: 'file_status', description: 'States of a translated file' });
  typeId = res.body.data.id;
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('dictionary types', () => {
  it('refuses a second type with the same name or the same code with 409 naming the field', async () => {
    const sameCode = await kernel.call('POST', '/api/dictType/add', admin, { name: 'Other', code: 'file_status' });
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.msg).toMatch(/^code/);
    const sameName = await kernel.call('POST', '/api/dictType/add', admin, { name: 'File status', code: 'other' });
    expect(sameName.status).toBe(409);
    expect(sameName.body.msg).toMatch(/^name/);
  });

  it('requires name and code', async () => {
    const res = await kernel.call('POST', '/api/dictType/add', admin, { name: ' ', code: '' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('name');
    expect(res.body.msg).toContain('code');
  });

  it('pages and filters types with their entry counts', async () => {
    for (const i of [1, 2, 3]) await kernel.call('POST', '/api/dictType/add', admin, { name: `Paging ${i}`, code: `paging_${i}` });
    const page = await kernel.call('GET', '/api/dictType/page?pageNum=1&pageSize=2&name=Paging', plain);
    expect(page.body.data.total).toBe(3);
    expect(page.body.data.records).toHaveLength(2);
    expect(page.body.data).toMatchObject({ pageNum: 1, pageSize: 2 });
    const byCode = await kernel.call('GET', '/api/dictType/page?code=file_status', plain);
    expect(byCode.body.data.records[0]).toMatchObject({ name: 'File status', entryCount: 0 });
  });
});

describe('dictionary entries', () => {
  it('lists entries smaller sort first, whatever the insertion order', async () => {
    for (const [name, sort] of [['Done', 3], ['Waiting', 1], ['Running', 2]] as const) {
      const res = await kernel.call('POST', '/api/dictData/add', admin, { typeId, name, code: name.toLowerCase(), value: String(sort), sort });
      expect(res.body.code).toBe(200);
    }
    const page = await kernel.call('GET', `/api/dictData/page?typeId=${typeId}`, plain);
    expect(page.body.data.records.map((r: { name: string }) => r.name)).toEqual(['Waiting', 'Running', 'Done']);
    const byCode = await kernel.call('GET', '/api/dictData/byCode/file_status', plain);
    expect(byCode.body.data.map((r: { code: string }) => r.code)).toEqual(['waiting', 'running', 'done']);
  });

  it('refuses a sort that is not a positive integer', async () => {
    for (const sort of [0, -1, 1.5, 'x']) {
      const res = await kernel.call('POST', '/api/dictData/add', admin, { typeId, name: `bad ${sort}`, code: `bad${sort}`, value: 'v', sort });
      expect(res.status, String(sort)).toBe(400);
      expect(res.body.msg).toContain('sort');
    }
  });

  it('refuses a duplicate entry code within a type but allows it in another type', async () => {
    expect((await kernel.call('POST', '/api/dictData/add', admin, { typeId, name: 'Again', code: 'done', value: 'x', sort: 9 })).status).toBe(409);
    const other = await kernel.call('POST', '/api/dictType/add', admin, { name: 'Other type', code: 'other_type' });
    expect((await kernel.call('POST', '/api/dictData/add', admin, { typeId: other.body.data.id, name: 'Done', code: 'done', value: 'x', sort: 1 })).body.code).toBe(200);
  });

  it('a disabled type is not served by code', async () => {
    const type = (await kernel.call('GET', `/api/dictType/${typeId}`, admin)).body.data;
    await kernel.call('PUT', '/api/dictType/update', admin, { ...type, enabled: false });
    expect((await kernel.call('GET', '/api/dictData/byCode/file_status', plain)).status).toBe(404);
    await kernel.call('PUT', '/api/dictType/update', admin, { ...type, enabled: true });
  });

  it('deleting a type removes its entries', async () => {
    const t = await kernel.call('POST', '/api/dictType/add', admin, { name: 'Doomed', code: 'doomed' });
    await kernel.call('POST', '/api/dictData/add', admin, { typeId: t.body.data.id, name: 'a', code: 'a', value: 'a', sort: 1 });
    const res = await kernel.call('DELETE', `/api/dictType/delete?ids=${t.body.data.id}`, admin);
    expect(res.body.data.deleted).toBe(1);
    const left = await kernel.database.db.selectFrom('dict_entries').select('id').where('type_id', '=', t.body.data.id).execute();
    expect(left).toHaveLength(0);
  });

  it('answers 403 to every mutating call without the keys and changes nothing', async () => {
    const before = await kernel.database.db.selectFrom('dict_entries').selectAll().orderBy('id').execute();
    const types = await kernel.database.db.selectFrom('dict_types').selectAll().orderBy('id').execute();
    const entryId = before[0].id;
    const calls: Array<[string, string, object | undefined]> = [
      ['POST', '/api/dictType/add', { name: 'Sneaky', code: 'sneaky' }],
      ['PUT', '/api/dictType/update', { id: typeId, name: 'Changed', code: 'changed' }],
      ['DELETE', `/api/dictType/delete?ids=${typeId}`, undefined],
      ['POST', '/api/dictData/add', { typeId, name: 'Sneaky', code: 'sneaky', value: 'v', sort: 1 }],
      ['PUT', '/api/dictData/update', { id: entryId, typeId, name: 'Changed', code: 'changed', value: 'v', sort: 1 }],
      ['DELETE', `/api/dictData/delete?ids=${entryId}`, undefined],
    ];
    for (const [method, url, body] of calls) expect((await kernel.call(method, url, plain, body)).status, url).toBe(403);
    expect(await kernel.database.db.selectFrom('dict_entries').selectAll().orderBy('id').execute()).toEqual(before);
    expect(await kernel.database.db.selectFrom('dict_types').selectAll().orderBy('id').execute()).toEqual(types);
  });
});
