#!/usr/bin/env node
// Scaffolds plugins/<id>/ from scripts/templates/plugin/ and adds it, enabled, to registry.json:
//   node scripts/new-plugin.mjs <id>
// The result builds with scripts/build.mjs and passes its own server test as generated.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './lib/files.mjs';
import { pluginNames, validatePluginId } from './lib/scaffold.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(ROOT, 'scripts', 'templates', 'plugin');

function fail(message) {
  process.stderr.write(`new-plugin: ${message}\n`);
  process.exit(1);
}

const [id, ...rest] = process.argv.slice(2);
if (!id || rest.length) fail('usage: node scripts/new-plugin.mjs <id>');
const problem = validatePluginId(id);
if (problem) fail(problem);

const registryFile = join(ROOT, 'registry.json');
const registry = JSON.parse(readFileSync(registryFile, 'utf8'));
const target = join(ROOT, 'plugins', id);
if (existsSync(target)) fail(`plugins/${id} already exists`);
if (registry.plugins.some((p) => p.id === id)) fail(`plugin ${id} is already listed in registry.json`);

const sdkMajor = /SDK_VERSION\s*=\s*'(\d+)\./.exec(readFileSync(join(ROOT, 'plugin-sdk', 'src', 'shared', 'version.ts'), 'utf8'))?.[1];
if (!sdkMajor) fail('cannot read SDK_VERSION from plugin-sdk/src/shared/version.ts');
const names = { ...pluginNames(id), __SDK_MAJOR__: sdkMajor };
const fill = (text) => text.replace(/__(ID|CAMEL|PASCAL|TABLE|SDK_MAJOR)__/g, (token) => names[token]);

for (const file of readdirSync(TEMPLATES, { recursive: true, withFileTypes: true })) {
  if (!file.isFile()) continue;
  const from = join(file.parentPath ?? file.path, file.name);
  const to = join(target, fill(relative(TEMPLATES, from)));
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, fill(readFileSync(from, 'utf8')));
}

registry.plugins.push({ id, path: `plugins/${id}`, enabled: true });
writeFileAtomic(registryFile, `${JSON.stringify(registry, null, 2)}\n`);

console.log(`created plugins/${id} (route /${names.__CAMEL__}, API GET /api/${id}/items, table ${names.__TABLE__}) and enabled it in registry.json`);
console.log(`next: node scripts/build.mjs && npx vitest run --project server plugins/${id}/test/server`);
