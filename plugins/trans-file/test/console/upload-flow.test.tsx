// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformServices } from '@linguaport/sdk/console';
import { until } from '@linguaport/sdk/testing';
import { prepareConsoleTests, renderView, unmountViews } from '@linguaport/sdk/testing/console';
import { PicUploadDialog, type PicSetup } from '../../console/TransPic.js';
import { UploadDialog } from '../../console/UploadDialog.js';
import type { Setup } from '../../console/common.js';
import en from '../../locales/en-US.json';
import zh from '../../locales/zh-CN.json';

// Documents and pictures go through one upload flow (issue 24): files chosen and refused the same way,
// the remembered language pair, the default memory preselected, the kind's own fields sent with them.
beforeAll(() => prepareConsoleTests({ 'en-US': en, 'zh-CN': zh }));
afterEach(() => {
  unmountViews();
  localStorage.clear();
});

const languages = [
  { code: 'en', targets: ['de', 'fr'] },
  { code: 'de', targets: ['en'] },
];
const docSetup: Setup = { languages, defaultSource: 'en', defaultTarget: 'fr', limits: { maxFiles: 3, maxFileMb: 1, queueLength: 500, defaultQuotaMb: 2048 }, formats: [{ id: 'txt', name: 'Text', extensions: ['txt'] }] };
const picSetup: PicSetup = { languages, defaultSource: 'en', defaultTarget: 'fr', limits: { maxFiles: 3, pictureMaxMb: 1, pictureMaxMegapixels: 4 }, formats: [{ id: 'png', name: 'PNG', extensions: ['png'] }] };

function services(post: (url: string, form: FormData) => Promise<unknown>): Partial<PlatformServices> {
  const libraries = (url: string) => (url === '/TM/library/list' ? { records: [{ id: 4, name: 'Default memory', isDefault: true }, { id: 5, name: 'Other', isDefault: false }] } : { records: [] });
  return {
    pluginId: 'trans-file',
    namespaces: ['transFile'],
    api: { get: vi.fn(async (url: string) => (url === '/domain/list' ? [] : libraries(url))), post: vi.fn(post) } as unknown as PlatformServices['api'],
    permissions: { hasRoute: () => true, hasButton: () => true } as unknown as PlatformServices['permissions'],
    notify: { error: vi.fn(), success: vi.fn() } as unknown as PlatformServices['notify'],
  };
}

const byId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
async function choose(input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  await act(async () => void input.dispatchEvent(new Event('change', { bubbles: true })));
}
const file = (name: string, text = 'Hello.') => new File([text], name, { type: 'application/octet-stream' });

describe('one upload flow for documents and pictures', () => {
  it('documents: refuses a wrong file, drops a repeated one, and sends the pair, the default memory and the document options', async () => {
    const sent: Array<{ url: string; form: FormData }> = [];
    const onUploaded = vi.fn();
    await renderView(<UploadDialog isOpen setup={docSetup} onClose={() => {}} onUploaded={onUploaded} />, services(async (url, form) => (sent.push({ url, form }), [{ id: 1 }])));
    const p = '';
    await choose(byId(`${p}file-input`) as HTMLInputElement, [file('a.txt'), file('run.exe')]);
    await choose(byId(`${p}file-input`) as HTMLInputElement, [file('a.txt')]);
    const chosen = byId(`${p}chosen-files`)!;
    expect(chosen.querySelectorAll('li')).toHaveLength(2);
    expect(chosen.textContent).toContain('run.exe: not a supported format');
    expect((byId(`${p}start-upload`) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => (chosen.querySelectorAll('li')[1]!.querySelector('button') as HTMLButtonElement).click());
    await until(() => (byId('memories') ?? document.body).querySelector('input:checked'), { pause: (wait) => act(wait) });
    expect((byId(`${p}source-language`) as HTMLSelectElement).value).toBe('en');
    expect((byId(`${p}target-language`) as HTMLSelectElement).value).toBe('fr');
    await act(async () => byId(`${p}start-upload`)!.click());
    await until(() => onUploaded.mock.calls.length, { pause: (wait) => act(wait) });
    expect(sent).toHaveLength(1);
    const { url, form } = sent[0]!;
    expect(url).toBe('/transFile/upload');
    expect(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))).toEqual({ sourceLang: 'en', targetLang: 'fr', memories: '[4]', termBases: '[]', resultType: 'translated', withPdf: 'false', existingTargets: 'keepUsable' });
    expect(form.getAll('files').map((f) => (f as File).name)).toEqual(['a.txt']);
    expect(JSON.parse(localStorage.getItem('lp.languagePair.anonymous.documents')!)).toEqual({ source: 'en', target: 'fr' });
  });

  it("pictures: start from the user's last picture pair, send only the shared fields, and say when the queue is full", async () => {
    localStorage.setItem('lp.languagePair.anonymous.pictures', JSON.stringify({ source: 'de', target: 'en' }));
    const sent: string[] = [];
    await renderView(<PicUploadDialog isOpen setup={picSetup} onClose={() => {}} onUploaded={() => {}} />, services(async (url, form) => {
      sent.push(url, [...form.keys()].join(','));
      throw { code: 3027, msg: 'full' };
    }));
    const p = 'pic-';
    expect((byId(`${p}source-language`) as HTMLSelectElement).value).toBe('de');
    expect((byId(`${p}target-language`) as HTMLSelectElement).value).toBe('en');
    await choose(byId(`${p}file-input`) as HTMLInputElement, [file('sign.gif'), file('sign.png')]);
    expect(byId(`${p}chosen-files`)!.textContent).toContain('sign.gif: not a supported picture type');
    await act(async () => (byId(`${p}chosen-files`)!.querySelectorAll('li')[0]!.querySelector('button') as HTMLButtonElement).click());
    await until(() => byId(`${p}memories`)?.querySelector('input:checked'), { pause: (wait) => act(wait) });
    await act(async () => byId(`${p}start-upload`)!.click());
    const error = await until(() => byId(`${p}upload-error`)?.textContent, { pause: (wait) => act(wait) });
    expect(error).toBe(en.transFile.queueFull);
    expect(sent).toEqual(['/transPic/upload', 'sourceLang,targetLang,memories,termBases,files']);
  });

  it('neither screen keeps a copy of the flow or of the list around it', () => {
    for (const name of ['UploadDialog.tsx', 'TransPic.tsx']) {
      const source = readFileSync(resolve(import.meta.dirname, '../../console', name), 'utf8');
      expect(source, name).toContain('<FileUploadDialog');
      expect(source, name).not.toMatch(/onDragOver|useLastLanguagePair|onUploadProgress/);
    }
    // The two list screens share the list's calls, the status cell, the upload's opening and the deletion.
    for (const name of ['TransFile.tsx', 'TransPic.tsx']) {
      const source = readFileSync(resolve(import.meta.dirname, '../../console', name), 'utf8');
      for (const shared of ['useFileList(', 'useUploadDialog(', '<FileStatus', '<DeleteFilesDialog']) expect(source, name).toContain(shared);
      expect(source, name).not.toMatch(/<ConfirmDialog|useLiveFiles|setRefreshKey/);
    }
  });
});
