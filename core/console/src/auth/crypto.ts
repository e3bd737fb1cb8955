/** The password travels RSA-OAEP (SHA-256) encrypted with a one-time server key (spec 01 7.1). */
export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** `publicKey` is base64 SPKI DER; the result is base64 ciphertext. */
export async function encryptPassword(password: string, publicKey: string): Promise<string> {
  const key = await crypto.subtle.importKey('spki', base64ToBytes(publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password));
  return bytesToBase64(new Uint8Array(cipher));
}
