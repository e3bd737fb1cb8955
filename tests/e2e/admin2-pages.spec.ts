import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/** Every screen of issue 5 opens without a script error, and the main flows of the smaller areas work in the browser. */

const SCREENS: Array<[string, string]> = [
  ['/home', 'home-view'],
  ['/dashboard', 'dashboard-admin'],
  ['/deploy', 'deploy-view'],
  ['/translation', 'translation-settings-view'],
  ['/translationAdmin', 'translation-admin-view'],
  ['/languageSorting', 'language-sorting-view'],
  ['/domain', 'domain-view'],
  ['/dictionary', 'dictionary-view'],
  ['/feedback', 'feedback-view'],
  ['/feedbackManager', 'feedback-manager-view'],
  ['/news', 'news-view'],
  ['/api', 'api-docs-view'],
];

test('each administration screen of part 2 renders for the administrator without a script error', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  await signIn(page);
  for (const [path, testId] of SCREENS) {
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByTestId(testId), path).toBeVisible();
  }
  expect(errors).toEqual([]);
});

test('a dictionary type added in the browser opens its entries with the type name in the breadcrumb', async ({ page }) => {
  const name = unique('Dict ');
  await signIn(page);
  await page.goto(`${baseUrl()}/dictionary`);
  await page.getByRole('button', { name: 'Add type' }).click();
  await page.locator('#field-name').fill(name);
  await page.locator('#field-code').fill(name.replace(/\s/g, '_'));
  await page.getByTestId('form-submit').click();
  const link = page.getByText(name, { exact: true });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/dictionarySetting\?typeId=\d+/);
  await expect(page.getByTestId('dictionary-entries-view')).toBeVisible();
  await expect(page.locator('.lp-header')).toContainText(name);

  const addEntry = async (name: string, value: string, sort: string) => {
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.locator('#field-name').fill(name);
    await page.locator('#field-code').fill(name.toLowerCase());
    await page.locator('#field-value').fill(value);
    await page.locator('#field-sort').fill(sort);
    await page.getByTestId('form-submit').click();
  };
  await addEntry('Second', '2', '0');
  await expect(page.getByTestId('error-sort')).toBeVisible(); // a positive integer only
  await page.locator('#field-sort').fill('2');
  await page.getByTestId('form-submit').click();
  await addEntry('First', '1', '1');
  const rows = page.locator('tbody tr[data-testid^="dict-entry-"]');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('First');
});

test('a domain not in use is deleted from the browser after confirmation', async ({ page }) => {
  const admin = await Api.signIn();
  const code = unique('d').toLowerCase();
  await admin.call('POST', '/domain/add', { code, nameZh: `领域${code}`, nameEn: `Domain ${code}` });
  await signIn(page);
  await page.goto(`${baseUrl()}/domain`);
  const row = page.getByTestId(`domain-row-${code}`);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  expect((await admin.call<Array<{ code: string }>>('GET', '/domain/all')).some((d) => d.code === code)).toBe(false);
});

test('the API page documents the calls and runs one against the server', async ({ page }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/api`);
  await page.getByTestId('api-docs-filter').fill('/language/list');
  await page.getByTestId('api-op-GET-/language/list').click();
  await page.getByTestId('api-execute').click();
  await expect(page.getByTestId('api-result')).toContainText('"code": 200');
  await expect(page.getByTestId('api-result')).toContainText('zh-CN');
});

test('a user without the home keys gets the editor dashboard: own usage, no gauges, no operation records', async ({ page }) => {
  const admin = await Api.signIn();
  // The menu node only: the home:* buttons sit under the same path.
  const tree = await admin.call<Array<{ id: number; key: string; children?: unknown[] }>>('GET', '/permissionMenu/getAllPermissionMenu');
  const ids: number[] = [];
  const walk = (nodes: Array<{ id: number; key: string; children?: unknown[] }>) => nodes.forEach((n) => (n.key === 'menu:/dashboard' && ids.push(n.id), walk((n.children ?? []) as typeof nodes)));
  walk(tree);
  expect(ids).toHaveLength(1);
  const created = await admin.call<{ id: number } | number>('POST', '/role/add', { name: unique('e2e-editor-'), description: 'e2e' });
  const role = typeof created === 'number' ? created : created.id;
  await admin.call('PUT', `/role/permissions/${role}`, { permissionIds: ids });
  const department = await admin.department(unique('e2e-editor-dept-'));
  const username = unique('editor');
  await admin.user(username, 'E2e-editor-pass-1', [department], [role]);
  await signIn(page, username, 'E2e-editor-pass-1');
  await page.goto(`${baseUrl()}/dashboard`);
  await expect(page.getByTestId('dashboard-editor')).toBeVisible();
  await expect(page.getByTestId('tile-my-usage')).toContainText('Translated characters');
  await expect(page.getByTestId('tile-shortcuts')).toBeVisible();
  await expect(page.getByTestId('tile-host')).toHaveCount(0);
  await expect(page.getByTestId('tile-operations')).toHaveCount(0);
});

test('a logo uploaded on /deploy is stored and shown, with a warning when its size is not the suggested one', async ({ page }) => {
  const admin = await Api.signIn();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  try {
    await signIn(page);
    await page.goto(`${baseUrl()}/deploy`);
    const row = page.getByTestId('picture-COMPANY_LOGO');
    await expect(row).toContainText('142 × 35');
    await page.getByTestId('picture-input-COMPANY_LOGO').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await expect(row).toContainText('1 × 1');
    await expect(row.locator('img')).toHaveJSProperty('naturalWidth', 1);
    const stored = await admin.call<{ configValue: string }>('GET', '/systemConfig/getOneConfigInfo?configKey=COMPANY_LOGO');
    expect(stored.configValue).toMatch(/^\/api\/systemConfig\/picture\/company_logo-[0-9a-f]{16}\.png$/);
  } finally {
    await admin.setConfig('COMPANY_LOGO', '');
  }
});

test('the LibreTranslate API settings on /translation turn keyless use on, refuse a bad origin and reach /api/lt at once', async ({ page }) => {
  const admin = await Api.signIn();
  try {
    await signIn(page);
    await page.goto(`${baseUrl()}/translation`);
    const card = page.getByTestId('lt-settings');
    await expect(card).toContainText('LibreTranslate-compatible API');
    await expect(page.getByTestId('lt-LT_RATE_LIMIT')).toHaveValue('600');
    await page.getByTestId('lt-LT_CORS_ORIGINS').fill('example.org');
    await page.getByTestId('lt-save').click();
    await expect(card).toContainText('Each origin is * or http(s)://host[:port]');
    await page.getByTestId('lt-LT_CORS_ORIGINS').fill('https://app.example.org/');
    await card.getByText('Calls without a key are allowed').click();
    await page.getByTestId('lt-save').click();
    await expect.poll(async () => (await (await fetch(`${baseUrl()}/api/lt/frontend/settings`)).json()).keyRequired).toBe(false);
    const pre = await fetch(`${baseUrl()}/api/lt/translate`, { method: 'OPTIONS', headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST' } });
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
  } finally {
    await admin.setConfig('LT_KEYLESS', '0');
    await admin.setConfig('LT_CORS_ORIGINS', '');
  }
});
