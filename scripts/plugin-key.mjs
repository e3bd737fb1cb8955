#!/usr/bin/env node
// Makes an ed25519 publisher key pair for signing plugin packages:
//   npm run plugin-key [-- --out <folder>] [--name <name>]
// Writes <folder>/<name>.key.pem (private, mode 600: keep it secret) and <name>.pub.pem (give this
// to the deployment's super administrator to trust). Defaults: .keys/publisher. Refuses to overwrite.
import { chmodSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePublisherKey } from '../plugin-sdk/src/package/index.ts';
import { writeFileAtomic } from './lib/files.mjs';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const value = (flag, fallback) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : fallback);
const folder = resolve(value('--out', join(rootDir, '.keys')));
const name = value('--name', 'publisher');
const priv = join(folder, `${name}.key.pem`);
const pub = join(folder, `${name}.pub.pem`);
if (existsSync(priv) || existsSync(pub)) {
  process.stderr.write(`plugin-key: ${relative(process.cwd(), priv)} already exists; remove it or pass --name\n`);
  process.exit(1);
}
const key = generatePublisherKey();
writeFileAtomic(priv, key.privateKeyPem);
chmodSync(priv, 0o600);
writeFileAtomic(pub, key.publicKeyPem);
console.log(`plugin-key: key id ${key.keyId}\n  private: ${relative(process.cwd(), priv)}\n  public:  ${relative(process.cwd(), pub)}`);
