import { expect, test, type Locator } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * The SDK's virtualised grid on a memory of 3,000 entries (imported as a generated TMX through the
 * API): the page holds only a window of rows, the end of the list loads when scrolled to, the
 * keyboard moves the selection, and editing and deleting a row still work.
 */
const ENTRIES = 3000;
const pad = (n: number) => String(n).padStart(5, '0');

function tmx(count: number): string {
  const units: string[] = [];
  for (let i = 1; i <= count; i++) units.push(`<tu><tuv xml:lang="en"><seg>Grid row ${pad(i)} source</seg></tuv><tuv xml:lang="es"><seg>Fila ${pad(i)} destino</seg></tuv></tu>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="e2e" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body>\n${units.join('\n')}\n</body></tmx>`;
}

/** Distinct rows the grid has in the DOM. */
const rowsInDom = (grid: Locator) => grid.evaluate((el) => new Set([...el.querySelectorAll('[data-row]')].map((c) => c.getAttribute('data-row'))).size);

test('a memory of thousands of entries scrolls in a virtualised grid, with keyboard selection, edit and delete', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await Api.signIn();
  const name = unique('Grid memory ');
  await admin.call('POST', '/TM/library/add', { name, ownership: 'department', kind: 'shared', users: [], isDefault: false });
  const memories = await admin.call<{ records: { id: number; name: string }[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200');
  const memoryId = memories.records.find((m) => m.name === name)!.id;
  const form = new FormData();
  form.set('libraryId', String(memoryId));
  form.set('sourceLang', 'en');
  form.set('targetLang', 'es');
  form.append('files', new Blob([tmx(ENTRIES)], { type: 'application/xml' }), 'grid.tmx');
  const res = await fetch(`${baseUrl()}/api/TM/import`, { method: 'POST', headers: { Jwt: admin.token, 'Accept-Language': 'en-US' }, body: form });
  const imported = (await res.json()) as { code: number; data: { imported: number } };
  expect(imported.code).toBe(200);
  expect(imported.data.imported).toBe(ENTRIES);

  await signIn(page);
  await page.goto(`${baseUrl()}/TM`);
  await page.getByTestId(`tm-memory-${memoryId}`).click();
  const grid = page.getByTestId('tm-entry-table');
  await expect(grid).toHaveAttribute('data-total', String(ENTRIES));
  // Newest first: the last unit of the file heads the list.
  await expect(grid).toContainText(`Grid row ${pad(ENTRIES)} source`);
  const first = await rowsInDom(grid);
  expect(first).toBeGreaterThan(5);
  expect(first).toBeLessThan(80);

  // A column widens by dragging its header's edge.
  const width = () => grid.locator('.bp6-table-quadrant-main [data-row="0"]').first().evaluate((el) => el.closest('.bp6-table-cell')!.getBoundingClientRect().width);
  const before = await width();
  const edge = (await grid.locator('.bp6-table-quadrant-top .bp6-table-resize-handle-target.bp6-table-resize-vertical').first().boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + 120, edge.y + edge.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect.poll(width).toBeGreaterThan(before + 80);

  // Keyboard: a click selects a row, the arrows, Page Down, End and Home move the selection.
  await grid.locator('[data-row="0"]').first().click();
  await expect(grid).toHaveAttribute('data-cursor', '0');
  await page.keyboard.press('ArrowDown');
  await expect(grid).toHaveAttribute('data-cursor', '1');
  await expect(grid.locator('[data-row="1"][aria-selected="true"]').first()).toBeVisible();
  await page.keyboard.press('PageDown');
  await expect.poll(async () => Number(await grid.getAttribute('data-cursor'))).toBeGreaterThan(5);
  await page.keyboard.press('End');
  await expect(grid).toHaveAttribute('data-cursor', String(ENTRIES - 1));
  // The end of the list was loaded when scrolled to, and the DOM still holds a window only.
  await expect(grid.locator(`[data-row="${ENTRIES - 1}"]`).first()).toHaveText('Grid row 00001 source');
  expect(await rowsInDom(grid)).toBeLessThan(80);
  await page.keyboard.press('Home');
  await expect(grid).toHaveAttribute('data-cursor', '0');
  await expect(grid.locator('[data-row="0"]').first()).toBeVisible();

  // Enter opens the selected row for editing; the grid shows the new text.
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('#field-source')).toHaveValue(`Grid row ${pad(ENTRIES)} source`);
  await dialog.locator('#field-source').fill('Edited in the grid');
  await dialog.getByTestId('form-submit').click();
  await expect(dialog).toBeHidden();
  await expect(grid.locator('[data-row="0"]').first()).toHaveText('Edited in the grid');

  // Delete the selected row, with confirmation.
  await grid.locator('[data-row="0"]').first().click();
  await page.getByTestId('tm-delete-entries').click();
  await expect(page.getByTestId('confirm-items')).toContainText('Edited in the grid');
  await page.getByTestId('confirm-ok').click();
  await expect(grid).toHaveAttribute('data-total', String(ENTRIES - 1));
  await expect(grid).not.toContainText('Edited in the grid');
  const left = await admin.call<{ total: number }>('GET', `/TM/entry/list?libraryId=${memoryId}&pageNum=1&pageSize=1`);
  expect(left.total).toBe(ENTRIES - 1);

  // A sortable header and the search start again from the top with the new order or filter.
  // Blueprint draws the header in each quadrant; the top quadrant's is the one in front.
  await grid.locator('.bp6-table-quadrant-top').getByTestId('tm-entry-sort-source').click();
  await expect(grid.locator('[data-row="0"]').first()).toHaveText('Grid row 00001 source');
  await page.locator('#search-text').fill('row 02999');
  await page.getByTestId('search-submit').click();
  await expect(grid).toHaveAttribute('data-total', '1');
  await expect(grid.locator('[data-row="0"]').first()).toHaveText('Grid row 02999 source');
});
