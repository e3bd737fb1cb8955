#!/usr/bin/env node
// Builds a plugin and packs it into a signed package for upload in plug-in management:
//   npm run pack-plugin <plugin folder> [-- --key <private key pem>] [--out <file>] [--unsigned]
// Key: --key, else $PLUGIN_KEY, else .keys/publisher.key.pem (made by `npm run plugin-key`).
// Output: <out> (default dist-packages/<id>-<version>.tgz). Runs under tsx (the SDK is TypeScript).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILES_LIST, PACKAGE_FORMAT, PACKAGE_LIMITS, SIGNATURE_FILE, sha256, signFilesList, writeTarGz } from '../plugin-sdk/src/package/index.ts';
import { writeFileAtomic } from './lib/files.mjs';
import { buildPackageFiles } from './lib/pack.mjs';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const opts = { dir: null, key: process.env.PLUGIN_KEY || join(rootDir, '.keys', 'publisher.key.pem'), out: null, unsigned: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--key') opts.key = argv[++i];
    else if (a === '--out') opts.out = argv[++i];
    else if (a === '--unsigned') opts.unsigned = true;
    else if (!a.startsWith('--') && !opts.dir) opts.dir = a;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.dir) throw new Error('usage: pack-plugin <plugin folder> [--key <private key pem>] [--out <file>] [--unsigned]');
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pluginDir = resolve(opts.dir);
  if (!existsSync(join(pluginDir, 'plugin.json'))) throw new Error(`${opts.dir} has no plugin.json`);
  if (!opts.unsigned && !existsSync(opts.key)) throw new Error(`no publisher key at ${opts.key}: run npm run plugin-key, or pass --key`);
  const sharedModules = JSON.parse(readFileSync(join(rootDir, 'core', 'console', 'shared-modules.json'), 'utf8')).modules;
  const { manifest, entries, layout } = await buildPackageFiles(pluginDir, { rootDir, sharedModules });
  const list = {
    format: PACKAGE_FORMAT,
    id: manifest.id,
    version: manifest.version,
    ...layout,
    files: entries.map((e) => ({ path: e.path, size: e.data.length, sha256: sha256(e.data) })),
  };
  const all = [...entries, { path: FILES_LIST, data: Buffer.from(`${JSON.stringify(list, null, 2)}\n`) }];
  if (!opts.unsigned) {
    const signature = signFilesList(list, readFileSync(opts.key, 'utf8'));
    all.push({ path: SIGNATURE_FILE, data: Buffer.from(`${JSON.stringify(signature, null, 2)}\n`) });
  }
  const archive = writeTarGz(all);
  const out = resolve(opts.out ?? join(rootDir, 'dist-packages', `${manifest.id}-${manifest.version}.tgz`));
  writeFileAtomic(out, archive);
  const warn = archive.length >= PACKAGE_LIMITS.maxPackageBytes ? ' (over the 2 MB upload limit!)' : '';
  console.log(`pack-plugin: ${manifest.id} ${manifest.version}, ${all.length} files, ${archive.length} bytes${warn} -> ${relative(process.cwd(), out)}${opts.unsigned ? ' (unsigned)' : ''}`);
}

main().catch((err) => {
  process.stderr.write(`pack-plugin failed: ${err?.message ?? err}\n`);
  process.exit(1);
});
