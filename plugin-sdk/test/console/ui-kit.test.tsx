// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, FormDialog, PageHeader, PagedTable, UploadButton, type PageQuery } from '../../src/console/index.js';
import { placeServerMessage } from '../../src/console/ui/FormDialog.js';
import { prepareConsoleTests, renderView, unmountViews, settle } from '../../src/testing/console.js';
import { z } from '../../src/shared/index.js';
import { emailSchema } from '../../src/shared/checks.js';

beforeAll(() => prepareConsoleTests());

afterEach(unmountViews);

async function render(element: React.ReactElement) {
  await renderView(element);
}
const flush = settle;
const q = (sel: string) => document.querySelector(sel) as HTMLElement | null;
const click = (el: Element | null) => act(async () => { (el as HTMLElement).click(); });

describe('PagedTable', () => {
  const people = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `p${String(i + 1).padStart(2, '0')}` }));
  function server(calls: PageQuery[]) {
    return async (query: PageQuery) => {
      calls.push(query);
      const sorted = query.sortBy === 'name' && query.sortOrder === 'desc' ? [...people].reverse() : people;
      return { rows: sorted.slice((query.page - 1) * query.pageSize, query.page * query.pageSize), total: people.length };
    };
  }

  it('asks the server for one page at a time, renders a test id per row and pages forward', async () => {
    const calls: PageQuery[] = [];
    await render(<PagedTable columns={[{ key: 'name', title: 'Name', sortable: true }]} rowKey={(r) => r.id} load={server(calls)} />);
    await flush();
    expect(calls[0]).toEqual({ page: 1, pageSize: 10 });
    expect(q('[data-testid="row-1"]')?.textContent).toBe('p01');
    expect(document.querySelectorAll('tbody tr')).toHaveLength(10);
    expect(q('[data-testid="row-total"]')?.textContent).toBe('25 in total');
    await click([...document.querySelectorAll('button')].find((b) => b.textContent === 'Next')!);
    await flush();
    expect(calls.at(-1)).toEqual({ page: 2, pageSize: 10 });
    expect(q('[data-testid="row-11"]')).not.toBeNull();
    expect(q('[data-testid="row-page"]')?.textContent).toBe('Page 2 of 3');
  });

  it('sorts through the server: ascending, then descending, back on page 1', async () => {
    const calls: PageQuery[] = [];
    await render(<PagedTable columns={[{ key: 'name', title: 'Name', sortable: true }]} rowKey={(r) => r.id} load={server(calls)} />);
    await flush();
    await click(q('[data-testid="row-sort-name"]'));
    await flush();
    expect(calls.at(-1)).toMatchObject({ page: 1, sortBy: 'name', sortOrder: 'asc' });
    await click(q('[data-testid="row-sort-name"]'));
    await flush();
    expect(calls.at(-1)).toMatchObject({ sortBy: 'name', sortOrder: 'desc' });
    expect(q('tbody tr td')?.textContent).toBe('p25');
  });

  it('reports the selected rows for bulk actions and shows the empty state', async () => {
    const picked = vi.fn();
    await render(<PagedTable selectable onSelectionChange={picked} columns={[{ key: 'name', title: 'Name' }]} rowKey={(r: { id: number }) => r.id} load={server([])} />);
    await flush();
    await click(q('input[aria-label="select-all"]'));
    expect(picked.mock.calls.at(-1)![0]).toHaveLength(10);
    unmountViews();
    await render(<PagedTable columns={[{ key: 'name', title: 'Name' }]} rowKey={(r: { id: number }) => r.id} load={async () => ({ rows: [], total: 0 })} />);
    await flush();
    expect(q('[data-testid="row-empty"]')?.textContent).toContain('No data');
  });
});

