// @vitest-environment happy-dom
import i18next from 'i18next';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LanguageVariantPicker, preloadUiKit } from '../../src/console/index.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: {}, interpolation: { escapeValue: false } });
  await preloadUiKit();
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

const languages = [
  { value: 'en', label: 'English' },
  { value: 'zh-CN', label: 'Chinese (Simplified)' },
  { value: 'fr', label: 'French' },
];

function render(value: string, onChange: (v: string) => void) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  act(() => root!.render(<LanguageVariantPicker value={value} languages={languages} onChange={onChange} aria-label="Target language" data-testid="picker" />));
}

const setInput = (input: HTMLInputElement, value: string) => {
  // React listens for the native input event with the value set through the prototype's setter.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('LanguageVariantPicker', () => {
  it('splits a tag into an enabled language and its variant, and gives back the case-normalised tag', () => {
    const onChange = vi.fn();
    render('en-GB', onChange);
    const select = document.querySelector('select') as HTMLSelectElement;
    const input = document.querySelector('input') as HTMLInputElement;
    expect(select.value).toBe('en');
    expect(input.value).toBe('GB');
    act(() => setInput(input, 'us'));
    act(() => input.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(onChange).toHaveBeenLastCalledWith('en-US');
    act(() => {
      select.value = 'fr';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(onChange).toHaveBeenLastCalledWith('fr');
  });

  it('keeps a tag whose language is not in the list, with its script and region', () => {
    render('zh-Hans-CN', () => {});
    expect((document.querySelector('select') as HTMLSelectElement).value).toBe('zh');
    expect((document.querySelector('input') as HTMLInputElement).value).toBe('Hans-CN');
  });
});
