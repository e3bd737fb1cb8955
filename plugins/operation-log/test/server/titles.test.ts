import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Every operation the kernel logs, of every product plugin in registry.json and of the kernel
// itself, has a Chinese title of its own: without one a Chinese reader would see the English one.

const REGISTRY = join(import.meta.dirname, '..', '..', '..', '..', 'registry.json');
let k: TestKernel;

beforeAll(async () => {
  // The enabled product plugins with absolute paths (a plugin still being written, with no manifest yet, waits).
  const set = JSON.parse(readFileSync(REGISTRY, 'utf8')) as { plugins: { id: string; path: string; enabled: boolean }[] };
  const plugins = set.plugins
    .map((p) => ({ ...p, path: resolve(dirname(REGISTRY), p.path) }))
    .filter((p) => p.enabled && existsSync(join(p.path, 'plugin.json')));
  const registry = join(mkdtempSync(join(tmpdir(), 'oplog-titles-')), 'registry.json');
  writeFileSync(registry, JSON.stringify({ plugins }));
  k = await startTestKernel({ registry });
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

it('names every logged operation in Chinese and in English', async () => {
  const titles = await k.database.db.selectFrom('operation_titles').select(['route', 'name_zh', 'name_en']).execute();
  // The kernel's own operations are among them: the store is filled at start.
  expect(titles.map((t) => t.route)).toEqual(expect.arrayContaining(['POST /login', 'PUT /systemConfig/updateConfig']));
  const han = /\p{Script=Han}/u;
  const owner = new Map(k.routes.map((r) => [`${r.method} ${r.url.replace(/^\/api/, '')}`, r.pluginId]));
  const untitled = titles.filter((t) => !han.test(t.name_zh) || t.name_zh === t.name_en).map((t) => `${owner.get(t.route) ?? '?'} | ${t.route} | ${t.name_en}`);
  expect(untitled.sort(), 'plugin | operation | English title: add the Chinese title to the plugin\'s zh-CN.json under <namespace>.operations').toEqual([]);
  expect(titles.filter((t) => han.test(t.name_en)).map((t) => t.route)).toEqual([]);
});
