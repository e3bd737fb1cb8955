/**
 * The engine-expiry notice's "do not remind me for 3 days" choice (spec 01 sections 4 and 9),
 * kept in localStorage with the date it was made so it survives sign-out and expires by itself.
 */
export const ENGINE_NOTICE_KEY = 'lp_engineNoticeSnoozedAt';
export const SNOOZE_DAYS = 3;
const DAY_MS = 86_400_000;

export interface ExpiringEngine {
  imagesAlias: string;
  /** Days until expiry; zero or less means expired. */
  daysBetween: number;
  expiresAt?: string;
}

export function snoozed(storedAt: string | null, now: Date): boolean {
  if (!storedAt) return false;
  const at = Date.parse(storedAt);
  return Number.isFinite(at) && now.getTime() - at < SNOOZE_DAYS * DAY_MS && at <= now.getTime();
}

export function shouldShowEngineNotice(flagOn: boolean, engines: readonly ExpiringEngine[], storedAt: string | null, now: Date): boolean {
  return flagOn && engines.length > 0 && !snoozed(storedAt, now);
}
