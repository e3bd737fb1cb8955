import { expect, test, type Page } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Issue 22, screens: list pages reflow at 420 px (the kit's PagedTable turns rows into cards), the
 * dashboard's tiles fit at 1440 px, the home shortcuts follow a language switch without reload, and
 * choices follow the user: the last language pair per area, the memory in the address, select-all
 * in the memory grid.
 */

/** Horizontal overflow of the page and of the shell's content box (either would mean sideways scrolling). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const content = document.querySelector('[data-testid="shell-content"]') as HTMLElement;
    return {
      page: document.scrollingElement!.scrollWidth - window.innerWidth,
      content: content.scrollWidth - content.clientWidth,
    };
  });
}

test('at 420 px list pages reflow without sideways scrolling; at 1440 px the dashboard tiles fit', async ({ page }) => {
  // Signed in at the usual width: at 420 px the menu starts folded away, and sign-in waits for it.
  await signIn(page);
  await page.setViewportSize({ width: 420, height: 800 });
  for (const screen of [
    { path: '/role', table: 'role-row-table', action: 'role-add' },
    { path: '/user', table: 'user-row-table', action: 'user-add' },
  ]) {
    await page.goto(`${baseUrl()}${screen.path}`);
    const table = page.locator(`[data-testid="${screen.table}"]`).first();
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(table).toHaveAttribute('aria-busy', 'false');
    const over = await overflow(page);
    expect(over.page, `${screen.path}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    expect(over.content, `${screen.path}: the content scrolls sideways`).toBeLessThanOrEqual(0);
    // The main action is on screen, inside the window's width.
    const action = page.getByTestId(screen.action);
    await expect(action).toBeInViewport({ ratio: 1 });
    const box = (await action.boundingBox())!;
    expect(box.x + box.width, screen.path).toBeLessThanOrEqual(420);
    // Each row is a card: its cells are stacked, each under its column's name.
    const cells = await table.locator('tbody tr').first().locator('td').evaluateAll((tds) => tds.map((td) => ({ x: Math.round(td.getBoundingClientRect().x), label: td.getAttribute('data-label') })));
    expect(new Set(cells.map((c) => c.x)).size, `${screen.path}: cells stacked`).toBe(1);
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${baseUrl()}/dashboard`);
  const board = page.getByTestId('dashboard-admin');
  await expect(board.getByTestId('tile-shortcuts')).toBeVisible();
  await expect(board.getByTestId('tile-operations')).toBeVisible();
  await expect(board.locator('.bp6-spinner')).toHaveCount(0, { timeout: 20_000 });
  const over = await overflow(page);
  expect(over.page, 'the dashboard scrolls sideways').toBeLessThanOrEqual(0);
  expect(over.content, 'the dashboard content scrolls sideways').toBeLessThanOrEqual(0);
  const cut = await board.locator('.bp6-card').evaluateAll((cards) => {
    const right = document.querySelector('[data-testid="shell-content"]')!.getBoundingClientRect().right;
    return cards.filter((c) => c.getBoundingClientRect().right > right + 1 || c.scrollWidth > c.clientWidth + 1).map((c) => c.getAttribute('data-testid') ?? c.className);
  });
  expect(cut, 'cards cut or overflowing').toEqual([]);
});

test('the home shortcuts follow a language switch without reload', async ({ page }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/home`);
  const tile = page.getByTestId('tile-shortcuts');
  const first = tile.locator('[data-testid^="shortcut-"]').first();
  await expect(first).toBeVisible();
  const testId = (await first.getAttribute('data-testid'))!;
  const english = (await first.innerText()).trim();
  expect(english).toMatch(/[A-Za-z]/);
  await page.getByTestId('locale-switch').selectOption('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  // Same shortcut, now named in Chinese (the server names menus in the request's language).
  await expect(tile.getByTestId(testId)).not.toHaveText(english);
  await expect(tile.getByTestId(testId)).toHaveText(/[\u4e00-\u9fff]/);
});

test('the last language pair and the chosen memory survive a reload; select-all in the memory grid', async ({ page }) => {
  const admin = await Api.signIn();
  await signIn(page);

  // Text translation: the pair picked is the pair shown after a reload.
  await page.goto(`${baseUrl()}/transText`);
  await expect(page.getByTestId('trans-text')).toBeVisible();
  await page.getByTestId('source-language').selectOption('es');
  await page.getByTestId('target-language').selectOption('en');
  await page.reload();
  await expect(page.getByTestId('source-language')).toHaveValue('es');
  await expect(page.getByTestId('target-language')).toHaveValue('en');

  // Two memories: the second one chosen stays chosen through a reload (it is in the address).
  const names = [unique('Fit memory A '), unique('Fit memory B ')];
  for (const name of names) await admin.call('POST', '/TM/library/add', { name, ownership: 'department', kind: 'shared', users: [], isDefault: false });
  const list = await admin.call<{ records: { id: number; name: string }[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200');
  const [, second] = names.map((n) => list.records.find((m) => m.name === n)!.id);
  for (let i = 1; i <= 3; i++) await admin.call('POST', '/TM/entry/add', { libraryId: second, source: `Fit row ${i}.`, target: `Fila ${i}.`, sourceLang: 'en', targetLang: 'es' });
  await page.goto(`${baseUrl()}/TM`);
  await page.getByTestId(`tm-memory-${second}`).click();
  await expect(page).toHaveURL(new RegExp(`[?&]libraryId=${second}(&|$)`));
  await page.reload();
  await expect(page.getByTestId(`tm-memory-${second}`)).toHaveClass(/bp6-active/);
  const grid = page.getByTestId('tm-entry-table');
  await expect(grid).toHaveAttribute('data-total', '3');
  await expect(grid.locator('[data-row="2"]').first()).toBeVisible();

  // The header checkbox selects the rows shown; the bulk delete then names all three.
  // Blueprint draws the header in more than one quadrant: the top one is the one on screen.
  const selectAll = grid.locator('.bp6-table-quadrant-top').getByTestId('tm-entry-select-all');
  await selectAll.click({ force: true });
  await expect(grid).toContainText('3 selected');
  await expect(selectAll).toBeChecked();
  await expect(page.getByTestId('tm-delete-entries')).toBeEnabled();
  await selectAll.click({ force: true });
  await expect(grid).not.toContainText('selected');
  await expect(selectAll).not.toBeChecked();
  await expect(page.getByTestId('tm-delete-entries')).toBeDisabled();
});
