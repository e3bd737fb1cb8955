// @vitest-environment happy-dom
import { act, type ComponentType } from 'react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type PlatformServices, type ViewProps } from '@linguaport/sdk/console';
import { until, type UntilOptions } from '@linguaport/sdk/testing';
import { prepareConsoleTests, renderView, unmountViews } from '@linguaport/sdk/testing/console';
import plugin from '../../console/index.js';
import en from '../../locales/en-US.json' with { type: 'json' };
import zh from '../../locales/zh-CN.json' with { type: 'json' };

const TransText = plugin.views!.TransText! as ComponentType<ViewProps>;
const ENGLISH = { code: 'en', targets: ['de', 'zh'] };

interface Deferred<T> { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void }
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

/** A fake API: the languages answer when the test says so; translate answers from `onTranslate`. */
function fakeApi(languages: Promise<unknown>, onTranslate: (body: { text: string; source: string; target: string }) => Promise<unknown>): ApiClient {
  const none = () => Promise.reject(new Error('unexpected'));
  return {
    get: ((url: string) => (url === '/transText/languages' ? languages : url === '/transText/history' ? Promise.resolve([]) : none())) as ApiClient['get'],
    post: ((url: string, body: unknown) => (url === '/transText/translate' ? onTranslate(body as { text: string; source: string; target: string }) : none())) as ApiClient['post'],
    put: none as ApiClient['put'],
    delete: none as ApiClient['delete'],
    options: none as ApiClient['options'],
  };
}

beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(unmountViews);

async function draw(api: ApiClient, lng = 'en-US') {
  await i18next.changeLanguage(lng);
  const noop = () => {};
  const services = {
    pluginId: 'trans-text', namespaces: ['transText'], api,
    permissions: { hasButton: () => false, hasRoute: () => true, hasSystemConfig: () => false },
    notify: { success: noop, warning: noop, info: noop, error: noop },
    // No area fills the side panel in these tests.
    slots: { contributions: () => [], Outlet: () => null },
  } as unknown as PlatformServices;
  await renderView(<TransText path="/transText" query={{}} />, services);
}

