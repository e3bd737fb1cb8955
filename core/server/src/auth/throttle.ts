import type { Kysely } from 'kysely';

/**
 * Brute-force protection for every password check (password login, directory login, forced
 * password change, checkPassword). Failures are counted per account and per address; a count
 * resets after a quiet period or a successful sign-in of that account.
 *
 * Account: from the 3rd failure each next attempt must wait 2^(n-3) s (1, 2, 4, 8 s);
 *          the 5th failure locks the account for 15 minutes.
 * Address: from the 10th failure a wait of 2^(n-10) s; the 20th failure locks the address
 *          for 15 minutes (an office behind one address must not lock out everyone at once).
 * A count older than 15 minutes (since its last failure, no lock active) starts again at zero.
 */

export interface ThrottlePolicy {
  delayFrom: number;
  lockAt: number;
  lockMs: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = { delayFrom: 3, lockAt: 5, lockMs: 15 * 60_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { delayFrom: 10, lockAt: 20, lockMs: 15 * 60_000 };
export const FAILURE_WINDOW_MS = 15 * 60_000;
const MAX_DELAY_MS = 60_000;

export const accountScope = (username: string) => `user:${username.toLowerCase()}`;
export const addressScope = (ip: string) => `ip:${ip}`;

interface Row {
  scope: string;
  failures: number;
  last_failure_at: Date | string;
  locked_until: Date | string | null;
}

/** Until when further attempts are refused, and why; null when an attempt may go ahead. */
function blockOf(row: Row | undefined, policy: ThrottlePolicy, now: Date): { until: Date; locked: boolean } | null {
  if (!row) return null;
  if (row.locked_until && new Date(row.locked_until) > now) return { until: new Date(row.locked_until), locked: true };
  const last = new Date(row.last_failure_at);
  if (now.getTime() - last.getTime() > FAILURE_WINDOW_MS) return null;
  if (row.failures < policy.delayFrom || row.failures >= policy.lockAt) return null;
  const wait = Math.min(MAX_DELAY_MS, 1000 * 2 ** (row.failures - policy.delayFrom));
  const until = new Date(last.getTime() + wait);
  return until > now ? { until, locked: false } : null;
}

export interface Refusal {
  message: string;
  retryAfterSeconds: number;
}

function policyOf(scope: string): ThrottlePolicy {
  return scope.startsWith('ip:') ? ADDRESS_POLICY : ACCOUNT_POLICY;
}

/** Whether an attempt for these scopes may go ahead now; a refusal says how long to wait. */
export async function checkThrottle(db: Kysely<any>, scopes: string[], now: Date): Promise<Refusal | null> {
  const rows = (await db.selectFrom('login_throttle').selectAll().where('scope', 'in', scopes).execute()) as Row[];
  let worst: { until: Date; locked: boolean; scope: string } | null = null;
  for (const row of rows) {
    const block = blockOf(row, policyOf(row.scope), now);
    if (block && (!worst || block.until > worst.until)) worst = { ...block, scope: row.scope };
  }
  if (!worst) return null;
  const seconds = Math.max(1, Math.ceil((worst.until.getTime() - now.getTime()) / 1000));
  const what = worst.scope.startsWith('ip:') ? 'from this address' : 'for this account';
  const message = worst.locked
    ? `Too many failed sign-ins ${what}: locked for ${Math.ceil(seconds / 60)} more minute(s)`
    : `Too many failed sign-ins ${what}: try again in ${seconds} second(s)`;
  return { message, retryAfterSeconds: seconds };
}

/** Counts one failure against each scope, locking the scope when it reaches its policy's limit. */
export async function recordFailure(db: Kysely<any>, scopes: string[], now: Date): Promise<void> {
  for (const scope of scopes) {
    const policy = policyOf(scope);
    await db.transaction().execute(async (trx) => {
      const row = (await trx.selectFrom('login_throttle').selectAll().where('scope', '=', scope).forUpdate().executeTakeFirst()) as Row | undefined;
      const stillLocked = row?.locked_until && new Date(row.locked_until) > now;
      const fresh = !row || (!stillLocked && (now.getTime() - new Date(row.last_failure_at).getTime() > FAILURE_WINDOW_MS || (row.locked_until !== null && !stillLocked)));
      const failures = fresh ? 1 : row!.failures + 1;
      const locked_until = failures >= policy.lockAt ? new Date(now.getTime() + policy.lockMs) : stillLocked ? row!.locked_until : null;
      if (row) await trx.updateTable('login_throttle').set({ failures, last_failure_at: now, locked_until }).where('scope', '=', scope).execute();
      else await trx.insertInto('login_throttle').values({ scope, failures, last_failure_at: now, locked_until }).execute();
    });
  }
}

/** A successful sign-in clears the account's count (the address keeps its count: it may be trying many accounts). */
export async function recordSuccess(db: Kysely<any>, username: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('scope', '=', accountScope(username)).execute();
}
