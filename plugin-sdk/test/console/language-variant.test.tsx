// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LanguageVariantPicker } from '../../src/console/index.js';
import { prepareConsoleTests, renderView, unmountViews } from '../../src/testing/console.js';

beforeAll(() => prepareConsoleTests());
afterEach(unmountViews);

const languages = [
  { value: 'en', label: 'English' },
  { value: 'zh-CN', label: 'Chinese (Simplified)' },
  { value: 'fr', label: 'French' },
];

async function render(value: string, onChange: (v: string) => void) {
  await renderView(<LanguageVariantPicker value={value} languages={languages} onChange={onChange} aria-label="Target language" data-testid="picker" />);
}

const setInput = (input: HTMLInputElement, value: string) => {
  // React listens for the native input event with the value set through the prototype's setter.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('LanguageVariantPicker', () => {
  it('splits a tag into an enabled language and its variant, and gives back the case-normalised tag', async () => {
    const onChange = vi.fn();
    await render('en-GB', onChange);
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

  it('keeps a tag whose language is not in the list, with its script and region', async () => {
    await render('zh-Hans-CN', () => {});
    expect((document.querySelector('select') as HTMLSelectElement).value).toBe('zh');
    expect((document.querySelector('input') as HTMLInputElement).value).toBe('Hans-CN');
  });
});