const q = <T extends Element = HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`);

// Pauses inside act() so React's updates land.
const inAct: UntilOptions = { timeout: 3000, interval: 10, pause: (wait) => act(wait) };

async function type(id: string, value: string) {
  const el = q<HTMLTextAreaElement>(id)!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function choose(id: string, value: string) {
  const el = q<HTMLSelectElement>(id)!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
const click = (id: string) => act(async () => q<HTMLButtonElement>(id)!.click());

describe('text translation explains itself', () => {
  it('shows a loading state until the languages arrive, with Translate off meanwhile', async () => {
    const languages = deferred<unknown>();
    await draw(fakeApi(languages.promise, () => Promise.reject(new Error('no'))));
    expect(q('trans-loading')?.textContent).toContain('Loading the languages');
    expect(q<HTMLButtonElement>('translate')!.disabled).toBe(true);
    await act(async () => languages.resolve({ languages: [ENGLISH], defaultSource: 'en', defaultTarget: 'de', cap: 5000 }));
    await until(() => q('trans-loading') === null, inAct);
    expect(q<HTMLButtonElement>('translate')!.disabled).toBe(false);
    expect(q('no-engine-running')).toBeNull();
  });

  it('says no engine is running, and what to do, when no language is offered', async () => {
    await draw(fakeApi(Promise.resolve({ languages: [], defaultSource: null, defaultTarget: null, cap: 5000 }), () => Promise.reject(new Error('no'))));
    await until(() => q('no-engine-running'), inAct);
    expect(q('no-engine-running')!.textContent).toContain('No translation engine is running');
    expect(q('no-engine-running')!.textContent).toContain('Engines');
    expect(q<HTMLButtonElement>('translate')!.disabled).toBe(true);
  });

  it('says it in Chinese too', async () => {
    await draw(fakeApi(Promise.resolve({ languages: [], defaultSource: null, defaultTarget: null, cap: 5000 }), () => Promise.reject(new Error('no'))), 'zh-CN');
    await until(() => q('no-engine-running')?.textContent?.includes('没有正在运行的翻译引擎'), inAct);
  });

  it('clears the previous error when the text changes', async () => {
    const setup = { languages: [ENGLISH], defaultSource: 'en', defaultTarget: 'de', cap: 5000 };
    await draw(fakeApi(Promise.resolve(setup), () => Promise.reject({ code: 500, msg: 'The engine failed', status: 200 })));
    await until(() => q<HTMLButtonElement>('translate')!.disabled === false, inAct);
    await type('source-text', 'Hello');
    await click('translate');
    await until(() => q('trans-error')?.textContent === 'The engine failed', inAct);
    await type('source-text', 'Hello there');
    expect(q('trans-error')).toBeNull();
  });

  it('marks the previous result stale when the text or a language changes, and fresh again when they match it', async () => {
    const setup = { languages: [ENGLISH], defaultSource: 'en', defaultTarget: 'de', cap: 5000 };
    await draw(fakeApi(Promise.resolve(setup), (b) => Promise.resolve({ id: 1, text: `[${b.target}] ${b.text}`, source: b.source, target: b.target, detected: null })));
    await until(() => q<HTMLButtonElement>('translate')!.disabled === false, inAct);
    await type('source-text', 'Hello');
    await click('translate');
    await until(() => q<HTMLTextAreaElement>('target-text')!.value === '[de] Hello', inAct);
    expect(q('result-stale')).toBeNull();

    await type('source-text', 'Hello world');
    expect(q('result-stale')?.textContent).toContain('Out of date');
    expect(q('target-text')!.dataset.stale).toBe('true');
    expect(q<HTMLTextAreaElement>('target-text')!.value).toBe('[de] Hello'); // kept, only marked

    await type('source-text', 'Hello');
    expect(q('result-stale')).toBeNull();
    await choose('target-language', 'zh');
    expect(q('result-stale')).not.toBeNull();
    await click('translate');
    await until(() => q<HTMLTextAreaElement>('target-text')!.value === '[zh] Hello', inAct);
    expect(q('result-stale')).toBeNull();
  });
});

describe('memories and term bases on text translation', () => {
  const setup = { languages: [ENGLISH], defaultSource: 'en', defaultTarget: 'de', cap: 5000 };
  function apiWithLibraries(sent: unknown[]): ApiClient {
    const none = () => Promise.reject(new Error('unexpected'));
    const lists: Record<string, unknown> = {
      '/transText/languages': setup,
      '/transText/history': [],
      '/TM/library/list': { records: [{ id: 1, name: 'Legal', isDefault: true }, { id: 2, name: 'Other', isDefault: false }], total: 2 },
      '/term/library/list': { records: [{ id: 5, name: 'Glossary', isDefault: true }], total: 1 },
    };
    return {
      get: ((url: string) => (url in lists ? Promise.resolve(lists[url]) : none())) as ApiClient['get'],
      post: ((url: string, body: { text: string; source: string; target: string }) => {
        if (url !== '/transText/translate') return none();
        sent.push(body);
        return Promise.resolve({
          id: sent.length, text: 'Hallo. Welt.', source: 'en', target: 'de', detected: null, characters: 12,
          segments: [
            { id: '1', source: 'Hello. ', target: 'Hallo. ', origin: { kind: 'hook', hook: 'tm', score: 100 }, issues: [] },
            { id: '2', source: 'World.', target: 'Welt.', origin: { kind: 'engine', engineId: 1, nodeId: 1 }, issues: [] },
          ],
        });
      }) as ApiClient['post'],
      put: none as ApiClient['put'],
      delete: none as ApiClient['delete'],
      options: none as ApiClient['options'],
    };
  }

  it('preselects the default memory and term base, sends the choice, and marks the sentence that came from the memory with its score', async () => {
    const sent: unknown[] = [];
    await draw(apiWithLibraries(sent));
    await until(() => q('pick-memories'), inAct);
    const boxes = () => [...q('pick-memories')!.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    await until(() => boxes().map((b) => b.checked).join() === 'true,false', inAct);
    expect(q('pick-term-bases')!.querySelector<HTMLInputElement>('input')!.checked).toBe(true);
    await type('source-text', 'Hello. World.');
    await click('translate');
    await until(() => sent.length === 1, inAct);
    expect(sent[0]).toMatchObject({ resources: { memories: [1], termBases: [5] } });
    await until(() => q('segment-origins'), inAct);
    const rows = [...q('segment-origins')!.querySelectorAll('[data-origin]')].map((r) => r.textContent);
    expect(rows).toEqual(['Memory 100% Hallo.', 'Engine Welt.']);
    // Unticking the memory is no memory at all, not the defaults.
    await act(async () => boxes()[0]!.click());
    await type('source-text', 'Hello. World!');
    await click('translate');
    await until(() => sent.length === 2, inAct);
    expect(sent[1]).toMatchObject({ resources: { memories: [], termBases: [5] } });
  });

  it('says where a sentence came from in Chinese too', async () => {
    await draw(apiWithLibraries([]), 'zh-CN');
    await until(() => q('pick-memories')?.textContent?.includes('记忆库'), inAct);
    await type('source-text', 'Hello. World.');
    await click('translate');
    await until(() => q('segment-origins')?.textContent?.includes('记忆库 100%'), inAct);
  });
});
