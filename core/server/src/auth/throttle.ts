import { sql, type Kysely } from 'kysely';
import type { LocalizedText } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * Brute-force protection for every password check (password login, directory login, forced
 * password change, checkPassword), per account and per address. An attempt is counted before
 * its password is checked, in one atomic statement per scope, so concurrent attempts cannot all
 * slip past: only those the count admits are evaluated. There is no hard lock that an outsider
 * could use against the owner; instead (the "Sign-in policy" section of the README):
 *
 * Account: from the 3rd failed attempt each next one waits 2^(n-3) s (1, 2, 4 ... at most 60 s);
 *          from the 5th, an attempt needs a solved slider puzzle.
 * Address: from the 10th, a wait of 2^(n-10) s; from the 20th, a solved slider puzzle.
 * The account's rule does not apply to an attempt from an address where that account signed in
 * before (a known address) or to one that carries a solved puzzle; a solved puzzle also lets an
 * attempt past the address's rule. A success clears the account's count and takes back its
 * attempt from the address's count. A count older than 15 minutes (since its last attempt)
 * starts again at zero.
 */

export interface ThrottlePolicy {
  /** From this many counted failures, each next attempt waits 2^(n-delayFrom) s after the last. */
  delayFrom: number;
  /** From this many, an attempt needs a solved slider puzzle. */
  challengeFrom: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { delayFrom: 3, challengeFrom: 5 };
export const ADDRESS_POLICY: ThrottlePolicy = { delayFrom: 10, challengeFrom: 20 };
export const FAILURE_WINDOW_MS = 15 * 60_000;
const MAX_DELAY_S = 60;
/** An address stays known to an account for this long after its last successful sign-in there. */
export const KNOWN_ADDRESS_MS = 90 * 86_400_000;

export const accountScope = (username: string) => `user:${username.toLowerCase()}`;
export const addressScope = (ip: string) => `ip:${ip}`;

interface Row {
  scope: string;
  failures: number;
  last_failure_at: Date | string;
}

export interface Refusal {
  message: LocalizedText;
  retryAfterSeconds?: number;
  /** Set when only a solved slider puzzle lets the next attempt through. */
  challenge?: 'slider';
}

export interface Attempt {
  username: string;
  ip: string;
  at: Date;
  /** The attempt carries a slider ticket that was valid (and is now used up). */
  solved: boolean;
}

/** Why a scope's row does not admit an attempt now (mirrors the admission test in `reserve`). */
function refusalOf(row: Row, policy: ThrottlePolicy, now: Date): Refusal {
  const ip = row.scope.startsWith('ip:');
  const what = ip ? 'from this address' : 'for this account';
  const whatZh = ip ? '该地址' : '该账户';
  if (row.failures >= policy.challengeFrom) {
    return { message: { 'zh-CN': `${whatZh}登录失败次数过多：请完成滑块验证后再试`, 'en-US': `Too many failed sign-ins ${what}: complete the slider puzzle to try again` }, challenge: 'slider' };
  }
  const wait = Math.min(MAX_DELAY_S, 2 ** (row.failures - policy.delayFrom)) * 1000;
  const seconds = Math.max(1, Math.ceil((new Date(row.last_failure_at).getTime() + wait - now.getTime()) / 1000));
  return { message: { 'zh-CN': `${whatZh}登录失败次数过多：请在 ${seconds} 秒后再试`, 'en-US': `Too many failed sign-ins ${what}: try again in ${seconds} second(s)` }, retryAfterSeconds: seconds };
}

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message['en-US']);
  }
}

/**
 * Counts one attempt against a scope if the scope admits it now (or `bypass`), in one statement:
 * the row lock of the upsert orders concurrent attempts, and each sees the count of those before it.
 */
async function reserve(db: Kysely<KernelTables>, scope: string, policy: ThrottlePolicy, now: Date, bypass: boolean): Promise<boolean> {
  const windowStart = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const { rows } = await sql<{ failures: number }>`
    insert into login_throttle as t (scope, failures, last_failure_at, locked_until) values (${scope}, 1, ${now}, null)
    on conflict (scope) do update set
      failures = case when t.last_failure_at < ${windowStart} then 1 else t.failures + 1 end,
      last_failure_at = ${now},
      locked_until = null
    where t.last_failure_at < ${windowStart}
      or ${bypass}::boolean
      or (t.failures < ${policy.challengeFrom}::int
        and (t.failures < ${policy.delayFrom}::int
          or ${now}::timestamptz >= t.last_failure_at + make_interval(secs => least(${MAX_DELAY_S}::int, power(2, t.failures - ${policy.delayFrom}::int)))))
    returning failures`.execute(db);
  return rows.length > 0;
}

/** Whether the account has signed in from this address within KNOWN_ADDRESS_MS. */
export async function isKnownAddress(db: Kysely<KernelTables>, username: string, ip: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('login_known_addresses as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select('k.user_id')
    .where('u.username', '=', username)
    .where('k.address', '=', ip)
    .where('k.last_success_at', '>', new Date(now.getTime() - KNOWN_ADDRESS_MS))
    .executeTakeFirst();
  return !!row;
}

/**
 * Counts the attempt against its address and its account before the password is checked; a
 * refusal (nothing counted) when the attempt may not be evaluated now.
 */
export async function admitAttempt(db: Kysely<KernelTables>, attempt: Attempt): Promise<Refusal | null> {
  const known = await isKnownAddress(db, attempt.username, attempt.ip, attempt.at);
  const scopes: Array<[string, ThrottlePolicy, boolean]> = [
    [addressScope(attempt.ip), ADDRESS_POLICY, attempt.solved],
    // The owner at a known address, or whoever solved the puzzle, is counted but never held back by the account's count.
    [accountScope(attempt.username), ACCOUNT_POLICY, attempt.solved || known],
  ];
  try {
    await db.transaction().execute(async (trx) => {
      for (const [scope, policy, bypass] of scopes) {
        if (await reserve(trx, scope, policy, attempt.at, bypass)) continue;
        const row = (await trx.selectFrom('login_throttle').select(['scope', 'failures', 'last_failure_at']).where('scope', '=', scope).executeTakeFirstOrThrow()) as Row;
        throw new Refused(refusalOf(row, policy, attempt.at));
      }
    });
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}

/**
 * The password was right: the account's count is cleared, the address gets its attempt back, and
 * (when the user is known) the address becomes a known address of the account.
 */
export async function recordSuccess(db: Kysely<KernelTables>, username: string, ip: string, at: Date, userId?: number): Promise<void> {
  await db.deleteFrom('login_throttle').where('scope', '=', accountScope(username)).execute();
  await db
    .updateTable('login_throttle')
    .set({ failures: sql`greatest(failures - 1, 0)` })
    .where('scope', '=', addressScope(ip))
    .execute();
  if (userId !== undefined) {
    await db
      .insertInto('login_known_addresses')
      .values({ user_id: userId, address: ip, last_success_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_success_at: at }))
      .execute();
  }
}
