import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMigrations } from '../src/db/migrations.js';
import { healthRoute } from '../src/http/health.js';
import { checkExternalTools, declaredTools, describeMissingTools, ensureWritableDir, featureUnavailable, probePort } from '../src/preflight.js';
import { translationMigrations } from '../src/translation/migrations.js';
import { createTranslationService } from '../src/translation/service.js';
import { createAdapterRegistry } from '../src/translation/adapters.js';
import { apertiumDefinition } from '../../../plugins/engine-apertium/server/definition.js';
import { pathWithout } from './support/engine-env.js';
import { openTestDatabase } from './support/test-database.js';

describe('start-up preflight', () => {
  it('runs a probe that passed once per process and environment, and one that failed every time', () => {
    const root = mkdtempSync(join(tmpdir(), 'lp-pre-'));
    const runs = (name: string) => (existsSync(join(root, name)) ? readFileSync(join(root, name), 'utf8').length : 0);
    const tool = (name: string, exit: number) => ({ stage: 'runtime' as const, command: '/bin/sh', probe: ['-c', `printf x >> ${join(root, name)}; exit ${exit}`], package: 'p', feature: name, purpose: name });
    const tools = declaredTools([{ tools: [tool('found', 0), tool('missing', 1)] }] as never);
    const env = { PATH: process.env.PATH };
    for (let i = 0; i < 3; i++) expect(checkExternalTools(env, tools).map((t) => t.ok)).toEqual([true, false]);
    expect([runs('found'), runs('missing')]).toEqual([1, 3]);
    // Another environment (a PATH without the interpreter, as a test makes) is probed afresh.
    expect(checkExternalTools({ ...env, EXTRA: '1' }, tools).map((t) => t.ok)).toEqual([true, false]);
    expect([runs('found'), runs('missing')]).toEqual([2, 4]);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates a missing nested data directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'lp-pre-'));
    const dir = join(root, 'a', 'b', 'c');
    ensureWritableDir(dir);
    expect(existsSync(dir)).toBe(true);
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a data directory below a file, naming it', () => {
    const root = mkdtempSync(join(tmpdir(), 'lp-pre-'));
    writeFileSync(join(root, 'file'), 'x');
    expect(() => ensureWritableDir(join(root, 'file', 'data'))).toThrow(/data directory .*file\/data is not writable: ENOTDIR/);
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a data directory under /proc without hanging', () => {
    expect(() => ensureWritableDir('/proc/linguaport-data')).toThrow(/is not writable/);
  });

  it('reports a port already in use', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const { port } = busy.address() as { port: number };
    await expect(probePort(port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await new Promise<void>((r) => busy.close(() => r()));
    await expect(probePort(port, '127.0.0.1')).resolves.toBeUndefined();
  });
});

describe('external tools at start', () => {
  it('names each missing tool with its Debian package and the feature it disables', () => {
    const path = pathWithout(['tf-extract', 'tf-inject']);
    try {
      const tools = checkExternalTools({ ...process.env, PATH: path.dir });
      expect(tools.filter((t) => !t.ok).map((t) => t.name)).toEqual(['tf-extract', 'tf-inject']);
      expect(featureUnavailable('apertium-html', tools)).toBe('tf-extract, tf-inject missing (Debian package transfuse)');
      expect(featureUnavailable('apertium', tools)).toBeNull();
      expect(describeMissingTools(tools)).toEqual(['html translation with the built-in Apertium engine is unavailable: tf-extract, tf-inject missing (Debian package transfuse)']);
    } finally {
      path.cleanup();
    }
    const none = checkExternalTools({ ...process.env, PATH: '/nonexistent' });
    expect(featureUnavailable('apertium', none)).toMatch(/^apertium, apertium-wblank-mode, lt-proc, apertium-apy missing \(Debian packages apertium, lttoolbox, apertium-apy\)$/);
  });

  it('logs the missing tools at start, lists them in the health check, and names them when an Apertium node cannot start', async () => {
    const t = await openTestDatabase();
    await runMigrations(t.database, 'core.translation', translationMigrations);
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const tools = checkExternalTools().map((tool) => (tool.name === 'apertium-apy' ? { ...tool, ok: false } : tool));
    const adapters = createAdapterRegistry();
    adapters.register(apertiumDefinition(), 'engine-apertium');
    const service = createTranslationService({ db: t.database.db, dataDir: t.dataDir, logger, readSetting: async () => null, tools, adapters });
    try {
      await service.start();
      expect(warnings).toContain('missing external tools: the built-in Apertium engine is unavailable: apertium-apy missing (Debian package apertium-apy)');
      const [node] = await t.database.db.selectFrom('engine_nodes').select('id').where('kind', '=', 'apertium-local').execute();
      await expect(service.nodes.start(node.id as number)).rejects.toMatchObject({ code: 503, message: expect.stringContaining('apertium-apy missing (Debian package apertium-apy)') });
      const route = healthRoute(t.database, { health: async () => ({ ok: true }) }, () => service.overview(), () => service.tools());
      const body = (await route.handler({} as never)) as { tools: { missing: unknown[] } };
      expect(body.tools.missing).toEqual([{ name: 'apertium-apy', debianPackage: 'apertium-apy', feature: 'apertium' }]);
    } finally {
      await service.close();
      await t.cleanup();
    }
  }, 30_000);
});
