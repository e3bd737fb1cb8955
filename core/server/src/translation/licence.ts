import { createPublicKey, verify } from 'node:crypto';

/**
 * Engine authorization files. A file is JSON `{payload, signature}`: `payload` is the licence's
 * own JSON text (so no canonical form is needed to check it) and `signature` is ed25519 over
 * those exact bytes, base64. Trusted keys are base64 DER (SPKI) ed25519 public keys, the form
 * `scripts/licence.mjs keygen` prints.
 */

export interface Licence {
  engine: string;
  pairs: { source: string; target: string }[];
  nodeLimit: number;
  /** ISO date-time. */
  expiresAt: string;
  issuedTo?: string;
}

export type LicenceCheck = { ok: true; licence: Licence; keyName: string } | { ok: false; reason: string };

export function verifyLicenceFile(text: string, trusted: readonly { name: string; publicKey: string }[], now = new Date()): LicenceCheck {
  let file: { payload?: unknown; signature?: unknown };
  try {
    file = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'The authorization file is not a licence: it is not JSON.' };
  }
  if (typeof file?.payload !== 'string' || typeof file?.signature !== 'string') {
    return { ok: false, reason: 'The authorization file is not a licence: it needs "payload" and "signature".' };
  }
  if (trusted.length === 0) return { ok: false, reason: 'No trusted licence key is configured: the super administrator must add one first.' };
  const signature = Buffer.from(file.signature, 'base64');
  const signer = trusted.find((k) => {
    try {
      const key = createPublicKey({ key: Buffer.from(k.publicKey, 'base64'), format: 'der', type: 'spki' });
      return key.asymmetricKeyType === 'ed25519' && verify(null, Buffer.from(file.payload as string, 'utf8'), key, signature);
    } catch {
      return false;
    }
  });
  if (!signer) return { ok: false, reason: 'The authorization file is not signed by a trusted licence key.' };
  let licence: Licence;
  try {
    licence = JSON.parse(file.payload);
  } catch {
    return { ok: false, reason: 'The licence payload is not JSON.' };
  }
  const problems: string[] = [];
  if (typeof licence.engine !== 'string' || !licence.engine) problems.push('engine');
  if (!Array.isArray(licence.pairs) || licence.pairs.some((p) => typeof p?.source !== 'string' || typeof p?.target !== 'string')) problems.push('pairs');
  if (!Number.isInteger(licence.nodeLimit) || licence.nodeLimit < 1) problems.push('nodeLimit');
  if (typeof licence.expiresAt !== 'string' || Number.isNaN(Date.parse(licence.expiresAt))) problems.push('expiresAt');
  if (problems.length) return { ok: false, reason: `The licence lacks valid fields: ${problems.join(', ')}.` };
  if (Date.parse(licence.expiresAt) <= now.getTime()) return { ok: false, reason: `The licence expired on ${licence.expiresAt}.` };
  return { ok: true, licence, keyName: signer.name };
}
