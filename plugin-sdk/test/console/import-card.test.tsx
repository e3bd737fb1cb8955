// @vitest-environment happy-dom
import i18next from 'i18next';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourceImportCard, type PlatformServices } from '../../src/console/index.js';
import { prepareConsoleTests, renderView, unmountViews, settle } from '../../src/testing/console.js';

// The import card asks what to do with entries the library already holds (skip by default, overwrite,
// keep both), sends the choice with the files, and shows the report's counts, in either language.

beforeAll(() => prepareConsoleTests());

afterEach(async () => {
  unmountViews();
  await i18next.changeLanguage('en-US');
});

const q = (testId: string) => document.querySelector(`[data-testid="${testId}"]`) as HTMLElement | null;
const flush = settle;

async function open() {
  const post = vi.fn(async (_url: string, _form: FormData) => ({ imported: 2, rejected: 0, rejections: [], duplicates: { mode: 'overwrite', added: 1, skipped: 0, overwritten: 1, keptBoth: 0 } }));
  const services = { api: { post, get: vi.fn() }, notify: { error: vi.fn(), success: vi.fn(), info: vi.fn() } } as unknown as PlatformServices;
  await renderView(<ResourceImportCard url="/TM/import" libraryId={7} accept={['.txt']} languages={[{ value: 'en', label: 'English' }, { value: 'es', label: 'Spanish' }]} defaultLanguages={{ sourceLang: 'en', targetLang: 'es' }} reportText={(r) => `${r.imported} imported`} testIdPrefix="tm" onDone={() => undefined} />, services);
  await flush();
  return { post };
}

async function chooseFile() {
  const input = q('tm-import-files') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [new File(['a\tb\n'], 'm.txt')], configurable: true });
  await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
}

describe('ResourceImportCard duplicates', () => {
  it('skips duplicates by default, sends the choice made, and shows the counts of the report', async () => {
    const { post } = await open();
    expect((q('tm-import-skip') as HTMLInputElement).checked).toBe(true);
    expect(q('tm-import-skip')?.closest('label')?.textContent).toBe('Skip');
    await chooseFile();
    await act(async () => q('tm-import-overwrite')!.click());
    await act(async () => q('tm-import-submit')!.click());
    await flush();
    const form = post.mock.calls[0]![1];
    expect(form.get('duplicates')).toBe('overwrite');
    expect(q('tm-import-duplicate-counts')?.textContent).toBe('1 added, 0 skipped as duplicates, 1 overwritten, 0 kept both');
  });

  it('empties the file input once read, so the same file chosen again for another import is taken', async () => {
    const { post } = await open();
    const input = q('tm-import-files') as HTMLInputElement;
    // A browser fires change only when the input's value changes; the card must clear it after reading.
    const assigned: string[] = [];
    Object.defineProperty(input, 'value', { get: () => '', set: (v: string) => void assigned.push(v), configurable: true });
    await chooseFile();
    expect(assigned).toEqual(['']);
    await act(async () => q('tm-import-submit')!.click());
    await flush();
    await chooseFile();
    await act(async () => q('tm-import-keep-both')!.click());
    await act(async () => q('tm-import-submit')!.click());
    await flush();
    expect(post).toHaveBeenCalledTimes(2);
    expect(post.mock.calls[1]![1].get('duplicates')).toBe('keepBoth');
  });

  it('says the choice and the counts in Chinese', async () => {
    await i18next.changeLanguage('zh-CN');
    await open();
    expect(['tm-import-skip', 'tm-import-overwrite', 'tm-import-keep-both'].map((id) => q(id)?.closest('label')?.textContent)).toEqual(['跳过', '覆盖', '保留两者']);
    await chooseFile();
    await act(async () => q('tm-import-submit')!.click());
    await flush();
    expect(q('tm-import-duplicate-counts')?.textContent).toBe('新增 1 条，跳过重复 0 条，覆盖 1 条，保留两者 0 条');
  });
});
