import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, closeDialog, signIn } from './support/session.js';

/** Administration part 2 (issue 5): deploy, languages, feedback and the home gauges, in Chromium against the real server. */

const PASSWORD = 'E2e-admin2-pass-1';
// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface TreeNode {
  id: number;
  key: string;
  path?: string | null;
  children?: TreeNode[];
}

/** A user whose only role grants these menus (by path) and buttons (by key). */
async function userWith(admin: Api, paths: string[], keys: string[]): Promise<{ username: string; id: number }> {
  const tree = await admin.call<TreeNode[]>('GET', '/permissionMenu/getAllPermissionMenu');
  const ids: number[] = [];
  // Menus by their node key (button nodes share the menu's path), buttons by permission key.
  const wanted = new Set([...paths.map((p) => `menu:${p}`), ...keys]);
  const walk = (nodes: TreeNode[]) => nodes.forEach((n) => (wanted.has(n.key) && ids.push(n.id), walk(n.children ?? [])));
  walk(tree);
  expect(ids.length, `nodes for ${[...paths, ...keys].join(', ')}`).toBe(paths.length + keys.length);
  const role = await admin.call<{ id: number } | number>('POST', '/role/add', { name: unique('e2e-a2-'), description: 'e2e' });
  const roleId = typeof role === 'number' ? role : role.id;
  await admin.call('PUT', `/role/permissions/${roleId}`, { permissionIds: ids });
  const department = await admin.department(unique('e2e-a2-dept-'));
  const username = unique('a2user');
  const id = await admin.user(username, PASSWORD, [department], [roleId]);
  return { username, id };
}

test('a new theme colour saved on /deploy is the console theme after a reload', async ({ page }) => {
  const admin = await Api.signIn();
  const before = (await admin.call<{ configValue: string }>('GET', '/systemConfig/getOneConfigInfo?configKey=SYSTEM_COLOR')).configValue;
  const colour = before.toLowerCase() === '#0a7d5a' ? '#7d0a5a' : '#0a7d5a';
  try {
    await signIn(page);
    await page.goto(`${baseUrl()}/deploy`);
    await page.getByTestId('cfg-SYSTEM_COLOR').fill(colour);
    await page.getByTestId('deploy-save-company').click();
    await expect.poll(async () => (await admin.call<{ configValue: string }>('GET', '/systemConfig/getOneConfigInfo?configKey=SYSTEM_COLOR')).configValue).toBe(colour);
    await page.reload();
    await expect(page.getByTestId('deploy-view')).toBeVisible();
    const theme = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--lp-theme').trim());
    expect(theme.toLowerCase()).toBe(colour);
    await expect(page.getByTestId('cfg-SYSTEM_COLOR')).toHaveValue(colour);
  } finally {
    await admin.setConfig('SYSTEM_COLOR', before);
  }
});

test('a language moved to the top on /languageSorting comes first in the language select of /deploy', async ({ page }) => {
  const admin = await Api.signIn();
  const original = (await admin.call<Array<{ code: string }>>('GET', '/language/all')).map((l) => l.code);
  const moved = original.includes('eo') && original[0] !== 'eo' ? 'eo' : original[original.length - 1];
  try {
    await signIn(page);
    await page.goto(`${baseUrl()}/languageSorting`);
    const position = page.getByTestId(`language-position-${moved}`);
    await position.fill('1');
    await position.press('Enter');
    await expect(page.locator('[data-testid^="language-row-"]').first()).toHaveAttribute('data-testid', `language-row-${moved}`);
    await page.goto(`${baseUrl()}/deploy`);
    const select = page.getByTestId('cfg-DEFAULT_SOURCE_LANGUAGE');
    await expect(select).toBeEnabled();
    const values = await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(values[0]).toBe(moved);
    const enabled = (await admin.call<Array<{ code: string }>>('GET', '/language/list')).map((l) => l.code);
    expect(values.slice(0, enabled.length)).toEqual(enabled);

    // An open select follows a later change without a reload (bus event language.changed).
    const next = enabled[enabled.length - 1];
    await admin.call('PUT', '/language/sort', { codes: [next, ...original.filter((c) => c !== next)] });
    await expect(select.locator('option').first()).toHaveAttribute('value', next);
  } finally {
    await admin.call('PUT', '/language/sort', { codes: original });
  }
});

test('a reply to feedback reaches the reporter as a live message and lights the unread dot', async ({ page }) => {
  const admin = await Api.signIn();
  const reporter = await userWith(admin, ['/feedback', '/news'], ['feedback:submit']);
  await signIn(page, reporter.username, PASSWORD);
  await page.goto(`${baseUrl()}/feedback`);
  const content = `The glossary export is empty ${unique('')}`;
  await page.getByTestId('feedback-content').fill(content);
  await page.locator('#feedback-screenshot').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
  await page.getByTestId('feedback-submit').click();
  await expect(page.getByTestId('feedback-view').getByText(content)).toBeVisible();
  // The screenshot comes back through the session (an <img src> would carry no token).
  await page.getByTestId('my-feedback-table').getByRole('button', { name: 'Screenshot' }).click();
  await expect(page.getByRole('dialog').locator('img')).toHaveJSProperty('naturalWidth', 1);
  await closeDialog(page, 'Screenshot');
  await expect(page.getByTestId('news-button')).toBeVisible();
  await expect(page.getByTestId('news-dot')).toHaveCount(0);

  const list = await admin.call<{ records: Array<{ id: number }> }>('GET', `/feedback/page?keyword=${encodeURIComponent(content)}`);
  expect(list.records).toHaveLength(1);
  await admin.call('PUT', '/feedback/reply', { id: list.records[0].id, reply: 'Fixed in the next build' });

  // No reload: the message arrives over the socket.
  await expect(page.getByTestId('news-dot')).toBeVisible();
  // The bell opens the message dropdown (spec 02 section 2: mark as read, more).
  await page.getByTestId('news-button').click();
  await expect(page.getByTestId('news-dropdown').getByText(/Fixed in the next build/)).toBeVisible();
  await page.getByTestId('news-dropdown-mark-all').click();
  await expect(page.getByTestId('news-dot')).toHaveCount(0);
});

test('the dashboard gauges show non-zero host figures and a clear GPU state', async ({ page }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/dashboard`);
  await expect(page.getByTestId('dashboard-admin')).toBeVisible();
  const value = (id: string) => page.getByTestId(id).getAttribute('data-value').then(Number);
  await expect.poll(() => value('gauge-memory')).toBeGreaterThan(0);
  await expect.poll(() => value('gauge-disk')).toBeGreaterThan(0);
  // CPU is a rate: it shows once a second reading arrives over the bus.
  await expect(page.getByTestId('gauge-cpu')).not.toHaveAttribute('data-value', '', { timeout: 15_000 });
  const gpuAbsent = await page.getByTestId('gpu-absent').count();
  if (gpuAbsent) await expect(page.getByTestId('gauge-gpu')).toContainText('No GPU');
  // The service tile groups processes by what they serve; the full list opens on demand.
  await expect(page.getByTestId('service-groups')).toContainText('Platform server');
  await page.getByTestId('toggle-processes').click();
  await expect(page.getByTestId('tile-service')).toContainText('platform server');
});
