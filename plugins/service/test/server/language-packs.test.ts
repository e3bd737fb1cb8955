import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, available, buildAptRepository, createUserWithRole, startTestKernel, until, type AptRepository, type TestKernel } from '@linguaport/sdk/testing';

// Language packs installed and removed for real by apt-get and dpkg, from a Debian repository this
// test builds on disk (tests use no network): one pair package, `apertium-qaa-qab` (qaa-qtz are the
// codes ISO 639 keeps for local use, so no real pair is touched). Its only file is a README.

const PACK = 'apertium-qaa-qab';
const root = process.getuid?.() === 0;
let repo: AptRepository;
let k: TestKernel;
let admin: string;

const installed = (pkg: string) => {
  const res = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return res.status === 0 && res.stdout.endsWith(' installed');
};

function waitForTask(id: string) {
  return until(async () => {
    const task = (await k.call('GET', `/api/tasks/${id}`, admin)).body.data;
    return ['completed', 'failed', 'cancelled'].includes(task.state) && task;
  }, { timeout: 120_000, interval: 200, what: `task ${id} to end` });
}

beforeAll(async () => {
  repo = buildAptRepository([{ name: PACK, description: 'Apertium translation data for the Test-Test pair', files: { [`/usr/share/doc/${PACK}/README`]: 'A language pack made by the language-packs test.\n' } }]);
  k = await startTestKernel({
    plugins: ['service'],
    prepare: (config) => {
      mkdirSync(join(config.dataDir, 'config'), { recursive: true });
      writeFileSync(join(config.dataDir, 'config', 'service.json'), JSON.stringify({ apt: repo.options }));
    },
  });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  if (root && installed(PACK)) spawnSync('dpkg', ['--purge', PACK], { stdio: 'ignore' });
  repo?.remove();
});

describe('language packs', () => {
  it('lists the pair packages apt knows with both languages by name, and which are installed', async () => {
    const res = await k.call('GET', '/api/translServiceNode/languagePacks', admin);
    expect(res.status).toBe(200);
    const pack = res.body.data.packs.find((p: { name: string }) => p.name === PACK);
    expect(pack).toMatchObject({ description: 'Apertium translation data for the Test-Test pair', installed: false, version: null });
    expect(pack.languages.map((l: { code: string }) => l.code)).toEqual(['qaa', 'qab']);
    expect(res.body.data.canManage).toBe(root);
  });

  it.runIf(available('root (apt-get installs language packs)', root))('installs a pack with apt-get as a task with progress, then removes it', async () => {
    const started = await k.call('POST', '/api/translServiceNode/languagePacks', admin, { action: 'install', packages: [PACK] });
    expect(started.status, started.body.msg).toBe(200);
    const done = await waitForTask(started.body.data.id);
    expect(done, done.error ?? '').toMatchObject({ state: 'completed', progress: { done: 100, total: 100 }, output: { action: 'install', packages: [PACK], restartedNodes: 0 } });
    expect(installed(PACK)).toBe(true);
    const listed = (await k.call('GET', '/api/translServiceNode/languagePacks', admin)).body.data.packs.find((p: { name: string }) => p.name === PACK);
    expect(listed).toMatchObject({ installed: true, version: '1.0-1' });
    // Installed already: nothing to do, said so, nothing started.
    const again = await k.call('POST', '/api/translServiceNode/languagePacks', admin, { action: 'install', packages: [PACK] });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('所选语言包均已安装');

    const removal = await k.call('POST', '/api/translServiceNode/languagePacks', admin, { action: 'remove', packages: [PACK] });
    expect(removal.status, removal.body.msg).toBe(200);
    expect(await waitForTask(removal.body.data.id)).toMatchObject({ state: 'completed' });
    expect(installed(PACK)).toBe(false);
  });

  it('without root starts nothing and gives the exact command to run', async () => {
    // Runs as root too: the plugin asks process.getuid at each request, so it is told otherwise here.
    const uid = vi.spyOn(process, 'getuid').mockReturnValue(1000);
    try {
      const res = await k.call('POST', '/api/translServiceNode/languagePacks', admin, { action: 'install', packages: [PACK] });
      expect(res.status).toBe(400);
      expect(res.body.data.command).toBe(`sudo apt-get install -y ${PACK}`);
      expect(installed(PACK)).toBe(false);
    } finally {
      uid.mockRestore();
    }
  });

  it('refuses names that are no pack apt knows, malformed names, and callers without the permission', async () => {
    const unknown = await k.call('POST', '/api/translServiceNode/languagePacks', admin, { action: 'install', packages: ['apertium-xxx-yyy'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('apertium-xxx-yyy');
    // Only pair package names: never an arbitrary package or an apt option.
    for (const bad of ['vim', '-oDebug=1', 'apertium-eng-spa; rm -rf /']) {
      expect((await k.call('POST', '/api/translServiceNode/languagePacks', admin, { action: 'install', packages: [bad] })).status).toBe(400);
    }
    await createUserWithRole(k, 'viewer', 'Viewer-Passw0rd!', 'engine viewers', ['service:view']);
    const viewer = await k.login('viewer', 'Viewer-Passw0rd!');
    expect((await k.call('GET', '/api/translServiceNode/languagePacks', viewer)).status).toBe(200);
    expect((await k.call('POST', '/api/translServiceNode/languagePacks', viewer, { action: 'install', packages: [PACK] })).status).toBe(403);
    expect(installed(PACK)).toBe(false);
  });
});
