// @vitest-environment happy-dom
import i18next from 'i18next';
import type { JSX } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformServices } from '@linguaport/sdk/console';
import { prepareConsoleTests, renderView, unmountViews, settle } from '@linguaport/sdk/testing/console';
import plugin from '../../console/index.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// The term panel beside a text translation shows every term warning the translation came back with,
// worded in the console's language from its code (issue 22 item 3).
beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(unmountViews);

const issue = (code: string, severity = 'warning') => ({ hook: 'term', severity, code, message: `raw ${code}`, params: { term: 'printer', target: 'impresora' } });

async function show(lng: string) {
  await i18next.changeLanguage(lng);
  const Panel = (plugin as unknown as { views: Record<string, (p: { props: unknown }) => JSX.Element> }).views.TermsPanel!;
  const services = { api: { post: vi.fn(async () => ({ hits: [] })) }, notify: { error: vi.fn() }, namespaces: ['term'], pluginId: 'term' } as unknown as PlatformServices;
  const segments = [{ id: '1', issues: [issue('term-not-applied'), issue('term-missing'), issue('term-forbidden'), issue('term-agreement-unchecked', 'info')] }];
  await renderView(<Panel props={{ text: 'The printer.', source: 'en', target: 'es', segments }} />, services);
  await settle();
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
    unmountViews();
    const chinese = await show('zh-CN');
    expect(chinese[0]).toContain('未能应用');
    expect(chinese.join(' ')).not.toContain('raw ');
  });
});
