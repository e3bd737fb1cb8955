// @vitest-environment happy-dom
import { act, createElement, type ComponentType } from 'react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type PlatformServices, type ViewProps } from '@linguaport/sdk/console';
import { until, type UntilOptions } from '@linguaport/sdk/testing';
import { prepareConsoleTests, renderView, unmountViews } from '@linguaport/sdk/testing/console';
import plugin, { replaceSegment, type TransTextPanelProps } from '../../console/index.js';
import en from '../../locales/en-US.json' with { type: 'json' };
import zh from '../../locales/zh-CN.json' with { type: 'json' };

/**
 * A fuzzy match inserted from the side panel (issue 22 item 1) replaces its sentence in the result and
 * keeps what lay between the sentences: the server's segments do not hold the spaces and line breaks
 * between sentences (they travel in the text only), and joining the segments again lost them
 * ("...sofá rojo.Envíe..." in Chromium).
 */

const TransText = plugin.views!.TransText! as ComponentType<ViewProps>;
const inAct: UntilOptions = { timeout: 3000, interval: 10, pause: (wait) => act(wait) };
const q = <T extends Element = HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`);

beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(unmountViews);

/** The text translation page with a side panel whose button inserts `value` into segment `segmentId`, as the memory panel does. */
async function draw(answer: unknown, segmentId: string, value: string) {
  const none = () => Promise.reject(new Error('unexpected'));
  const api = {
    get: ((url: string) => (url === '/transText/languages' ? Promise.resolve({ languages: [{ code: 'en', targets: ['es'] }], defaultSource: 'en', defaultTarget: 'es', cap: 5000 }) : url === '/transText/history' ? Promise.resolve([]) : none())) as ApiClient['get'],
    post: ((url: string) => (url === '/transText/translate' ? Promise.resolve(answer) : none())) as ApiClient['post'],
    put: none as ApiClient['put'],
    delete: none as ApiClient['delete'],
    options: none as ApiClient['options'],
  } as ApiClient;
  const Outlet = ({ name, props }: { name: string; props: TransTextPanelProps }) =>
    name === 'transText.sidePanel' ? createElement('button', { 'data-testid': 'panel-insert', onClick: () => props.onInsert!(segmentId, value, { kind: 'hook', hook: 'tm', score: 87 }) }) : null;
  await i18next.changeLanguage('en-US');
  const noop = () => {};
  const services = {
    pluginId: 'trans-text', namespaces: ['transText'], api,
    permissions: { hasButton: () => false, hasRoute: () => false, hasSystemConfig: () => false },
    notify: { success: noop, warning: noop, info: noop, error: noop },
    slots: { contributions: () => [], Outlet },
  } as unknown as PlatformServices;
  await renderView(<TransText path="/transText" query={{}} />, services);
  await until(() => q<HTMLButtonElement>('translate')?.disabled === false, inAct);
  const source = q<HTMLTextAreaElement>('source-text')!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(source, 'whatever the user typed');
    source.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await act(async () => q<HTMLButtonElement>('translate')!.click());
  await until(() => q('panel-insert'), inAct);
  await act(async () => q<HTMLButtonElement>('panel-insert')!.click());
  return q<HTMLTextAreaElement>('target-text')!.value;
}

// What the server answers: the sentences without what lies between them, which is in the text only.
const segment = (id: string, source: string, target: string) => ({ id, source, target, origin: { kind: 'engine' }, issues: [] });

describe('inserting a fuzzy match into the text translation result', () => {
  it('replaces the sentence and keeps the space before it', async () => {
    const answer = { id: 1, text: 'El gato duerme. Envíe el contrato el viernes.', source: 'en', target: 'es', detected: null, segments: [segment('1', 'The cat sleeps.', 'El gato duerme.'), segment('2', 'Send the contract on Friday.', 'Envíe el contrato el viernes.')] };
    expect(await draw(answer, '2', 'Envíe el contrato el lunes.')).toBe('El gato duerme. Envíe el contrato el lunes.');
    // The sentence is now marked as the memory's, with the match's score.
    expect([...q('segment-origins')!.querySelectorAll('[data-origin]')].map((r) => r.textContent)).toEqual(['Engine El gato duerme.', 'Memory 87% Envíe el contrato el lunes.']);
  });

  it('keeps line breaks and the sentences around the one replaced', async () => {
    const answer = { id: 1, text: 'Uno.\n\nDos.  Tres.', source: 'en', target: 'es', detected: null, segments: [segment('1', 'One.', 'Uno.'), segment('2', 'Two.', 'Dos.'), segment('3', 'Three.', 'Tres.')] };
    expect(await draw(answer, '2', '  Dos y medio. ')).toBe('Uno.\n\nDos y medio.  Tres.');
  });
});

describe('replaceSegment', () => {
  const segments = [{ id: '1', target: 'Sí.' }, { id: '2', target: 'Sí.' }, { id: '3', target: 'No.' }];
  it('finds a repeated translation at its own place', () => {
    expect(replaceSegment('Sí. Sí.\nNo.', segments, '2', 'Claro.')).toBe('Sí. Claro.\nNo.');
    expect(replaceSegment('Sí. Sí.\nNo.', segments, '1', 'Claro.')).toBe('Claro. Sí.\nNo.');
  });
  it('falls back to the segments when the text no longer holds them (edited by hand)', () => {
    expect(replaceSegment('Otra cosa', segments, '3', 'Nunca.')).toBe('Sí.Sí.Nunca.');
  });
});
