import { constants, generateKeyPair, privateDecrypt } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * One-time RSA keys for the sign-in form: the browser encrypts the password with a fresh public
 * key (RSA-OAEP, SHA-256); the key pair serves one attempt within five minutes.
 */

export const KEY_VALIDITY_MS = 5 * 60_000;
/** Unused keys are deleted after this long, so the table stays small. */
const KEY_RETENTION_MS = 60 * 60_000;

function newKeyPair(): Promise<{ publicKey: string; privateKeyPem: string }> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      'rsa',
      { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } },
      (err, publicKey, privateKey) => (err ? reject(err) : resolve({ publicKey: publicKey.toString('base64'), privateKeyPem: privateKey })),
    ),
  );
}

/** Issues a fresh key pair and returns the public half: base64 of its SPKI DER encoding. */
export async function issuePublicKey(db: Kysely<any>, now: Date): Promise<string> {
  const pair = await newKeyPair();
  await db.deleteFrom('public_keys').where('created_at', '<', new Date(now.getTime() - KEY_RETENTION_MS)).execute();
  await db.insertInto('public_keys').values({ public_key: pair.publicKey, private_key_pem: pair.privateKeyPem, created_at: now }).execute();
  return pair.publicKey;
}

export type KeyClaim = { ok: true; privateKeyPem: string } | { ok: false; reason: string };

/** Marks the key used (atomically: two attempts cannot both claim it) and returns its private half. */
export async function claimKey(db: Kysely<any>, publicKey: string, now: Date): Promise<KeyClaim> {
  const row = await db
    .updateTable('public_keys')
    .set({ used_at: now })
    .where('public_key', '=', publicKey)
    .where('used_at', 'is', null)
    .returning(['private_key_pem', 'created_at'])
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'public key unknown or already used' };
  // The private half is no longer needed: wiping it means a logged ciphertext can never be opened later.
  await db.updateTable('public_keys').set({ private_key_pem: '' }).where('public_key', '=', publicKey).execute();
  if (now.getTime() - new Date(row.created_at).getTime() > KEY_VALIDITY_MS) return { ok: false, reason: 'public key expired' };
  return { ok: true, privateKeyPem: row.private_key_pem };
}

export function decryptPassword(privateKeyPem: string, ciphertextBase64: string): string | null {
  try {
    return privateDecrypt({ key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(ciphertextBase64, 'base64')).toString('utf8');
  } catch {
    return null;
  }
}
