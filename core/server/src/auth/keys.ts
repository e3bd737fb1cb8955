import { constants, generateKeyPair, privateDecrypt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';

/**
 * One-time RSA keys for the sign-in form: the browser encrypts the password with a fresh public
 * key (RSA-OAEP, SHA-256); the key pair serves one attempt within five minutes. Pairs come from a
 * pool made ahead in the background, and each address may take only so many a minute.
 */

export const KEY_VALIDITY_MS = 5 * 60_000;
/** Unused keys are deleted after this long, so the table stays small. */
const KEY_RETENTION_MS = 60 * 60_000;

export interface KeyPair {
  publicKey: string;
  privateKeyPem: string;
}

function newKeyPair(): Promise<KeyPair> {
  return new Promise((resolve, reject) =>
    generateKeyPair(
      'rsa',
      { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } },
      (err, publicKey, privateKey) => (err ? reject(err) : resolve({ publicKey: publicKey.toString('base64'), privateKeyPem: privateKey })),
    ),
  );
}

/** Callers waiting for a key while the pool is empty; beyond this the call is refused (429) rather than queued. */
const MAX_WAITING = 32;
/** Demand is measured over this window: the pool keeps about as many spare keys as were taken in it. */
const DEMAND_WINDOW_MS = 60_000;

export class KeyPoolBusy extends Error {}

/**
 * Key pairs made ahead, in the background, one at a time: generating an RSA-2048 pair costs
 * hundreds of milliseconds of CPU, so it must never run once per anonymous request, nor many at
 * once. Each pair is handed out once (then stored and claimed once, as before). The pool keeps
 * about as many spare pairs as were asked for in the last minute (1 to `size`), so an idle server
 * holds one and a busy one stays ahead; callers arriving while it is empty wait for the next pair
 * in line, and beyond MAX_WAITING of them are refused.
 */
export class KeyPool {
  /** Pairs made so far (tests and diagnostics). */
  generated = 0;
  private readonly ready: KeyPair[] = [];
  private readonly waiting: Array<{ resolve(pair: KeyPair): void; reject(err: unknown): void }> = [];
  private readonly taken: number[] = [];
  private running = false;
  private closed = false;

  constructor(
    private readonly size = 8,
    private readonly generate: () => Promise<KeyPair> = newKeyPair,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Spare pairs ready now. */
  get spare(): number {
    return this.ready.length;
  }

  /** A pair no one else gets: a ready one at once, else the next one made. */
  take(): Promise<KeyPair> {
    const at = this.clock();
    this.taken.push(at);
    while (this.taken.length && this.taken[0]! < at - DEMAND_WINDOW_MS) this.taken.shift();
    const pair = this.ready.shift();
    if (pair) {
      this.fill();
      return Promise.resolve(pair);
    }
    if (this.waiting.length >= MAX_WAITING) return Promise.reject(new KeyPoolBusy('too many callers waiting for a key'));
    const next = new Promise<KeyPair>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.fill();
    return next;
  }

  /** Stops making pairs (the server is closing); callers still waiting are refused. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new KeyPoolBusy('the server is closing'));
  }

  private target(): number {
    return Math.max(1, Math.min(this.size, this.taken.length));
  }

  /** One generator at a time, until the waiting callers are served and the spare count is met. */
  private fill(): void {
    if (this.running || this.closed) return;
    this.running = true;
    void (async () => {
      try {
        while (!this.closed && (this.waiting.length > 0 || this.ready.length < this.target())) {
          let pair: KeyPair;
          try {
            pair = await this.generate();
          } catch (err) {
            this.waiting.shift()?.reject(err);
            break;
          }
          this.generated++;
          const waiter = this.waiting.shift();
          if (waiter) waiter.resolve(pair);
          else this.ready.push(pair);
        }
      } finally {
        this.running = false;
      }
    })();
  }
}

/**
 * Per-address allowance of one-time keys: a bucket of `burst` keys refilled at `perMinute`, on the
 * kernel's clock. A sign-in needs one key (two with a forced password change); a client asking for
 * more than the allowance is answered 429 with the wait.
 */
export class KeyAllowance {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly burst = 20,
    readonly perMinute = 20,
  ) {}

  /** 0 when the address may have a key now (and one is counted), else the seconds to wait. */
  take(address: string, now: Date): number {
    const t = now.getTime();
    const refill = (b: { tokens: number; at: number }) => Math.min(this.burst, b.tokens + ((t - b.at) * this.perMinute) / 60_000);
    if (this.buckets.size > 10_000) {
      for (const [k, b] of this.buckets) if (refill(b) >= this.burst) this.buckets.delete(k);
    }
    const bucket = this.buckets.get(address);
    const tokens = bucket ? refill(bucket) : this.burst;
    if (tokens < 1) {
      this.buckets.set(address, { tokens, at: t });
      return Math.max(1, Math.ceil(((1 - tokens) * 60) / this.perMinute));
    }
    this.buckets.set(address, { tokens: tokens - 1, at: t });
    return 0;
  }
}

/** Hands out a pair from the pool and returns the public half: base64 of its SPKI DER encoding. */
export async function issuePublicKey(db: Kysely<KernelTables>, pool: KeyPool, now: Date): Promise<string> {
  const pair = await pool.take();
  await db.deleteFrom('public_keys').where('created_at', '<', new Date(now.getTime() - KEY_RETENTION_MS)).execute();
  await db.insertInto('public_keys').values({ public_key: pair.publicKey, private_key_pem: pair.privateKeyPem, created_at: now }).execute();
  return pair.publicKey;
}

export type KeyClaim = { ok: true; privateKeyPem: string } | { ok: false; reason: string };

/** Marks the key used (atomically: two attempts cannot both claim it) and returns its private half. */
export async function claimKey(db: Kysely<KernelTables>, publicKey: string, now: Date): Promise<KeyClaim> {
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
