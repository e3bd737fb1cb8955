import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

let kernel: TestKernel;
let admin: string;
let plain: string;

const codes = async (url = '/api/domain/list') => (await kernel.call('GET', url, plain)).body.data.map((d: { code: string }) => d.code) as string[];

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['domain'] });
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, 'reader', 'Reader-Passw0rd', 'reader', []);
  plain = await kernel.login('reader', 'Reader-Passw0rd');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('domains', () => {
  it('seeds general, legal and medical and lists them to any signed-in user', async () => {
    expect((await codes()).slice(0, 3)).toEqual(['general', 'legal', 'medical']);
  });

  it('adds a domain and refuses the same code or name again with 409', async () => {
    const body = { code: 'maritime', nameZh: '海事', nameEn: 'Maritime', description: 'Ships' };
    expect((await kernel.call('POST', '/api/domain/add', admin, body)).body.code).toBe(200);
    expect(await codes()).toContain('maritime');
    expect((await kernel.call('POST', '/api/domain/add', admin, body)).status).toBe(409);
    expect((await kernel.call('POST', '/api/domain/add', admin, { ...body, code: 'maritime2' })).status).toBe(409);
  });

  it('rejects a bad code and an empty name, naming the fields', async () => {
    const res = await kernel.call('POST', '/api/domain/add', admin, { code: 'Bad Code', nameZh: '', nameEn: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('code');
    expect(res.body.msg).toContain('nameZh');
  });

  it('disabling a domain takes it out of the selectable list but keeps it in the admin list', async () => {
    const res = await kernel.call('PUT', '/api/domain/update', admin, { code: 'news', nameZh: '新闻', nameEn: 'News', description: '', enabled: false });
    expect(res.body.code).toBe(200);
    expect(await codes()).not.toContain('news');
    expect(await codes('/api/domain/all')).toContain('news');
  });

  it('refuses to delete a domain an area still uses (asked of the areas, not found by scanning tables), and deletes it once free', async () => {
    // The kernel's engines count their domain; a table of nobody's with a `domain` column does not.
    await sql`create table if not exists engines_probe (id serial primary key, domain text)`.execute(kernel.database.db);
    await sql`insert into engines_probe (domain) values ('legal'), ('legal')`.execute(kernel.database.db);
    const engine = await kernel.database.db.insertInto('engines').values({ name: 'Legal engine', image_name: 'apertium:legal', domain: 'legal' }).returning('id').executeTakeFirstOrThrow();
    const refused = await kernel.call('DELETE', '/api/domain/delete/legal', admin);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('engines: 1');
    expect(refused.body.msg).not.toContain('engines_probe');
    expect(await codes()).toContain('legal');
    await kernel.database.db.deleteFrom('engines').where('id', '=', engine.id).execute();
    expect((await kernel.call('DELETE', '/api/domain/delete/legal', admin)).body.code).toBe(200);
    expect(await codes('/api/domain/all')).not.toContain('legal');
  });

  it('answers 404 when deleting an unknown domain', async () => {
    expect((await kernel.call('DELETE', '/api/domain/delete/nothing-here', admin)).status).toBe(404);
  });

  it('answers 403 to every mutating call without the keys and changes nothing', async () => {
    const before = (await kernel.call('GET', '/api/domain/all', admin)).body.data;
    const calls: Array<[string, string, object | undefined]> = [
      ['POST', '/api/domain/add', { code: 'sneaky', nameZh: '偷', nameEn: 'Sneaky' }],
      ['PUT', '/api/domain/update', { code: 'general', nameZh: '改', nameEn: 'Changed', enabled: false }],
      ['DELETE', '/api/domain/delete/medical', undefined],
    ];
    for (const [method, url, body] of calls) expect((await kernel.call(method, url, plain, body)).status, url).toBe(403);
    expect((await kernel.call('GET', '/api/domain/all', admin)).body.data).toEqual(before);
  });
});
