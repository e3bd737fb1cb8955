/**
 * Session expiry (code 601) clears session storage and reloads the page (spec 01 section 4), so the
 * login-expired message is carried across the reload by one mark that the login page reads once.
 */
export const LOGIN_EXPIRED_KEY = 'lp_loginExpired';

export function markLoginExpired(storage: Pick<Storage, 'setItem'> | null = local()): void {
  storage?.setItem(LOGIN_EXPIRED_KEY, String(Date.now()));
}

/** True once after an expiry within the last minute; the mark is removed when read. */
export function takeLoginExpired(storage: Pick<Storage, 'getItem' | 'removeItem'> | null = local(), now = Date.now()): boolean {
  const raw = storage?.getItem(LOGIN_EXPIRED_KEY);
  if (!raw) return false;
  storage!.removeItem(LOGIN_EXPIRED_KEY);
  const at = Number(raw);
  return Number.isFinite(at) && now - at < 60_000;
}

function local(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}
