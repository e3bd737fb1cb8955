import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Caller } from '@linguaport/sdk/server';

/**
 * Password hashing with node:crypto scrypt. The stored string carries its own parameters
 * (`scrypt$N$r$p$salt$hash`) so they can be raised later without breaking old hashes.
 */

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

function scrypt(plain: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(plain.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(plain, salt, KEY_LENGTH, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (!n || !r || !p || expected.length === 0) return false;
  const actual = await scrypt(plain, salt, expected.length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

export function can(caller: Caller | null, permission: string): boolean {
  return !!caller && (caller.isSuperAdmin || caller.permissions.has(permission));
}
