import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../core/server/src/config.js';
import { createServer, type KernelServer } from '../../../../core/server/src/server.js';
import { openTestDatabase, type TestDatabase } from '../../../../core/server/test/support/test-database.js';

// The plugin's server part loaded by the real kernel (PGlite, or PostgreSQL when DATABASE_URL is
// set), with a deployment set holding only this plugin; calls go through app.inject.

const PLUGIN_DIR = join(import.meta.dirname, '..', '..');
const ADMIN_PASSWORD = '__PASCAL__-admin-Passw0rd';

let testDb: TestDatabase;
let server: KernelServer;
let adminToken: string;

async function call(method: 'GET' | 'POST', url: string, token: string | null, payload?: object) {
  const res = await server.app.inject({ method, url, headers: token ? { jwt: token } : {}, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

/** Sign in as the browser does: a one-time RSA key, the password encrypted with RSA-OAEP SHA-256. */
async function signIn(username: string, password: string): Promise<string> {
  const key = (await call('GET', '/api/user/getOnePublicKey', null)).body.data as string;
  const publicKey = createPublicKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'spki' });
  const encrypted = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password));
  const res = await call('POST', '/api/login', null, { username, password: encrypted.toString('base64'), publicKey: key, symbol: '' });
  if (res.body.code !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

beforeAll(async () => {
  testDb = await openTestDatabase();
  const registryFile = join(testDb.dataDir, 'registry.json');
  writeFileSync(registryFile, JSON.stringify({ plugins: [{ id: '__ID__', path: PLUGIN_DIR, enabled: true }] }));
  const config = {
    ...loadConfig({}),
    dataDir: testDb.dataDir,
    databaseUrl: testDb.databaseUrl,
    distDir: join(testDb.dataDir, 'dist'),
    registryFile,
    adminPassword: ADMIN_PASSWORD,
    logLevel: 'warn' as const,
  };
  server = await createServer(config, { database: testDb.database, print: () => {}, logStream: { write: () => {} } });
  adminToken = await signIn('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await server?.close();
  await testDb?.cleanup();
});

describe('__ID__ server part', () => {
  it('lists the rows of __TABLE__ to the administrator, oldest first', async () => {
    await server.database.db.insertInto('__TABLE__').values([{ name: 'first' }, { name: 'second' }]).execute();
    const res = await call('GET', '/api/__ID__/items', adminToken);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data.map((i: { name: string }) => i.name)).toEqual(['first', 'second']);
    expect(new Date(res.body.data[0].createdAt).getTime()).not.toBeNaN();
  });

  it('answers 601 to a caller without a session', async () => {
    const res = await call('GET', '/api/__ID__/items', null);
    expect(res.body.code).toBe(601);
  });
});
