// @vitest-environment happy-dom
import i18next from 'i18next';
import { act, type JSX } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PlatformContext, preloadUiKit, type PlatformServices } from '@linguaport/sdk/console';
import plugin from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The term panel beside a text translation shows every term warning the translation came back with,
// worded in the console's language from its code (issue 22 item 3).
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

const issue = (code: string, severity = 'warning') => ({ hook: 'term', severity, code, message: `raw ${code}`, params: { term: 'printer', target: 'impresora' } });

async function show(lng: string) {
  await i18next.changeLanguage(lng);
  const Panel = (plugin as unknown as { views: Record<string, (p: { props: unknown }) => JSX.Element> }).views.TermsPanel!;
  const services = { api: { post: vi.fn(async () => ({ hits: [] })) }, notify: { error: vi.fn() }, namespaces: ['term'], pluginId: 'term' } as unknown as PlatformServices;
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  const segments = [{ id: '1', issues: [issue('term-not-applied'), issue('term-missing'), issue('term-forbidden'), issue('term-agreement-unchecked', 'info')] }];
  await act(async () => root!.render(<PlatformContext.Provider value={services}><Panel props={{ text: 'The printer.', source: 'en', target: 'es', segments }} /></PlatformContext.Provider>));
  await act(async () => void (await new Promise((r) => setTimeout(r, 0))));
  return [...document.querySelectorAll('[data-testid="term-panel-issue"]')].map((e) => e.textContent);
}

describe('TermsPanel', () => {
  it('shows each term warning of the translation in the console language', async () => {
    const english = await show('en-US');
    expect(english).toHaveLength(4);
    expect(english[0]).toContain('could not be applied');
    expect(english[1]).toBe('The term “printer” should read “impresora” in the translation');
    expect(english[2]).toContain('forbids');
    expect(english.join(' ')).not.toContain('raw ');
    act(() => root?.unmount());
    document.body.innerHTML = '';
    const chinese = await show('zh-CN');
    expect(chinese[0]).toContain('未能应用');
    expect(chinese.join(' ')).not.toContain('raw ');
  });
});
