import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The plugin's server part loaded by the real kernel (PGlite, or PostgreSQL when DATABASE_URL is
// set), with a deployment set holding only this plugin; calls go through app.inject. Every answer is
// checked against the response schema its route declares.

let kernel: TestKernel;
let adminToken: string;
let viewerToken: string;

beforeAll(async () => {
  // The plugin from its own folder, wherever that is (in plugins/ or a partner's repository).
  kernel = await startTestKernel({ plugins: [{ id: '__ID__', path: join(import.meta.dirname, '..', '..') }] });
  // Signs in as the browser does: a one-time RSA key, the password encrypted with RSA-OAEP SHA-256.
  adminToken = await kernel.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(kernel, '__CAMEL__-viewer', 'Viewer-Passw0rd!', '__ID__ viewers', ['__ID__:view']);
  viewerToken = await kernel.login('__CAMEL__-viewer', 'Viewer-Passw0rd!');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

const count = async () => Number((await kernel.database.db.selectFrom('__TABLE__').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

describe('__ID__ server part', () => {
  it('adds items and lists them a page at a time, oldest first', async () => {
    for (const name of ['first', ' second ']) expect((await kernel.call('POST', '/api/__ID__/add', adminToken, { name })).body.code).toBe(200);
    const page = await kernel.call('GET', '/api/__ID__/list?pageNum=1&pageSize=1', adminToken);
    expect(page.body.data).toMatchObject({ total: 2, pageNum: 1, pageSize: 1, records: [{ name: 'first' }] });
    const second = await kernel.call('GET', '/api/__ID__/list?pageNum=2&pageSize=1', viewerToken);
    expect(second.body.data.records.map((i: { name: string }) => i.name)).toEqual(['second']);
  });

  it('refuses an empty name with a 400 naming the field, and stores nothing', async () => {
    const before = await count();
    const res = await kernel.call('POST', '/api/__ID__/add', adminToken, { name: '   ' });
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toContain('name');
    expect(await count()).toBe(before);
  });

  it('refuses a caller without the key (403) and one without a session (601)', async () => {
    const before = await count();
    expect((await kernel.call('POST', '/api/__ID__/add', viewerToken, { name: 'not allowed' })).status).toBe(403);
    expect((await kernel.call('GET', '/api/__ID__/list', null)).body.code).toBe(601);
    expect(await count()).toBe(before);
  });
});
