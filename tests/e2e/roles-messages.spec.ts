import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, closeDialog, signIn } from './support/session.js';

/** Roles and rights (issue 22): the grant dialog's summary and administration permissions; a team role's messages. */

const PASSWORD = 'E2e-roles-msg-1';

test('roles and rights: the grant dialog sums up the role, and a translator reads their messages from the bell and the home tile', async ({ page }) => {
  const admin = await Api.signIn();

  // 1. The grant tree: a menu brings its ordinary buttons, not the administration ones; the summary says so.
  const roleName = unique('e2e-rights-');
  const created = await admin.call<{ id: number } | number>('POST', '/role/add', { name: roleName, description: 'e2e' });
  const roleId = typeof created === 'number' ? created : created.id;
  await signIn(page);
  await page.goto(`${baseUrl()}/role`);
  await page.locator('#search-name').fill(roleName);
  await page.getByTestId('search-submit').click();
  await page.getByTestId(`grant-role-${roleName}`).click();
  const tree = page.getByTestId('grant-tree');
  await page.getByTestId('grant-search').fill('Document translation');
  await tree.locator('label', { hasText: /^Document translation$/ }).first().click();
  const counts = page.getByTestId('grant-summary-counts');
  await expect(counts).toContainText('This role will hold 1 menu and');
  await expect(page.getByTestId('grant-summary-admin')).toHaveText('No administration permissions.');
  const buttonsBefore = Number(/and (\d+) button/.exec((await counts.textContent()) ?? '')?.[1]);
  await expect(page.getByTestId('admin-transFile:manage')).toBeVisible();
  // The administration permission is ticked on its own, and named in the summary.
  await tree.locator('label', { hasText: /^Manage every user's documents and the settings$/ }).click();
  await expect(page.getByTestId('grant-summary-admin')).toHaveText("Administration permissions: Manage every user's documents and the settings");
  await expect(counts).toContainText(`and ${buttonsBefore + 1} buttons`);
  await page.getByTestId('grant-save').click();
  await expect(page.getByTestId('grant-save')).toHaveCount(0);
  const saved = await admin.call<{ permissionIds: number[] }>('GET', `/role/permissions/${roleId}`);
  const nodes = await admin.call<Array<{ id: number; key: string; children?: unknown[] }>>('GET', '/permissionMenu/getAllPermissionMenu');
  const keyOf = new Map<number, string>();
  const walk = (list: Array<{ id: number; key: string; children?: unknown[] }>) => list.forEach((n) => (keyOf.set(n.id, n.key), walk((n.children ?? []) as typeof list)));
  walk(nodes);
  const keys = saved.permissionIds.map((id) => keyOf.get(id));
  expect(keys).toEqual(expect.arrayContaining(['menu:/transFile', 'transFile:use', 'transFile:manage']));
  expect(keys).not.toContain('fileManager:quota');

  // 2. A translator (the built-in role: no /news menu) gets a review message and reads it.
  const roles = await admin.call<Array<{ id: number; name: string; builtIn: boolean }>>('GET', '/role/list');
  const translatorRole = roles.find((r) => r.builtIn && r.name === 'Translator');
  expect(translatorRole, 'the built-in Translator role').toBeTruthy();
  const department = await admin.department(unique('e2e-rights-dept-'));
  const username = unique('translator');
  const translatorId = await admin.user(username, PASSWORD, [department], [translatorRole!.id]);
  const memory = await admin.call<{ id: number }>('POST', '/TM/library/add', { name: unique('e2e-team-memory-'), ownership: 'custom', kind: 'shared', users: [{ userId: translatorId, use: true, edit: true }] });
  const translator = await Api.signIn(username, PASSWORD);
  const entries = await translator.call<Array<{ id: number }>>('POST', '/TM/entry/add', { libraryId: memory.id, source: 'The invoice is attached.', target: 'La factura está adjunta.', sourceLang: 'en', targetLang: 'es' });
  await admin.call('POST', '/TM/entry/review', { ids: [entries[0]!.id], action: 'pass' });

  await page.context().clearCookies();
  await signIn(page, username, PASSWORD);
  await expect(page.getByTestId('news-dot')).toBeVisible();
  await page.getByTestId('news-button').click();
  const dropdown = page.getByTestId('news-dropdown');
  await expect(dropdown).toContainText('The invoice is attached.');
  await page.getByTestId('news-more').click();
  const view = page.getByTestId('messages-view');
  await expect(view).toContainText('The invoice is attached.');
  await view.locator('[data-testid^="messages-open-"]').first().click();
  await expect(page.getByTestId('message-content')).toContainText('The invoice is attached.');
  await closeDialog(page, 'Review');
  // Opening it marked it read: the dot goes, and the unread filter is empty.
  await expect(page.getByTestId('news-dot')).toHaveCount(0);
  await page.getByTestId('messages-unread').click();
  await expect(page.getByTestId('messages-empty')).toHaveText('No unread messages');

  // The home tile's "More" opens the same list.
  await page.goto(`${baseUrl()}/home`);
  await page.getByTestId('tile-messages-more').click();
  await expect(page.getByTestId('messages-view')).toContainText('The invoice is attached.');
});
