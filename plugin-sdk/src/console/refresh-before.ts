import { useCallback, useSyncExternalStore } from 'react';

/**
 * The refreshBefore rule of spec 01 section 4: while work that must not be interrupted is under
 * way (an upload, a running conversion), drawers and dialogs cannot be closed. The flag lives in
 * session storage under `refreshBefore` (spec 01 section 9) so the host and every plugin read one
 * value; an in-page event keeps all users of the hook in step.
 */
export const REFRESH_BEFORE_KEY = 'refreshBefore';
const EVENT = 'lp:refreshBefore';

function read(): boolean {
  return typeof sessionStorage !== 'undefined' && sessionStorage.getItem(REFRESH_BEFORE_KEY) === 'true';
}

export function setRefreshBefore(value: boolean): void {
  if (typeof sessionStorage === 'undefined') return;
  sessionStorage.setItem(REFRESH_BEFORE_KEY, String(value));
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  window.addEventListener(EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

export interface RefreshBefore {
  /** True while a drawer or dialog must stay open. */
  refreshBefore: boolean;
  setRefreshBefore(value: boolean): void;
  /** Wrap a close handler: it does nothing while refreshBefore is true. */
  guardClose<A extends unknown[]>(close: (...args: A) => void): (...args: A) => void;
}

export function useRefreshBefore(): RefreshBefore {
  const refreshBefore = useSyncExternalStore(subscribe, read, () => false);
  const guardClose = useCallback(
    <A extends unknown[]>(close: (...args: A) => void) =>
      (...args: A) => {
        if (!read()) close(...args);
      },
    [],
  );
  return { refreshBefore, setRefreshBefore, guardClose };
}
