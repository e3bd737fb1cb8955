import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyAllowance, KeyPool, KeyPoolBusy, type KeyPair } from '../src/auth/keys.js';
import { ADMIN_PASSWORD, encryptFor, startKernel, type TestKernel } from './support/kernel.js';

// One-time sign-in keys are cheap to ask for: pairs are made ahead, one at a time, and each
// address may take only so many; every key still opens exactly one sign-in.

/** A generator the test finishes by hand, counting how many pairs are being made at once. */
function manualGenerator() {
  const pending: Array<() => void> = [];
  let made = 0;
  let running = 0;
  let maxRunning = 0;
  const generate = () =>
    new Promise<KeyPair>((resolve) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      pending.push(() => {
        running--;
        made++;
        resolve({ publicKey: `pub-${made}`, privateKeyPem: `priv-${made}` });
      });
    });
  return {
    generate,
    finishOne: () => pending.shift()?.(),
    get pending() {
      return pending.length;
    },
    get maxRunning() {
      return maxRunning;
    },
  };
}

describe('key pool', () => {
  it('makes one pair at a time however many callers wait, and gives each pair to one caller', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(4, gen.generate);
    const takes = Array.from({ length: 10 }, () => pool.take());
    for (let i = 0; i < 10; i++) {
      await expect.poll(() => gen.pending).toBe(1);
      gen.finishOne();
    }
    const pairs = await Promise.all(takes);
    expect(new Set(pairs.map((p) => p.publicKey)).size).toBe(10);
    expect(gen.maxRunning).toBe(1);
    pool.close();
  });

  it('keeps spare pairs in step with demand, so a caller is served without waiting for a pair to be made', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(4, gen.generate);
    const first = pool.take();
    await expect.poll(() => gen.pending).toBe(1);
    gen.finishOne();
    await first;
    // One taken in the last minute: one spare is made ahead, then the pool rests.
    await expect.poll(() => gen.pending).toBe(1);
    gen.finishOne();
    await expect.poll(() => pool.spare).toBe(1);
    expect(gen.pending).toBe(0);
    const before = pool.generated;
    await pool.take();
    // Served from the spare: nothing was made for this caller while it waited.
    expect(pool.generated).toBe(before);
    pool.close();
  });

  it('refuses callers beyond the waiting line instead of queueing them without end', async () => {
    const gen = manualGenerator();
    const pool = new KeyPool(4, gen.generate);
    const waiting = Array.from({ length: 32 }, () => pool.take());
    await expect(pool.take()).rejects.toBeInstanceOf(KeyPoolBusy);
    pool.close();
    await Promise.allSettled(waiting);
    expect(gen.maxRunning).toBe(1);
  });
});

describe('key allowance per address', () => {
  it('allows a burst, then asks to wait, and refills with time', () => {
    const allowance = new KeyAllowance(3, 6);
    const t = new Date('2026-03-01T10:00:00Z');
    expect([1, 2, 3].map(() => allowance.take('10.0.0.1', t))).toEqual([0, 0, 0]);
    expect(allowance.take('10.0.0.1', t)).toBe(10);
    expect(allowance.take('10.0.0.2', t)).toBe(0);
    expect(allowance.take('10.0.0.1', new Date(t.getTime() + 10_000))).toBe(0);
  });
});

describe('GET /user/getOnePublicKey', () => {
  let k: TestKernel;
  beforeAll(async () => {
    k = await startKernel({ logLevel: 'warn' });
  });
  afterAll(async () => {
    await k?.shutdown();
  });

  const keyFrom = (ip: string) => k.app.inject({ method: 'GET', url: '/api/user/getOnePublicKey', remoteAddress: ip, headers: { 'accept-language': 'en-US' } });
  const loginFrom = (ip: string, payload: object) => k.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, payload });
  const keysIssued = async () => Number((await k.database.db.selectFrom('public_keys').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

  it('answers an address that asks for many keys at once with 429 beyond its allowance, and a sign-in from elsewhere goes through', async () => {
    const before = await keysIssued();
    const answers = await Promise.all(Array.from({ length: 60 }, () => keyFrom('10.1.1.1')));
    const served = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(served).toHaveLength(20);
    expect(refused).toHaveLength(40);
    expect(refused[0]!.json()).toMatchObject({ code: 429, msg: expect.stringMatching(/try again in \d+ second/), data: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Only the keys handed out were stored: the refused calls cost no key.
    expect(await keysIssued()).toBe(before + 20);

    const key = (await keyFrom('10.2.2.2')).json().data as string;
    const res = await loginFrom('10.2.2.2', { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' });
    expect(res.json().code).toBe(200);

    // The flooding address gets keys again once its allowance has refilled.
    k.clock.advance(60_000);
    expect((await keyFrom('10.1.1.1')).statusCode).toBe(200);
  });

  it('still opens one sign-in per key', async () => {
    const key = (await keyFrom('10.3.3.3')).json().data as string;
    const payload = { username: 'admin', password: encryptFor(key, ADMIN_PASSWORD), publicKey: key, symbol: '' };
    expect((await loginFrom('10.3.3.3', payload)).json().code).toBe(200);
    // No locale: the console's default language, Chinese.
    expect((await loginFrom('10.3.3.3', payload)).json()).toMatchObject({ code: 304, msg: 'Bad credentials', localizedMsg: '用户名或密码错误' });
  });
});
