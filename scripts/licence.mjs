#!/usr/bin/env node
// Engine licences (authorization files), for operators and tests:
//   node scripts/licence.mjs keygen <dir>            -> <dir>/licence-key.pem (private), prints the public key (base64 DER)
//   node scripts/licence.mjs sign <private.pem> --engine NAME --pairs en-es,es-en --nodes 2 --expires 2027-01-01 [--to NAME] > file.lic
// The server trusts a public key once the super administrator adds it (service plugin, trusted keys).
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function fail(message) {
  process.stderr.write(`licence: ${message}\n`);
  process.exit(1);
}

const [command, ...args] = process.argv.slice(2);
if (command === 'keygen') {
  const dir = args[0] ?? fail('usage: licence.mjs keygen <dir>');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'licence-key.pem'), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  process.stdout.write(`${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}\n`);
} else if (command === 'sign') {
  const keyFile = args[0] ?? fail('usage: licence.mjs sign <private.pem> --engine ... --pairs ... --nodes N --expires DATE');
  const opt = (name) => {
    const i = args.indexOf(`--${name}`);
    return i > 0 ? args[i + 1] : undefined;
  };
  const engine = opt('engine') ?? fail('--engine is required');
  const pairs = (opt('pairs') ?? fail('--pairs is required')).split(',').map((p) => {
    const [source, target] = p.split(/-(?=[a-z]{2}(?:-[A-Z]{2})?$)/);
    if (!source || !target) fail(`pair ${p}: write source-target, e.g. en-es or en-zh-CN`);
    return { source, target };
  });
  const nodeLimit = Number(opt('nodes') ?? '1');
  const expires = new Date(opt('expires') ?? fail('--expires is required'));
  if (Number.isNaN(expires.getTime())) fail('--expires is not a date');
  const payload = JSON.stringify({ engine, pairs, nodeLimit, expiresAt: expires.toISOString(), ...(opt('to') ? { issuedTo: opt('to') } : {}) });
  const key = createPrivateKey(readFileSync(keyFile));
  if (createPublicKey(key).asymmetricKeyType !== 'ed25519') fail('the key is not an ed25519 key');
  const signature = sign(null, Buffer.from(payload, 'utf8'), key).toString('base64');
  process.stdout.write(`${JSON.stringify({ payload, signature }, null, 2)}\n`);
} else {
  fail('usage: licence.mjs keygen <dir> | sign <private.pem> --engine NAME --pairs en-es --nodes N --expires DATE');
}
