import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The plugin's server part loaded by the real kernel (PGlite, or PostgreSQL when DATABASE_URL is
// set), with a deployment set holding only this plugin; calls go through app.inject.

let kernel: TestKernel;
let adminToken: string;

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['term'] });
  // Signs in as the browser does: a one-time RSA key, the password encrypted with RSA-OAEP SHA-256.
  adminToken = await kernel.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await kernel?.shutdown();
});

describe('term server part', () => {
  it('lists the rows of term_items to the administrator, oldest first', async () => {
    await kernel.database.db.insertInto('term_items').values([{ name: 'first' }, { name: 'second' }]).execute();
    const res = await kernel.call('GET', '/api/term/items', adminToken);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data.map((i: { name: string }) => i.name)).toEqual(['first', 'second']);
    expect(new Date(res.body.data[0].createdAt).getTime()).not.toBeNaN();
  });

  it('answers 601 to a caller without a session', async () => {
    const res = await kernel.call('GET', '/api/term/items', null);
    expect(res.body.code).toBe(601);
  });
});
