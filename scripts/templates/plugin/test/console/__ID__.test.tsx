// @vitest-environment happy-dom
import i18next from 'i18next';
import { act, type JSX } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PlatformContext, preloadUiKit, type PlatformServices } from '@linguaport/sdk/console';
import { until } from '@linguaport/sdk/testing';
import plugin from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The view rendered with the platform's services replaced by fakes: what it shows for a page of
// items, and that the add button follows the caller's permission (the server checks it again).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let root: Root | null = null;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': en, 'zh-CN': zh }, interpolation: { escapeValue: false } });
  await preloadUiKit();
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

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
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root!.render(<PlatformContext.Provider value={services}><View /></PlatformContext.Provider>));
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
    act(() => root?.unmount());
    document.body.innerHTML = '';
    await show(['__ID__:view', '__ID__:add']);
    expect(document.querySelector('[data-testid="__ID__-add"]')?.textContent).toBe('Add an item');
  });
});
