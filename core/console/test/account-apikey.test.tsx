// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate } from '@linguaport/sdk/shared';
import { KernelContext, type Kernel } from '../src/container.js';
import { createI18n } from '../src/i18n.js';
import { AccountDialog, API_KEY_MASK } from '../src/shell/AccountDialog.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NEXT = '2026-11-24T21:05:00.000Z';

/** A fake kernel: the server holds `state.key` ('' for none) and allows one change, then answers NEXT. */
function fakeKernel(state: { key: string | null; allowed: boolean }, toasts: string[]) {
  const get = async (url: string) => {
    if (url === '/user/getApiKey') return { apiKey: state.key };
    if (url.startsWith('/user/checkUpdateApiKey/')) return state.allowed ? { allowed: true, nextAllowedAt: null } : { allowed: false, nextAllowedAt: NEXT };
    if (url.startsWith('/user/updateApiKey/')) { state.key = 'lp_fresh_key_1234'; state.allowed = false; return state.key; }
    throw new Error(`unexpected ${url}`);
  };
  return {
    http: { get },
    session: { userInfo: { user: { id: 7 } } },
    notifier: { success: (m: string) => toasts.push(m), error: (m: string) => toasts.push(`error: ${m}`), warning: () => {}, info: () => {} },
  } as unknown as Kernel;
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

async function draw(kernel: Kernel, lng: 'en-US' | 'zh-CN' = 'en-US') {
  const i18n = await createI18n(lng);
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () => root!.render(
    <I18nextProvider i18n={i18n}>
      <KernelContext.Provider value={kernel}><AccountDialog tab="apiKey" onTab={() => {}} onClose={() => {}} /></KernelContext.Provider>
    </I18nextProvider>,
  ));
}

const q = <T extends Element = HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`);
async function until(check: () => void, ms = 3000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try { check(); return; } catch (e) { if (Date.now() > deadline) throw e; }
    await act(async () => { await new Promise((r) => setTimeout(r, 10)); });
  }
}
const button = (scope: string, text: string) => Array.from(document.querySelectorAll<HTMLButtonElement>(`${scope} button`)).find((b) => b.textContent === text)!;

describe('API key tab', () => {
  it('says there is no key yet, with a button that creates one after asking', async () => {
    const toasts: string[] = [];
    await draw(fakeKernel({ key: null, allowed: true }, toasts));
    await until(() => expect(q('apikey-none')?.textContent).toContain('No API key yet'));
    expect(q('apikey-value')).toBeNull(); // not sixteen asterisks standing for nothing
    expect(q('apikey-reset')).toBeNull();
    await act(async () => q<HTMLButtonElement>('apikey-create')!.click());
    await until(() => expect(q('apikey-confirm')?.textContent).toContain('Create an API key?'));
    await act(async () => button('.bp6-alert', 'Create API key').click());
    await until(() => expect(q<HTMLInputElement>('apikey-value')?.value).toBe(API_KEY_MASK));
    expect(q('apikey-none')).toBeNull();
    expect(toasts).toContain('Your API key was created');
    // The next change is told in the console's date format.
    await until(() => expect(q('apikey-next')?.textContent).toContain(formatDate(NEXT)));
    expect(q<HTMLButtonElement>('apikey-reset')!.disabled).toBe(true);
  });

  it('copies the key', async () => {
    const toasts: string[] = [];
    let copied = '';
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => { copied = s; } } });
    await draw(fakeKernel({ key: 'lp_existing_key_9', allowed: true }, toasts));
    await until(() => expect(q<HTMLButtonElement>('apikey-copy')!.disabled).toBe(false));
    expect(q<HTMLInputElement>('apikey-value')!.value).toBe(API_KEY_MASK);
    await act(async () => q<HTMLButtonElement>('apikey-copy')!.click());
    await until(() => expect(copied).toBe('lp_existing_key_9'));
    expect(toasts).toContain('API key copied');
    expect(q('apikey-next')).toBeNull();
    expect(q<HTMLButtonElement>('apikey-reset')!.disabled).toBe(false);
  });

  it('says it in Chinese too', async () => {
    await draw(fakeKernel({ key: null, allowed: true }, []), 'zh-CN');
    await until(() => expect(q('apikey-none')?.textContent).toContain('还没有 API 密钥'));
    expect(q('apikey-create')?.textContent).toBe('创建 API 密钥');
  });
});
