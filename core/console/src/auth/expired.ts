/**
 * Session expiry (code 601) clears session storage and reloads the page (spec 01 section 4), so the
 * login-expired message is carried across the reload by a mark that the login page reads.
 */
export const LOGIN_EXPIRED_KEY = 'lp_loginExpired';

export function markLoginExpired(storage: Pick<Storage, 'setItem'> | null = local()): void {
  storage?.setItem(LOGIN_EXPIRED_KEY, String(Date.now()));
}

/**
 * True within a minute of an expiry. The mark is not taken on reading: a second reload (the open
 * socket and a page call may both meet the 601) must still show the message. Signing in or out
 * removes it.
 */
export function loginExpiredRecently(storage: Pick<Storage, 'getItem'> | null = local(), now = Date.now()): boolean {
  const raw = storage?.getItem(LOGIN_EXPIRED_KEY);
  if (!raw) return false;
  const at = Number(raw);
  return Number.isFinite(at) && now - at >= 0 && now - at < 60_000;
}

export function clearLoginExpired(storage: Pick<Storage, 'removeItem'> | null = local()): void {
  storage?.removeItem(LOGIN_EXPIRED_KEY);
}

function local(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}
