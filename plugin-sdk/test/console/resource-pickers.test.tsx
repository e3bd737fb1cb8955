// @vitest-environment happy-dom
import { act, useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourcePickers, type ChosenResources, type PlatformServices } from '../../src/console/index.js';
import { prepareConsoleTests, renderView, unmountViews, settle } from '../../src/testing/console.js';

// The memories and term bases an upload uses (documents, pictures, recordings): the user's defaults
// come ticked on a new upload, a saved choice is shown as it is, and an area the user does not reach
// is not asked.

let latest: ChosenResources | null = null;

beforeAll(() => prepareConsoleTests());

afterEach(() => {
  unmountViews();
  latest = null;
});

const LISTS: Record<string, { records: Array<{ id: number; name: string; isDefault?: boolean }> }> = {
  '/TM/library/list': { records: [{ id: 1, name: 'Legal', isDefault: true }, { id: 2, name: 'Marketing' }] },
  '/term/library/list': { records: [{ id: 7, name: 'Products', isDefault: true }] },
};

function Host({ initial, preselect }: { initial: ChosenResources; preselect: boolean }) {
  const [value, setValue] = useState(initial);
  latest = value;
  return <ResourcePickers value={value} onChange={setValue} preselectDefaults={preselect} />;
}

async function render(initial: ChosenResources, preselect: boolean, routes = ['/TM', '/term']) {
  const get = vi.fn(async (url: string) => LISTS[url]);
  const services = { api: { get }, notify: { error: vi.fn() }, permissions: { hasRoute: (r: string) => routes.includes(r), hasButton: () => false } } as unknown as PlatformServices;
  await renderView(<Host initial={initial} preselect={preselect} />, services);
  await settle();
  return get;
}

const ticked = (testId: string) => [...document.querySelectorAll(`[data-testid="${testId}"] input`)].map((i) => (i as HTMLInputElement).checked);

describe('ResourcePickers', () => {
  it('ticks the user’s default memories and term bases on a new upload', async () => {
    await render({ memories: [], termBases: [] }, true);
    expect(latest).toEqual({ memories: [1], termBases: [7] });
    expect(ticked('memories')).toEqual([true, false]);
    expect(ticked('term-bases')).toEqual([true]);
    // Unticking the last memory says the defaults are used.
    act(() => (document.querySelector('[data-testid="memories"] input') as HTMLInputElement).click());
    expect(latest!.memories).toEqual([]);
    expect(document.body.textContent).toContain('None chosen: your defaults are used');
  });

  it('shows a saved choice as it is, and asks no area the user does not reach', async () => {
    const get = await render({ memories: [2], termBases: [] }, false, ['/TM']);
    expect(latest).toEqual({ memories: [2], termBases: [] });
    expect(ticked('memories')).toEqual([false, true]);
    expect(document.querySelector('[data-testid="term-bases"]')).toBeNull();
    expect(get).toHaveBeenCalledTimes(1);
  });
});
