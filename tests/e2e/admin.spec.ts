import { expect, test, type Page } from '@playwright/test';
import * as XLSX from '@e965/xlsx';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Administration part 1 (issue 4) through the screens: a department, a role with a subset of
 * menus and a user in them made in the console; that user sees exactly those menus; an XLS
 * import with one bad row reports it; the operation log shows these actions.
 */

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'E2e-admin-ui-Pass1';
const names = { department: unique('dept'), role: unique('role'), user: unique('adm'), imported: unique('imp') };

async function open(page: Page, path: string, view: string) {
  await page.goto(`${baseUrl()}${path}`);
  try {
    await expect(page.getByTestId(view)).toBeVisible({ timeout: 30_000 });
  } catch (error) {
    // Say what the page shows instead (a load failure, another route), not only what it lacks.
    throw new Error(`${path}: ${view} not shown at ${page.url()}; the page reads: ${(await page.locator('body').innerText()).slice(0, 600)}`, { cause: error });
  }
}

async function submitForm(page: Page) {
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('form-submit')).toHaveCount(0);
}

/** Menu entries (paths) in the sidebar, group directories left out. */
async function sidebarPaths(page: Page): Promise<string[]> {
  const hrefs = await page.locator('[data-testid="sidebar"] a[href]:not([data-testid="sidebar-logo"])').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(hrefs.filter((h) => h.startsWith('/') && !h.startsWith('/group/')))].sort();
}

test('an administrator makes a department, a role with two menus and a user; the user sees exactly those menus', async ({ page, browser }) => {
  await signIn(page);

  await open(page, '/department', 'department-view');
  await page.getByTestId('department-add').click();
  await page.locator('#field-name').fill(names.department);
  await page.locator('#field-code').fill(names.department);
  await submitForm(page);
  await page.locator('#search-name').fill(names.department);
  await page.getByTestId('search-submit').click();
  await expect(page.locator('tbody tr[data-testid^="department-row-"]').filter({ hasText: names.department })).toHaveCount(1);

  await open(page, '/role', 'role-view');
  await page.getByTestId('role-add').click();
  // Field errors show beside the field, in English, before anything is sent.
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('error-name')).toHaveText('This field is required');
  await page.locator('#field-name').fill(names.role);
  await submitForm(page);
  await page.locator('#search-name').fill(names.role);
  await page.getByTestId('search-submit').click();
  await page.getByTestId(`grant-role-${names.role}`).click();
  const tree = page.getByTestId('grant-tree');
  for (const label of ['Users', 'Operation log']) {
    await page.getByTestId('grant-search').fill(label);
    await tree.locator('label', { hasText: new RegExp(`^${label}$`) }).first().click();
  }
  await page.getByTestId('grant-save').click();
  await expect(page.getByTestId('grant-save')).toHaveCount(0);

  await open(page, '/user', 'user-view');
  await page.getByTestId('user-add').click();
  await page.locator('#field-username').fill(names.user);
  await page.locator('#field-password').fill(PASSWORD);
  await page.locator('#field-confirmPassword').fill(PASSWORD + 'x');
  await page.locator('#field-realName').fill('E2E Admin UI');
  await page.locator('#field-email').fill('not-an-email');
  await page.locator('#field-departmentIds').getByText(names.department, { exact: true }).click();
  await page.locator('#field-roleIds').getByText(names.role, { exact: true }).click();
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('error-confirmPassword')).toHaveText('The two passwords do not match');
  await expect(page.getByTestId('error-email')).toHaveText('Enter a valid email address');
  await page.locator('#field-confirmPassword').fill(PASSWORD);
  await page.locator('#field-email').fill('e2e@example.com');
  await submitForm(page);

  const context = await browser.newContext();
  const userPage = await context.newPage();
  await signIn(userPage, names.user, PASSWORD);
  await expect.poll(() => sidebarPaths(userPage)).toEqual(['/operationLog', '/user']);
  await context.close();
});

test('an XLS import with one bad row imports the rest and reports the bad row with its reason', async ({ page }) => {
  await signIn(page);
  await open(page, '/user', 'user-view');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([
    ['User name', 'Real name', 'Email', 'Phone', 'Employee number', 'Memo'],
    [names.imported, 'Imported One', 'imp@example.com', '', 'E1', ''],
    [`${names.imported}b`, 'Bad Mail', 'broken-email', '', '', ''],
  ]), 'users');
  const buffer = XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
  await page.getByTestId('upload-input').setInputFiles({ name: 'users.xls', mimeType: 'application/vnd.ms-excel', buffer });
  const report = page.getByTestId('import-report');
  await expect(report).toBeVisible();
  await expect(report).toContainText('1 imported');
  await expect(report).toContainText('1 rejected');
  await expect(page.getByTestId('import-row-2')).toContainText('Imported');
  await expect(page.getByTestId('import-row-3')).toContainText('email');
});

test('the operation log shows those actions with their operator and can be filtered by module', async ({ page }) => {
  await signIn(page);
  await open(page, '/operationLog', 'operation-log-view');
  await page.locator('#search-operator').fill('admin');
  await page.getByTestId('search-submit').click();
  const table = page.getByTestId('oplog-row-table');
  for (const text of ['Add department', 'Add role', 'Grant permissions to a role', 'Add user', 'Import users']) {
    await expect(table).toContainText(text);
  }
  await page.locator('#search-module').selectOption('department');
  await page.getByTestId('search-submit').click();
  await expect(table).toContainText('Add department');
  await expect(table).not.toContainText('Add user');
});
