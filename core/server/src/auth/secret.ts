import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The server's own secret (DATA_DIR/secret.key, 32 random bytes, mode 0600): it encrypts values
 * that must be readable again (API keys for their owner, directory bind passwords, SSO client
 * secrets) and signs quick-access links. Servers sharing one PostgreSQL must share this file.
 */

export const SECRET_FILE = 'secret.key';

export interface Secret {
  encrypt(plain: string): string;
  /** Null when the value was not made with this secret or was altered. */
  decrypt(sealed: string): string | null;
  sign(data: string): string;
  verify(data: string, signature: string): boolean;
}

export function loadSecret(dataDir: string): Secret {
  const file = join(dataDir, SECRET_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    // 'wx' so two processes starting at once cannot both write different keys.
    try {
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    chmodSync(file, 0o600);
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} must hold 32 bytes in base64; delete it to make a new one (encrypted values become unreadable)`);
  return secretOf(key);
}

/** The secret made from 32 key bytes (the rotation holds the old and the new one at once). */
export function secretOf(key: Buffer): Secret {
  // Separate subkeys so an encryption key is never also used as a MAC key.
  const encKey = createHmac('sha256', key).update('encrypt').digest();
  const macKey = createHmac('sha256', key).update('sign').digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [v, iv, tag, body] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
    sign(data) {
      return createHmac('sha256', macKey).update(data).digest('base64url');
    },
    verify(data, signature) {
      const expected = Buffer.from(createHmac('sha256', macKey).update(data).digest('base64url'));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