describe('FormDialog', () => {
  const schema = z.object({ name: z.string().min(1, 'validation.required'), email: emailSchema });

  it('shows each zod issue beside its field in the current language and does not submit', async () => {
    const submit = vi.fn();
    await render(<FormDialog isOpen title="T" fields={[{ name: 'name', label: 'Name' }, { name: 'email', label: 'Email' }]} schema={schema} initialValues={{ name: '', email: 'bad' }} onSubmit={submit} onClose={() => {}} />);
    await click(q('[data-testid="form-submit"]'));
    expect(q('[data-testid="error-name"]')?.textContent).toBe('This field is required');
    expect(q('[data-testid="error-email"]')?.textContent).toBe('Enter a valid email address');
    expect(submit).not.toHaveBeenCalled();
    expect((q('.bp6-dialog') as HTMLElement).style.width).toBe('600px');
  });

  it('places a server 400 naming a field beside it, and shows any other message above the form', async () => {
    let reply = { code: 400, msg: 'username: This user name is already taken', status: 400 };
    await render(<FormDialog isOpen title="T" fields={[{ name: 'username', label: 'User' }]} initialValues={{ username: 'x' }} onSubmit={() => Promise.reject(reply)} onClose={() => {}} />);
    await click(q('[data-testid="form-submit"]'));
    expect(q('[data-testid="error-username"]')?.textContent).toBe('This user name is already taken');
    reply = { code: 500, msg: 'Server broke', status: 500 };
    await click(q('[data-testid="form-submit"]'));
    expect(q('[data-testid="form-server-error"]')?.textContent).toBe('Server broke');
  });

  it('maps the kernel 400 format onto fields and refuses to when a part names no field', () => {
    const fields = [{ name: 'email', label: 'E' }, { name: 'name', label: 'N' }];
    expect(placeServerMessage('Invalid request: body.email: validation.email; body.name: validation.required', fields)).toEqual({ email: 'validation.email', name: 'validation.required' });
    expect(placeServerMessage('Invalid request: body.other: x', fields)).toBeNull();
    expect(placeServerMessage('Something failed', fields)).toBeNull();
  });

  it('puts every label and field in one grid (one label column, one left edge) at the width asked for', async () => {
    await render(<FormDialog isOpen title="T" width={420} fields={[{ name: 'a', label: 'Short' }, { name: 'b', label: 'A much longer label', required: true }, { name: 'c', label: 'Notes', type: 'textarea' }]} onSubmit={async () => {}} onClose={() => {}} />);
    const grid = q('[data-testid="form-fields"]')!;
    expect(grid.classList.contains('lp-form-grid')).toBe(true);
    expect(grid.closest('form')?.classList.contains('lp-form')).toBe(true);
    // Each field is a label then its control, directly in the grid's form groups (the host's CSS places them).
    const groups = [...grid.children];
    expect(groups).toHaveLength(3);
    for (const [i, g] of groups.entries()) {
      expect(g.classList.contains('bp6-form-group')).toBe(true);
      expect([...g.children].map((c) => c.tagName.toLowerCase() + (c.classList.contains('lp-form-control') ? '.control' : ''))).toEqual(['label', 'div.control']);
      expect(g.querySelector('label')?.getAttribute('for')).toBe(`field-${'abc'[i]}`);
    }
    expect((q('.bp6-dialog') as HTMLElement).style.width).toBe('420px');
  });

  it('does not close on a click outside', async () => {
    const close = vi.fn();
    await render(<FormDialog isOpen title="T" fields={[]} onSubmit={async () => {}} onClose={close} />);
    await click(q('.bp6-overlay-backdrop'));
    expect(close).not.toHaveBeenCalled();
  });
});

describe('ConfirmDialog', () => {
  it('states what is removed and how many rows, lists them, and ignores outside clicks', async () => {
    const close = vi.fn();
    const confirm = vi.fn(async () => {});
    await render(<ConfirmDialog isOpen title="Delete" message="Deletes the users" count={3} items={['a', 'b', 'c']} onConfirm={confirm} onClose={close} />);
    expect(q('[data-testid="confirm-message"]')?.textContent).toBe('Deletes the users');
    expect(q('[data-testid="confirm-count"]')?.textContent).toBe('This affects 3 record(s).');
    expect(q('[data-testid="confirm-items"]')?.textContent).toBe('abc');
    await click(q('.bp6-overlay-backdrop'));
    expect(close).not.toHaveBeenCalled();
    await click(q('[data-testid="confirm-ok"]'));
    expect(confirm).toHaveBeenCalledOnce();
  });
});

describe('UploadButton', () => {
  it('refuses a file of another type or above the size limit before uploading', async () => {
    const upload = vi.fn(async () => {});
    await render(<UploadButton accept={['.xls']} maxSizeMb={1} onUpload={upload} />);
    const input = q('[data-testid="upload-input"]') as HTMLInputElement;
    const pick = (file: File) => act(async () => {
      Object.defineProperty(input, 'files', { value: [file], configurable: true });
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await pick(new File(['x'], 'users.xlsx'));
    expect(q('[data-testid="upload-refusal"]')?.textContent).toBe('Only .xls files can be uploaded');
    await pick(new File([new Uint8Array(2 * 1024 * 1024)], 'users.xls'));
    expect(q('[data-testid="upload-refusal"]')?.textContent).toBe('The file must not exceed 1 MB');
    expect(upload).not.toHaveBeenCalled();
    await pick(new File(['x'], 'USERS.XLS'));
    expect(upload).toHaveBeenCalledOnce();
  });
});

describe('PageHeader', () => {
  it('names the page in one heading, with subtitle, description and actions when given', async () => {
    await render(<PageHeader title="Users" subtitle="12 in total" description="Everyone who can sign in." actions={<button data-testid="add">Add</button>} />);
    const header = q('[data-testid="page-header"]')!;
    expect(header.tagName).toBe('HEADER');
    const headings = document.querySelectorAll('h1, h2, h3, h4, h5, h6');
    expect(headings).toHaveLength(1);
    expect(headings[0]!.tagName).toBe('H2');
    expect(headings[0]!.textContent).toBe('Users');
    expect(q('[data-testid="page-header-subtitle"]')?.textContent).toBe('12 in total');
    expect(q('[data-testid="page-header-description"]')?.textContent).toBe('Everyone who can sign in.');
    // The actions sit after the text, in their own box (on the right).
    expect(q('[data-testid="page-header-actions"]')?.contains(q('[data-testid="add"]'))).toBe(true);
    expect(header.lastElementChild).toBe(q('[data-testid="page-header-actions"]'));
  });

  it('leaves out what is not given, takes another level and test id', async () => {
    await render(<PageHeader title="Roles" level={1} testId="role-header" />);
    expect(q('h1[data-testid="role-header-title"]')?.textContent).toBe('Roles');
    expect(document.querySelectorAll('h2')).toHaveLength(0);
    expect(q('[data-testid="role-header-subtitle"]')).toBeNull();
    expect(q('[data-testid="role-header-description"]')).toBeNull();
    expect(q('[data-testid="role-header-actions"]')).toBeNull();
  });
});
