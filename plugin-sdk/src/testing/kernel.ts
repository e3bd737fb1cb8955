import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// The kit is the one sanctioned bridge into the kernel (as VS Code's test runner is): plugins'
// tests import it, never core/ itself.
import type { Config } from '../../../core/server/src/config.js';
import { hashPassword } from '../../../core/server/src/access/passwords.js';
import { resetApiKey } from '../../../core/server/src/auth/api-keys.js';
import { loadSecret } from '../../../core/server/src/auth/secret.js';
import { createServer, type KernelServer, type ServerOptions } from '../../../core/server/src/server.js';
import { openTestDatabase, type TestDatabase } from './database.js';

export type { Config as KernelConfig } from '../../../core/server/src/config.js';
export type { KernelServer, RegisteredRoute, ServerOptions as KernelOptions } from '../../../core/server/src/server.js';
/** How many Apertium containers the kernel seeds its first engine with on this machine. */
export { seededContainerCount } from '../../../core/server/src/translation/migrations.js';

/** A whole kernel in-process for tests: its own database, data dir, deployment set and clock. */

export const ADMIN_PASSWORD = 'Admin-test-Passw0rd';

/** The repository's root: plugin ids given to startTestKernel are its `plugins/<id>` folders. */
const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** The plugin that brings the built-in engine (the seeded `apertium-local` node's kind). */
export const BUILTIN_ENGINE = 'engine-apertium';

export interface TestKernel extends KernelServer {
  testDb: TestDatabase;
  config: Config;
  clock: { now: Date; advance(ms: number): void };
  logLines: string[];
  printed: string[];
  /** Signs in through the real flow (one-time key, RSA-OAEP) and returns the token. */
  login(username: string, password: string): Promise<string>;
  /** Calls `method url` with the token in the Jwt header; returns status and parsed body. */
  call(method: string, url: string, token?: string | null, payload?: unknown): Promise<{ status: number; body: any }>;
  shutdown(): Promise<void>;
}

/** A plugin of the deployment set: an id under this repository's `plugins/`, or one elsewhere (a fixture). */
export type TestPlugin = string | { id: string; path: string; enabled?: boolean };

export interface TestKernelOptions {
  /** The deployment set, all enabled unless said otherwise (none by default). Ignored when a registry file is given. */
  plugins?: TestPlugin[];
  /**
   * Adds the built-in engine's plugin (`engine-apertium`, which the seeded Apertium node needs) to
   * `plugins` unless it is listed there already (default true). Ignored when a registry file is given.
   */
  builtinEngine?: boolean;
  /** A registry file to start from instead of `plugins` (as `config.registryFile` also does). */
  registry?: string;
  /** Config overrides (the log level is 'warn' unless set here). */
  config?: Partial<Config>;
  options?: ServerOptions;
  /** Runs before the server starts, with its config (to place plugin config files, a dist...). */
  prepare?: (config: Config) => void;
}

export function testConfig(dataDir: string, databaseUrl: string | null, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    distDir: join(dataDir, 'dist'),
    registryFile: join(dataDir, 'registry.json'),
    adminPassword: ADMIN_PASSWORD,
    trustProxy: false,
    logLevel: 'info',
    rootDir: process.cwd(),
    ...overrides,
  };
}

export function encryptFor(publicKeyBase64: string, plain: string): string {
  const key = createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain)).toString('base64');
}

/**
 * Starts the kernel with these plugins and a database of its own (PGlite in a temp directory, or a
 * fresh database on the server DATABASE_URL names); `shutdown()` removes both.
 */
