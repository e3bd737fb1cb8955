import { useCallback, useContext, useEffect, useState } from 'react';
import { PlatformContext } from './index.js';

/**
 * Per-user choices that should survive a reload: the last language pair of each area (text,
 * documents, pictures, video…) and the library a screen last showed. Kept in localStorage under the
 * user's id so two people sharing a browser do not get each other's pairs.
 */
export interface LanguagePair {
  source: string;
  target: string;
}

const pairKey = (userId: number | string, area: string) => `lp.languagePair.${userId}.${area}`;

/** The stored pair of `area` for `userId`, or null (nothing stored, storage unavailable, or damaged). */
export function readLanguagePair(userId: number | string, area: string): LanguagePair | null {
  try {
    const raw = globalThis.localStorage?.getItem(pairKey(userId, area));
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<LanguagePair>;
    return typeof v.source === 'string' && typeof v.target === 'string' && v.source && v.target ? { source: v.source, target: v.target } : null;
  } catch {
    return null;
  }
}

export function writeLanguagePair(userId: number | string, area: string, pair: LanguagePair): void {
  try {
    globalThis.localStorage?.setItem(pairKey(userId, area), JSON.stringify({ source: pair.source, target: pair.target }));
  } catch {
    // Private mode or a full storage: the pair is simply not remembered.
  }
}

/**
 * The last language pair the signed-in user chose in `area`: `pair` is what was stored when the screen
 * opened (null the first time: the screen keeps its own default), `remember` stores a new choice.
 * A screen checks the stored codes against the languages it offers before using them.
 */
export function useLastLanguagePair(area: string): { pair: LanguagePair | null; remember: (source: string, target: string) => void } {
  const services = useContext(PlatformContext);
  const userId = services?.session?.current?.().user?.id ?? 'anonymous';
  const [pair] = useState(() => readLanguagePair(userId, area));
  const remember = useCallback(
    (source: string, target: string) => {
      if (source && target) writeLanguagePair(userId, area, { source, target });
    },
    [userId, area],
  );
  return { pair, remember };
}

/**
 * A screen's choice kept in the address (`?name=value`), so a reload or a shared link shows the same
 * memory, term base or corpus. Returns the value (null when absent) and a setter that replaces the
 * history entry (no new Back step per click).
 */
export function useQueryParam(name: string): [string | null, (value: string | number | null) => void] {
  const read = () => new URLSearchParams(globalThis.location?.search ?? '').get(name);
  const [value, setValue] = useState<string | null>(read);
  useEffect(() => {
    const onPop = () => setValue(read());
    globalThis.addEventListener?.('popstate', onPop);
    return () => globalThis.removeEventListener?.('popstate', onPop);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name]);
  const set = useCallback(
    (next: string | number | null) => {
      const v = next == null || next === '' ? null : String(next);
      const url = new URL(globalThis.location.href);
      if (v == null) url.searchParams.delete(name);
      else url.searchParams.set(name, v);
      // The router's own state object is kept, so its navigation is not disturbed.
      globalThis.history.replaceState(globalThis.history.state, '', `${url.pathname}${url.search}${url.hash}`);
      setValue(v);
    },
    [name],
  );
  return [value, set];
}
