// @vitest-environment happy-dom
import i18next from 'i18next';
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfirmDelete, PlatformContext, ResourceEntries, ResourceHistory, ResourceLibraryScreen, preloadUiKit, type PlatformServices, type ResourceEntry, type ResourceLibrary } from '../../src/console/index.js';

// The library screens the memory and term-base areas share: the libraries with their counts and the
// user's default, the entries toolbar with its read-only note, and the review history, each in the
// area's own words (its namespace), calls (its base path) and test ids (its prefix).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const WORDS = {
  title: 'Glossaries',
  historyTitle: 'Glossary history',
  name: 'Name',
  makeDefault: 'Make my default',
  unmakeDefault: 'No longer my default',
  readOnlyShared: 'Shared with you for use only.',
  readOnlyRole: 'Hidden: {{actions}}.',
  right_add: 'adding',
  right_import: 'importing',
  right_edit: 'editing',
  right_delete: 'deleting',
  listSeparator: ', ',
  addEntry: 'Add entry',
  edit: 'Edit',
  pass: 'Pass',
  source: 'Source',
  target: 'Target',
  noEntries: 'No entries',
  status_checked: 'Checked',
  action_pass: 'Passed',
  what: 'What',
  all: 'All',
  noHistory: 'Nothing yet',
  disabled: 'disabled',
};

let root: Root | null = null;
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { gl: WORDS } }, interpolation: { escapeValue: false } });
  await preloadUiKit();
}, 60_000);
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

const q = (sel: string) => document.querySelector(sel) as HTMLElement | null;
const flush = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));
const click = (el: Element | null) => act(async () => void (el as HTMLElement).click());

function services(replies: Record<string, unknown>, buttons: string[]) {
  const api = {
    get: vi.fn(async (url: string) => replies[url] ?? { records: [], total: 0 }),
    post: vi.fn(async () => ({})),
    put: vi.fn(async () => ({})),
    delete: vi.fn(async () => ({})),
  };
  const navigate = vi.fn();
  const value = { api, navigate, notify: { error: vi.fn(), success: vi.fn() }, permissions: { hasButton: (b: string) => buttons.includes(b), hasRoute: () => true }, namespaces: ['gl'], pluginId: 'gl' } as unknown as PlatformServices;
  return { api, navigate, value };
}

async function render(element: ReactElement, value: PlatformServices) {
  const host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () => root!.render(<PlatformContext.Provider value={value}>{element}</PlatformContext.Provider>));
  await flush();
}

const LIBRARIES: ResourceLibrary[] = [
  { id: 1, name: 'Legal', entries: 12, isDefault: true, mayEdit: true },
  { id: 2, name: 'Sales', entries: 0, isDefault: false, mayEdit: false },
];
const texts = { add: 'Add glossary', edit: 'Edit glossary', delete: 'Delete glossary', deleteMessage: (l: ResourceLibrary) => `Delete ${l.name}?`, none: 'No glossaries', noneHelp: 'Create one', noneAsk: 'Ask an administrator' };
const screen = (entries = vi.fn(() => <div data-testid="entries" />)) => (
  <ResourceLibraryScreen base="/GL" area="gl" libraryTestWord="glossary" icon="book" texts={texts} entries={entries} importCard={{ accept: ['.csv'], languages: [], defaultLanguages: { sourceLang: 'en', targetLang: 'de' }, reportText: () => '' }} />
);

