import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_POLICY } from '../src/auth/throttle.js';
import { createUserWithRole, encryptFor, startKernel, type TestKernel } from './support/kernel.js';

// The sign-in policy of the README: attempts are counted before the password is checked (so a
// burst cannot outrun the count), strangers are slowed down and then asked for the slider puzzle,
// and the owner (from an address where the account signed in before, or with a solved puzzle) is
// never locked out.

let k: TestKernel;
/** One real key pair registered under many names, so a test can seal many attempts without making many pairs. */
let pair: { publicKey: string; privateKeyPem: string };
let sealedCount = 0;

beforeAll(async () => {
  k = await startKernel({ logLevel: 'warn' });
  const made = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  pair = { publicKey: made.publicKey.toString('base64'), privateKeyPem: made.privateKey };
});
afterAll(async () => {
  await k?.shutdown();
});

/** A login payload sealed with a one-time key of its own. */
async function sealed(username: string, password: string, extra: Record<string, string> = {}) {
  const name = `${pair.publicKey}#${++sealedCount}`;
  await k.database.db.insertInto('public_keys').values({ public_key: name, private_key_pem: pair.privateKeyPem, created_at: k.clock.now }).execute();
  return { username, password: encryptFor(pair.publicKey, password), publicKey: name, symbol: '', ...extra };
}

/** Signs in from an English console (the locale cookie): the refusals are checked in their English wording. */
async function loginFrom(ip: string, username: string, password: string, extra: Record<string, string> = {}, locale = 'en-US') {
  const res = await k.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, headers: { cookie: `locale=${locale}` }, payload: await sealed(username, password, extra) });
  return res.json();
}

async function solveSlider(): Promise<string> {
  const puzzle = (await k.call('GET', '/api/captcha/slider')).body.data;
  const row = await k.database.db.selectFrom('slider_captchas').select('x').where('id', '=', puzzle.id).executeTakeFirstOrThrow();
  return (await k.call('POST', '/api/captcha/slider/verify', null, { id: puzzle.id, x: row.x })).body.data.ticket;
}

/** A stranger's wrong guesses, each after the wait the previous one earned, until the account asks for the puzzle. */
async function strangerGuesses(ip: string, username: string) {
  for (let i = 0; i < ACCOUNT_POLICY.challengeFrom; i++) {
    expect((await loginFrom(ip, username, `wrong-${i}`)).msg).toBe('Bad credentials');
    k.clock.advance(61_000);
  }
}

describe('sign-in policy', () => {
  it('evaluates at most the threshold of 60 concurrent wrong attempts, and the right password right after is not evaluated', async () => {
    await createUserWithRole(k, 'burst', 'Burst-pass-1', 'Burst role', []);
    const payloads = await Promise.all(Array.from({ length: 60 }, (_, i) => sealed('burst', `wrong-${i}`)));
    const answers = await Promise.all(payloads.map((payload) => k.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.50.0.1', headers: { cookie: 'locale=en-US' }, payload })));
    const bodies = answers.map((a) => a.json());
    const evaluated = bodies.filter((b) => b.msg === 'Bad credentials').length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(ACCOUNT_POLICY.challengeFrom);
    expect(bodies.filter((b) => b.msg !== 'Bad credentials').every((b) => b.code === 304 && /Too many failed sign-ins for this account/.test(b.msg))).toBe(true);
    expect(answers.every((a) => a.statusCode < 500)).toBe(true);
    // The count the database holds is the number evaluated: refused attempts are not counted.
    const row = await k.database.db.selectFrom('login_throttle').select('failures').where('scope', '=', 'user:burst').executeTakeFirstOrThrow();
    expect(row.failures).toBe(evaluated);
    const right = await loginFrom('10.50.0.1', 'burst', 'Burst-pass-1');
    expect(right.code).toBe(304);
    expect(right.msg).toMatch(/Too many failed sign-ins for this account/);
    // A Chinese console reads the same refusal in Chinese.
    expect((await loginFrom('10.50.0.1', 'burst', 'Burst-pass-1', {}, 'zh-CN')).msg).toMatch(/^该账户登录失败次数过多：/);
  });

  it('asks a stranger for the slider puzzle after 5 failures instead of locking the account', async () => {
    await createUserWithRole(k, 'victim2', 'Victim2-pass-1', 'Victim2 role', []);
    await strangerGuesses('10.60.0.1', 'victim2');
    const refused = await loginFrom('10.60.0.1', 'victim2', 'Victim2-pass-1');
    expect(refused).toMatchObject({ code: 304, msg: expect.stringMatching(/complete the slider puzzle/), data: { challenge: 'slider' } });
  });

  it('lets the owner in from a known address right after a stranger guessed 5 times', async () => {
    await createUserWithRole(k, 'owner', 'Owner-pass-1', 'Owner role', []);
    // The owner's office: a successful sign-in there makes it a known address.
    expect((await loginFrom('10.70.0.1', 'owner', 'Owner-pass-1')).code).toBe(200);
    await strangerGuesses('10.70.0.66', 'owner');
    expect((await loginFrom('10.70.0.66', 'owner', 'Owner-pass-1')).data).toEqual({ challenge: 'slider' });
    // No wait and no puzzle for the owner at the known address.
    expect((await loginFrom('10.70.0.1', 'owner', 'Owner-pass-1')).code).toBe(200);
  });

  it('lets the owner in from a new address with a solved slider puzzle, even while the account is slowed down', async () => {
    await createUserWithRole(k, 'traveller', 'Traveller-pass-1', 'Traveller role', []);
    await strangerGuesses('10.80.0.66', 'traveller');
    // The stranger's last guess was just now: without a puzzle even the owner must wait or solve one.
    expect((await loginFrom('10.80.0.2', 'traveller', 'Traveller-pass-1')).data).toEqual({ challenge: 'slider' });
    const ticket = await solveSlider();
    expect((await loginFrom('10.80.0.2', 'traveller', 'Traveller-pass-1', { ticket })).code).toBe(200);
  });

  it('gives an address its attempt back when the password was right', async () => {
    await createUserWithRole(k, 'regular', 'Regular-pass-1', 'Regular role', []);
    for (let i = 0; i < 12; i++) expect((await loginFrom('10.90.0.1', 'regular', 'Regular-pass-1')).code).toBe(200);
    const row = await k.database.db.selectFrom('login_throttle').select('failures').where('scope', '=', 'ip:10.90.0.1').executeTakeFirstOrThrow();
    expect(row.failures).toBe(0);
  });
});
