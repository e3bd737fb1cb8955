// @vitest-environment happy-dom
import { act, type JSX } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformServices } from '@linguaport/sdk/console';
import { until } from '@linguaport/sdk/testing';
import { prepareConsoleTests, renderView, unmountViews } from '@linguaport/sdk/testing/console';
import plugin from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The view rendered with the platform's services replaced by fakes: what it shows for a page of
// items, and that the add button follows the caller's permission (the server checks it again).
beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(unmountViews);

async function show(buttons: string[]) {
  const View = (plugin as unknown as { views: Record<string, () => JSX.Element> }).views.__PASCAL__!;
  const page = { records: [{ id: 1, name: 'first', createdAt: '2026-01-02T03:04:05.000Z' }], total: 1, pageNum: 1, pageSize: 10 };
  const services = {
    api: { get: vi.fn(async () => page), post: vi.fn() },
    notify: { success: vi.fn(), error: vi.fn() },
    permissions: { hasButton: (key: string) => buttons.includes(key) },
    namespaces: ['__ID__'],
    pluginId: '__ID__',
  } as unknown as PlatformServices;
  await renderView(<View />, services);
  await until(() => document.body.textContent?.includes('first'), { what: 'the first row', pause: (wait) => act(wait) });
}

describe('__PASCAL__ view', () => {
  it('lists the items of a page', async () => {
    await show(['__ID__:view']);
    expect(document.querySelector('[data-testid="__ID__-view"]')?.textContent).toContain('first');
  });

  it('offers adding only with the add key', async () => {
    await show(['__ID__:view']);
    expect(document.querySelector('[data-testid="__ID__-add"]')).toBeNull();
    unmountViews();
    await show(['__ID__:view', '__ID__:add']);
    expect(document.querySelector('[data-testid="__ID__-add"]')?.textContent).toBe('Add an item');
  });
});
