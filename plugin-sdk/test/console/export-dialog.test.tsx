// @vitest-environment happy-dom
import i18next from 'i18next';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourceExportDialog, type PlatformServices } from '../../src/console/index.js';
import { prepareConsoleTests, renderView, unmountViews, settle } from '../../src/testing/console.js';

beforeAll(() => prepareConsoleTests());

afterEach(async () => {
  unmountViews();
  await i18next.changeLanguage('en-US');
});

const texts = {
  checked: (n: number) => `checked ${n}`,
  all: (n: number) => `all ${n}`,
  noneChecked: (n: number) => `none of ${n} checked`,
  empty: 'nothing here',
};
const q = (testId: string) => document.querySelector(`[data-testid="${testId}"]`) as HTMLElement | null;
// Blueprint puts a Radio's test id on its input.
const flush = settle;

async function open(counts: { checked: number; all: number }) {
  const get = vi.fn(async (url: string) => (url.endsWith('/count') ? counts : new Blob(['x'])));
  const onClose = vi.fn();
  const services = { api: { get }, notify: { error: vi.fn() } } as unknown as PlatformServices;
  await renderView(<ResourceExportDialog url="/TM/export" libraryId={7} format="tmx" fileName="Mem" texts={texts} testIdPrefix="tm" onClose={onClose} />, services);
  await flush();
  return { get, onClose };
}

describe('ResourceExportDialog', () => {
  it('asks the area for both counts and offers checked entries by default', async () => {
    const { get } = await open({ checked: 2, all: 5 });
    expect(get).toHaveBeenCalledWith('/TM/export/count', { params: { libraryId: 7 }, silent: true });
    expect(document.querySelector('.bp6-dialog-header')?.textContent).toContain('Export as TMX');
    expect(q('tm-export-checked')?.closest('label')?.textContent).toBe('checked 2');
    expect(q('tm-export-all')?.closest('label')?.textContent).toBe('all 5');
    expect((q('tm-export-checked')! as HTMLInputElement).checked).toBe(true);
    expect(q('tm-export-empty')).toBeNull();
    expect((q('tm-export-download') as HTMLButtonElement).disabled).toBe(false);
  });

  it('downloads the chosen scope through the area call and closes', async () => {
    const { get, onClose } = await open({ checked: 2, all: 5 });
    URL.createObjectURL ??= () => 'blob:x';
    await act(async () => q('tm-export-all')!.click());
    await act(async () => q('tm-export-download')!.click());
    await flush();
    expect(get).toHaveBeenLastCalledWith('/TM/export', { responseType: 'blob', params: { libraryId: 7, format: 'tmx', scope: 'all' } });
    expect(onClose).toHaveBeenCalled();
  });

  it('switches to all entries when none is checked, and says an empty choice with Download disabled', async () => {
    await open({ checked: 0, all: 3 });
    expect((q('tm-export-all')! as HTMLInputElement).checked).toBe(true);
    await act(async () => q('tm-export-checked')!.click());
    expect(q('tm-export-empty')?.textContent).toBe('none of 3 checked');
    expect((q('tm-export-download') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says a library with nothing in it is empty, with its own texts in Chinese', async () => {
    await i18next.changeLanguage('zh-CN');
    await open({ checked: 0, all: 0 });
    expect(q('tm-export-empty')?.textContent).toBe('nothing here');
    expect((q('tm-export-download') as HTMLButtonElement).disabled).toBe(true);
    expect(document.querySelector('.bp6-dialog-header')?.textContent).toContain('导出为 TMX');
    expect([...document.querySelectorAll('button')].map((b) => b.textContent)).toEqual(expect.arrayContaining(['取消', '下载']));
  });
});
