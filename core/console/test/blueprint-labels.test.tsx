// @vitest-environment happy-dom
import { Dialog, Spinner } from '@blueprintjs/core';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import { installBlueprintLabels } from '../src/blueprint-labels.js';
import { createI18n } from '../src/i18n.js';

// Blueprint's own English labels (a dialog's close button, a spinner) read in the console's
// language, for what is on the page, what appears later, and after a language switch.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

it('relabels Blueprint\'s built-in labels in the console language and follows a switch', async () => {
  const i18n = await createI18n('zh-CN');
  installBlueprintLabels(i18n);
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  await act(async () => root.render(<><Spinner /><Dialog isOpen title="x" onClose={() => undefined} /></>));
  const labels = () => [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
  await expect.poll(labels).toEqual(expect.arrayContaining(['加载中', '关闭']));
  expect(labels()).not.toContain('Close');
  expect(labels()).not.toContain('loading');
  await act(async () => void (await i18n.changeLanguage('en-US')));
  await expect.poll(labels).toEqual(expect.arrayContaining(['Loading', 'Close']));
  expect(labels()).not.toContain('关闭');
  act(() => root.unmount());
});