describe('ResourceLibraryScreen', () => {
  it('lists the libraries with their counts under the area’s test ids, opens the one in the address, and toggles the default', async () => {
    window.history.replaceState(null, '', '/GL?libraryId=2');
    const { api, navigate, value } = services({ '/GL/library/list': { records: LIBRARIES, total: 2 } }, ['gl:library']);
    const entries = vi.fn(() => <div data-testid="entries" />);
    await render(screen(entries), value);
    expect(q('[data-testid="gl-view"] h1, [data-testid="gl-view"] h2, [data-testid="gl-view"] h3, [data-testid="gl-view"] h4')?.textContent).toBe('Glossaries');
    expect(q('[data-testid="gl-glossary-1"]')?.textContent).toBe('Legal (12)');
    expect(q('[data-testid="gl-glossary-2"]')?.className).toMatch(/active/);
    expect(entries).toHaveBeenLastCalledWith(expect.objectContaining({ id: 2 }), { onChanged: expect.any(Function), outerRefresh: 0 });
    // The chosen library is only shared for use: no edit or delete of it, but it may be made the default.
    expect(q('[data-testid="gl-add-glossary"]')).not.toBeNull();
    expect(document.body.textContent).not.toContain('Edit glossary');
    expect(q('[data-testid="gl-default"]')?.textContent).toBe('Make my default');
    await click(q('[data-testid="gl-default"]'));
    expect(api.put).toHaveBeenCalledWith('/GL/library/default', { id: 2, isDefault: true }, { silent: true });
    await click([...document.querySelectorAll('button')].find((b) => b.textContent === 'Glossary history')!);
    expect(navigate).toHaveBeenCalledWith('/GLHistory?libraryId=2');
  });

  it('says who to ask when there is no library and the role may not create one', async () => {
    const { value } = services({}, []);
    await render(screen(), value);
    expect(document.body.textContent).toContain('No glossaries');
    expect(document.body.textContent).toContain('Ask an administrator');
    expect(q('[data-testid="gl-add-glossary"]')).toBeNull();
    expect(q('[data-testid="entries"]')).toBeNull();
  });
});

interface Row extends ResourceEntry {
  domain: string | null;
}

const entries = (library: ResourceLibrary) => (
  <ResourceEntries<Row>
    base="/GL"
    area="gl"
    library={library}
    onChanged={() => {}}
    outerRefresh={0}
    columns={(c) => [{ key: 'source', title: 'Source' }, c.status]}
    fields={() => [{ name: 'domain', label: 'Domain' }]}
    newEntry={{ sourceLang: 'en', targetLang: 'de' }}
    entryBody={(v) => ({ domain: (v.domain as string) || null })}
    exports={[{ format: 'csv', text: 'CSV', testId: 'gl-export-csv' }]}
  />
);

