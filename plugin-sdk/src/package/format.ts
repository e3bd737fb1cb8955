import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { isSafePath } from './tar.js';

/**
 * The plugin package format, shared by the packer (scripts/pack-plugin.mjs) and the server's
 * verifier. A package is a gzip'd ustar archive:
 *
 *   plugin.json            the manifest
 *   bundle/<id>-<hash>.js  the System.register console bundle (+ .css when the plugin has styles)
 *   locales/<locale>.json  one per supported locale
 *   logo.<png|svg|...>     optional
 *   server/index.mjs       optional server part (only accepted from keys trusted for server code)
 *   files.json             every file above with its size and SHA-256
 *   signature.json         ed25519 over the canonical bytes of files.json, with the publisher key id
 */

export const PACKAGE_FORMAT = 1;
export const FILES_LIST = 'files.json';
export const SIGNATURE_FILE = 'signature.json';

/** Limits the server applies (spec 02 sections 5 and 9: the package file under 2 MB). */
export const PACKAGE_LIMITS = {
  maxPackageBytes: 2 * 1024 * 1024,
  maxLogoBytes: 200 * 1024,
  maxUnpackedBytes: 16 * 1024 * 1024,
  maxFiles: 200,
} as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hex digits');
const safePath = z.string().refine(isSafePath, 'path must stay inside the package');

export const filesListSchema = z
  .object({
    format: z.literal(PACKAGE_FORMAT),
    id: z.string().min(1),
    version: z.string().min(1),
    /** Package paths of the console bundle and its CSS. */
    bundle: safePath,
    css: safePath.nullable(),
    locales: z.record(z.string(), safePath),
    logo: safePath.nullable(),
    server: safePath.nullable(),
    files: z.array(z.object({ path: safePath, size: z.number().int().nonnegative(), sha256: sha256Hex }).strict()).min(1),
  })
  .strict();

export type FilesList = z.infer<typeof filesListSchema>;

export const signatureSchema = z
  .object({
    algorithm: z.literal('ed25519'),
    /** `keyIdOf(publicKey)`: names the publisher key the server must trust. */
    keyId: z.string().regex(/^[0-9a-f]{16}$/),
    /** base64 signature over `canonicalBytes(filesList)`. */
    signature: z.string().min(1),
  })
  .strict();

export type PackageSignature = z.infer<typeof signatureSchema>;

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** JSON with object keys sorted at every level and no white space: the bytes that are signed. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const canonicalBytes = (list: FilesList) => Buffer.from(canonicalJson(list), 'utf8');

/** Reads a public key from PEM (SPKI); throws a readable error for anything else. */
export function publicKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (err) {
    throw new Error(`not a PEM public key: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the key is ${key.asymmetricKeyType}, not ed25519`);
  return key;
}

/** Key id: the first 16 hex digits of the SHA-256 of the DER (SPKI) public key. */
export function keyIdOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === 'string' ? publicKeyFromPem(publicKey) : publicKey;
  return sha256(key.export({ type: 'spki', format: 'der' })).slice(0, 16);
}

export function generatePublisherKey(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: keyIdOf(publicKey),
  };
}

export function signFilesList(list: FilesList, privateKeyPem: string): PackageSignature {
  const privateKey = createPrivateKey(privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  return { algorithm: 'ed25519', keyId: keyIdOf(publicKey), signature: sign(null, canonicalBytes(list), privateKey).toString('base64') };
}

export function verifyFilesList(list: FilesList, signature: PackageSignature, publicKeyPem: string): boolean {
  try {
    return verify(null, canonicalBytes(list), publicKeyFromPem(publicKeyPem), Buffer.from(signature.signature, 'base64'));
  } catch {
    return false;
  }
}
