#!/usr/bin/env node
// Scaffolds plugins/<id>/ from scripts/templates/plugin/ and adds it, enabled, to registry.json:
//   node scripts/new-plugin.mjs <id>
// The result builds with scripts/build.mjs and passes its own server and console tests as generated
// (scripts/test/scaffold.test.ts runs them).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './lib/files.mjs';
import { pluginNames, renderTemplate, sdkMajor, validatePluginId } from './lib/scaffold.mjs';

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

const major = sdkMajor(ROOT);
if (!major) fail('cannot read SDK_VERSION from plugin-sdk/src/shared/version.ts');
const names = { ...pluginNames(id), __SDK_MAJOR__: major };
renderTemplate(TEMPLATES, target, names);

registry.plugins.push({ id, path: `plugins/${id}`, enabled: true });
writeFileAtomic(registryFile, `${JSON.stringify(registry, null, 2)}\n`);

console.log(`created plugins/${id} (route /${names.__CAMEL__}, API GET /api/${id}/list and POST /api/${id}/add, table ${names.__TABLE__}) and enabled it in registry.json`);
console.log(`next: npm run build && npx vitest run plugins/${id}`);