describe('ResourceEntries', () => {
  it('says why actions are missing: the library shared for use only, or the role’s buttons', async () => {
    const shared = services({}, ['gl:add', 'gl:import', 'gl:edit', 'gl:delete', 'gl:review', 'gl:export']);
    await render(entries(LIBRARIES[1]!), shared.value);
    expect(q('[data-testid="gl-read-only"]')?.textContent).toBe('Shared with you for use only.');
    expect(q('[data-testid="gl-add-entry"]')).toBeNull();
    expect(q('[data-testid="gl-pass"]')).toBeNull();
    expect(q('[data-testid="gl-export-csv"]')).not.toBeNull();
    act(() => root?.unmount());
    document.body.innerHTML = '';

    const role = services({}, ['gl:add', 'gl:review']);
    await render(entries(LIBRARIES[0]!), role.value);
    expect(q('[data-testid="gl-read-only"]')?.textContent).toBe('Hidden: importing, editing, deleting.');
    expect(q('[data-testid="gl-add-entry"]')).not.toBeNull();
    expect(q('[data-testid="gl-edit-entry"]')).toBeNull();
    expect(q('[data-testid="gl-delete-entries"]')).toBeNull();
    // Review works on a selection: nothing selected, nothing to pass.
    expect((q('[data-testid="gl-pass"]') as HTMLButtonElement).disabled).toBe(true);
    expect(q('[data-testid="gl-export-csv"]')).toBeNull();
  });

  it('adds an entry into the library with the area’s own fields beside source and target', async () => {
    const { api, value } = services({}, ['gl:add']);
    await render(entries(LIBRARIES[0]!), value);
    expect(q('[data-testid="gl-read-only"]')).not.toBeNull();
    await click(q('[data-testid="gl-add-entry"]'));
    const type = (id: string, text: string) =>
      act(async () => {
        const el = q(`#field-${id}`) as HTMLInputElement | HTMLTextAreaElement;
        const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
        Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, text);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
    await type('source', 'invoice');
    await type('target', 'Rechnung');
    await type('domain', 'Finance');
    await click(q('[data-testid="form-submit"]'));
    expect(api.post).toHaveBeenCalledWith('/GL/entry/add', { source: 'invoice', target: 'Rechnung', sourceLang: 'en', targetLang: 'de', domain: 'Finance', libraryId: 1, bidirectional: false }, { silent: true });
  });
});

describe('ResourceHistory', () => {
  it('reads the chosen library’s history, filtered by action when the area offers it', async () => {
    const record = { id: 5, entryId: 9, action: 'pass', actorId: 3, actorName: 'Ana', at: '2026-11-28T12:00:00.000Z', before: { source: 'a', target: 'b', status: 'checked', enabled: false, domain: 'x' }, after: null };
    const { api, value } = services({ '/GL/library/list': { records: LIBRARIES, total: 2 }, '/GLHistory/list': { records: [record], total: 1 } }, []);
    await render(<ResourceHistory<Row> base="/GL" area="gl" chooseLabel="Glossary" actionFilter describeExtra={(e) => (e.domain ? `, ${e.domain}` : '')} />, value);
    await flush();
    expect(api.get).toHaveBeenCalledWith('/GLHistory/list', expect.objectContaining({ params: expect.objectContaining({ libraryId: 1 }) }));
    const table = q('[data-testid="gl-history-view"]')!;
    expect(table.textContent).toContain('Passed');
    expect(table.textContent).toContain('Ana');
    expect(table.textContent).toContain('a → b (Checked, disabled, x)');
    const what = q('select[aria-label="What"]') as HTMLSelect;
    await act(async () => {
      what.value = 'pass';
      what.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    expect(api.get).toHaveBeenLastCalledWith('/GLHistory/list', expect.objectContaining({ params: expect.objectContaining({ libraryId: 1, action: 'pass' }) }));
  });
});

describe('ConfirmDelete', () => {
  it('names what goes, deletes through the area’s call, and keeps the dialog open with the error when it fails', async () => {
    const { api, value } = services({}, []);
    const deleted = vi.fn();
    await render(<ConfirmDelete isOpen title="Delete entries" message="They go for good." items={['invoice', 'receipt']} url="/GL/entry/delete" params={{ ids: '4,5' }} onDeleted={deleted} onClose={() => {}} />, value);
    expect(q('[data-testid="confirm-items"]')?.textContent).toBe('invoicereceipt');
    expect(q('[data-testid="confirm-count"]')?.textContent).toContain('2');
    api.delete.mockRejectedValueOnce({ msg: 'Refused' });
    await click(q('[data-testid="confirm-ok"]'));
    expect(deleted).not.toHaveBeenCalled();
    expect(document.body.textContent).toContain('Refused');
    await click(q('[data-testid="confirm-ok"]'));
    expect(api.delete).toHaveBeenLastCalledWith('/GL/entry/delete', { params: { ids: '4,5' }, silent: true });
    expect(deleted).toHaveBeenCalledOnce();
  });
});

describe('the areas on these screens', () => {
  it('hold every word the screens read, in both languages (a plural key counts by its forms)', async () => {
    const { RESOURCE_LIBRARY_WORDS } = await import('../../src/console/ui/library.js');
    for (const area of ['tm', 'term'])
      for (const lng of ['en-US', 'zh-CN']) {
        const ns = JSON.parse(readFileSync(join(process.cwd(), 'plugins', area, 'locales', `${lng}.json`), 'utf8'))[area] as Record<string, string>;
        expect(RESOURCE_LIBRARY_WORDS.filter((k) => !(k in ns) && !(`${k}_other` in ns)), `${area} ${lng}`).toEqual([]);
      }
  });
});

type HTMLSelect = HTMLSelectElement;
