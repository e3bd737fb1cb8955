// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformContext, rowCalls, useCrudScreen, type ApiClient, type CrudScreen, type Notifier, type PlatformServices } from '../../src/console/index.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Row { id: number; name: string }

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

/** Mounts the hook in a view with platform services whose notifier keeps what it was told. */
async function mount(onReload?: () => void) {
  const toasts: string[] = [];
  const record = (message: string) => void toasts.push(message);
  const notify: Notifier = { success: record, warning: record, info: record, error: record };
  const screen: { current: CrudScreen<Row | 'new', Row[]> | null } = { current: null };
  function View() {
    screen.current = useCrudScreen<Row | 'new', Row[]>({ onReload });
    return null;
  }
  root = createRoot(document.createElement('div'));
  await act(async () => root!.render(<PlatformContext.Provider value={{ notify } as PlatformServices}><View /></PlatformContext.Provider>));
  return { toasts, crud: () => screen.current! };
}

describe('useCrudScreen', () => {
  it('saves what is being edited, then toasts the returned text, closes the dialog and reloads', async () => {
    let reloads = 0;
    const { toasts, crud } = await mount(() => reloads++);
    await act(async () => crud().startEdit({ id: 7, name: 'Sales' }));
    expect(crud().editing).toEqual({ id: 7, name: 'Sales' });
    const saved: Array<Row | 'new'> = [];
    await act(() => crud().save(async (row) => { saved.push(row); return 'Saved'; }));
    expect(saved).toEqual([{ id: 7, name: 'Sales' }]);
    expect(toasts).toEqual(['Saved']);
    expect(crud().editing).toBeNull();
    expect(crud().refreshKey).toBe(1);
    expect(reloads).toBe(1);
  });

  it('keeps the dialog open and does not reload when the save is refused, passing the refusal on', async () => {
    const { toasts, crud } = await mount();
    await act(async () => crud().startEdit('new'));
    const refusal = { code: 400, msg: 'name: taken', status: 400 };
    await act(() => expect(crud().save(() => Promise.reject(refusal))).rejects.toBe(refusal));
    expect(crud().editing).toBe('new');
    expect(toasts).toEqual([]);
    expect(crud().refreshKey).toBe(0);
  });

  it('deletes the rows asked about and closes without a toast when the run returns no text', async () => {
    const { toasts, crud } = await mount();
    await act(async () => crud().askDelete([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]));
    let ids = '';
    await act(() => crud().remove(async (rows) => { ids = rows.map((r) => r.id).join(','); }));
    expect(ids).toBe('1,2');
    expect(crud().deleting).toBeNull();
    expect(toasts).toEqual([]);
    expect(crud().refreshKey).toBe(1);
  });

  it('runs nothing when no dialog is open', async () => {
    const { crud } = await mount();
    let ran = false;
    await act(() => crud().remove(async () => { ran = true; }));
    expect(ran).toBe(false);
    expect(crud().refreshKey).toBe(0);
  });
});

describe('rowCalls', () => {
  it('adds, updates and deletes under one base path with the given options', async () => {
    const sent: unknown[][] = [];
    const api = {
      post: async (...args: unknown[]) => void sent.push(['post', ...args]),
      put: async (...args: unknown[]) => void sent.push(['put', ...args]),
      delete: async (...args: unknown[]) => (sent.push(['delete', ...args]), { deleted: 2 }),
    } as unknown as ApiClient;
    const calls = rowCalls(api, '/role', { silent: true });
    await calls.save(null, { name: 'a' });
    await calls.save(7, { name: 'b' });
    expect(await calls.remove([3, 4])).toEqual({ deleted: 2 });
    expect(sent).toEqual([
      ['post', '/role/add', { name: 'a' }, { silent: true }],
      ['put', '/role/update', { name: 'b', id: 7 }, { silent: true }],
      ['delete', '/role/delete', { silent: true, params: { ids: '3,4' } }],
    ]);
  });
});