export async function startTestKernel(opts: TestKernelOptions = {}): Promise<TestKernel> {
  const testDb = await openTestDatabase();
  const registry = opts.registry ?? opts.config?.registryFile;
  const config = testConfig(testDb.dataDir, testDb.databaseUrl, { logLevel: 'warn', ...opts.config, ...(registry ? { registryFile: registry } : {}) });
  if (!registry) {
    const plugins = (opts.plugins ?? []).map((p) => (typeof p === 'string' ? { id: p, path: join(REPO_ROOT, 'plugins', p), enabled: true } : { enabled: true, ...p }));
    // Translation in a test runs on the real engine, as in a deployment, where its plugin ships built in.
    if (opts.builtinEngine !== false && !plugins.some((p) => p.id === BUILTIN_ENGINE)) plugins.push({ id: BUILTIN_ENGINE, path: join(REPO_ROOT, 'plugins', BUILTIN_ENGINE), enabled: true });
    // So do the built-in speech and OCR engines (the seeded pocketsphinx-local and tesseract-local nodes' kinds).
    if (opts.builtinEngine !== false) for (const id of ['engine-pocketsphinx', 'engine-tesseract']) if (!plugins.some((p) => p.id === id)) plugins.push({ id, path: join(REPO_ROOT, 'plugins', id), enabled: true });
    writeFileSync(config.registryFile, JSON.stringify({ plugins }));
  }
  opts.prepare?.(config);
  const clock = { now: new Date('2026-03-01T10:00:00Z'), advance(ms: number) { clock.now = new Date(clock.now.getTime() + ms); } };
  const logLines: string[] = [];
  const printed: string[] = [];
  let server: KernelServer;
  try {
    server = await createServer(config, {
      database: testDb.database,
      now: () => clock.now,
      logStream: { write: (line) => void logLines.push(line) },
      print: (line) => void printed.push(line),
      ...opts.options,
    });
  } catch (err) {
    await testDb.cleanup();
    throw err;
  }
  const call: TestKernel['call'] = async (method, url, token, payload) => {
    const res = await server.app.inject({ method: method as 'GET', url, headers: token ? { jwt: token } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body };
  };
  const login: TestKernel['login'] = async (username, password) => {
    const key = await call('GET', '/api/user/getOnePublicKey');
    const res = await call('POST', '/api/login', null, { username, password: encryptFor(key.body.data, password), publicKey: key.body.data, symbol: '' });
    if (res.body.code !== 200) throw new Error(`login of ${username} failed: ${JSON.stringify(res.body)}`);
    return res.body.data.token;
  };
  return {
    ...server,
    testDb,
    config,
    clock,
    logLines,
    printed,
    login,
    call,
    async shutdown() {
      await server.close();
      await testDb.cleanup();
    },
  };
}

/** Creates a user in the default department holding one role that grants these permission keys. */
export async function createUserWithRole(kernel: TestKernel, username: string, password: string, roleName: string, keys: string[]) {
  const db = kernel.database.db;
  const department = await db.selectFrom('departments').select('id').where('is_default', '=', true).executeTakeFirstOrThrow();
  const role = await db.insertInto('roles').values({ name: roleName }).returning('id').executeTakeFirstOrThrow();
  if (keys.length) {
    const perms = await db.selectFrom('permissions').select('id').where('key', 'in', keys).execute();
    if (perms.length !== keys.length) throw new Error(`unknown permission keys among ${keys.join(', ')}`);
    await db.insertInto('role_permissions').values(perms.map((p) => ({ role_id: role.id, permission_id: p.id }))).execute();
  }
  const user = await db.insertInto('users').values({ username, real_name: username, password_hash: await hashPassword(password) }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('user_department_roles').values({ user_id: user.id, department_id: department.id, role_id: role.id }).execute();
  return { userId: user.id as number, roleId: role.id as number, departmentId: department.id as number };
}

/**
 * Gives a user a new API key (default scopes) as the reset call would at `now`, and returns it.
 * Throws when the key was reset less than the reset interval (24 hours) before `now`.
 */
export async function issueApiKey(kernel: TestKernel, userId: number, now: Date = new Date()): Promise<string> {
  const key = await resetApiKey(kernel.database.db, loadSecret(kernel.config.dataDir), userId, now);
  if (!key) throw new Error(`the API key of user ${userId} was reset less than a day before ${now.toISOString()}`);
  return key;
}

/**
 * Leaves one remote LibreTranslate-compatible engine for `source` → `target` as the only one running
 * (the seeded local Apertium node is stopped), through the engine-management API as an administrator
 * would; needs the `service` and `engine-libretranslate` plugins. Returns the node's id once it is healthy.
 */
export async function useOnlyLibreEngine(kernel: TestKernel, adminToken: string, peerUrl: string, pair: { source: string; target: string } = { source: 'en', target: 'fr' }): Promise<number> {
  const seeded = await kernel.call('GET', '/api/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=10', adminToken);
  await kernel.call('GET', `/api/translServiceNode/stopTranslationService?id=${seeded.body.data.records[0].nodeIds[0]}`, adminToken);
  const engine = await kernel.call('POST', '/api/translServiceInfo/add', adminToken, { name: 'Remote LT', imageName: 'libretranslate', sourceLanguage: pair.source, targetLanguage: pair.target });
  const node = await kernel.call('POST', '/api/translServiceNode/add', adminToken, { kind: 'libretranslate', containerName: 'lt', baseUrl: peerUrl, authenticationFile: 'none', engineId: engine.body.data.id, password: 'node-secret' });
  if (node.body.code !== 200) throw new Error(`the remote engine's node was refused: ${node.body.msg}`);
  const started = await kernel.call('GET', `/api/translServiceNode/startTranslationService?id=${node.body.data.id}`, adminToken);
  if (started.body.data?.health !== 'healthy') throw new Error(`the remote engine's node did not start: ${JSON.stringify(started.body)}`);
  return node.body.data.id as number;
}
