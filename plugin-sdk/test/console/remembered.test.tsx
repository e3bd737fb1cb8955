// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformContext, readLanguagePair, useLastLanguagePair, useQueryParam, type PlatformServices } from '../../src/console/index.js';

// Issue 22: defaults that follow the user. The last language pair is kept per user and per area; a
// screen's library is kept in the address.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
beforeEach(() => {
  localStorage.clear();
  history.replaceState(null, '', '/TM');
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

const servicesFor = (userId: number) => ({ session: { current: () => ({ user: { id: userId } }) } }) as unknown as PlatformServices;

async function mount<T>(userId: number, use: () => T): Promise<{ current: T }> {
  const out = {} as { current: T };
  function View() {
    out.current = use();
    return null;
  }
  root = createRoot(document.createElement('div'));
  await act(async () => root!.render(<PlatformContext.Provider value={servicesFor(userId)}><View /></PlatformContext.Provider>));
  return out;
}

describe('useLastLanguagePair', () => {
  it('gives back the pair last chosen by this user in this area only', async () => {
    const first = await mount(7, () => useLastLanguagePair('text'));
    expect(first.current.pair).toBeNull();
    act(() => first.current.remember('es', 'en'));
    act(() => root!.unmount());

    expect((await mount(7, () => useLastLanguagePair('text'))).current.pair).toEqual({ source: 'es', target: 'en' });
    act(() => root!.unmount());
    // Another area, another user: nothing of it.
    expect((await mount(7, () => useLastLanguagePair('documents'))).current.pair).toBeNull();
    act(() => root!.unmount());
    expect((await mount(8, () => useLastLanguagePair('text'))).current.pair).toBeNull();
  });

  it('ignores a damaged entry', () => {
    localStorage.setItem('lp.languagePair.7.text', '{"source":1}');
    expect(readLanguagePair(7, 'text')).toBeNull();
    localStorage.setItem('lp.languagePair.7.text', 'not json');
    expect(readLanguagePair(7, 'text')).toBeNull();
  });
});

describe('useQueryParam', () => {
  it('reads and writes the value in the address, keeping the other parameters', async () => {
    history.replaceState(null, '', '/TM?tab=entries&libraryId=3');
    const hook = await mount(7, () => useQueryParam('libraryId'));
    expect(hook.current[0]).toBe('3');
    act(() => hook.current[1](12));
    expect(hook.current[0]).toBe('12');
    expect(location.pathname + location.search).toBe('/TM?tab=entries&libraryId=12');
    act(() => hook.current[1](null));
    expect(location.search).toBe('?tab=entries');
    expect(hook.current[0]).toBeNull();
  });
});
