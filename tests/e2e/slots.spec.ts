import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/** Console slots (kernel issue 6): another area's tile on /home, shown only to who may see it. */

const PASSWORD = 'E2e-slots-pass-1';

interface TreeNode {
  id: number;
  key: string;
  children?: TreeNode[];
}

/** A user whose only role grants these menus (by path) and buttons (by key). */
async function userWith(admin: Api, paths: string[], keys: string[]): Promise<string> {
  const tree = await admin.call<TreeNode[]>('GET', '/permissionMenu/getAllPermissionMenu');
  const wanted = new Set([...paths.map((p) => `menu:${p}`), ...keys]);
  const ids: number[] = [];
  const walk = (nodes: TreeNode[]) => nodes.forEach((n) => (wanted.has(n.key) && ids.push(n.id), walk(n.children ?? [])));
  walk(tree);
  expect(ids.length, `nodes for ${[...wanted].join(', ')}`).toBe(wanted.size);
  const role = await admin.call<{ id: number } | number>('POST', '/role/add', { name: unique('e2e-slot-'), description: 'e2e' });
  const roleId = typeof role === 'number' ? role : role.id;
  await admin.call('PUT', `/role/permissions/${roleId}`, { permissionIds: ids });
  const department = await admin.department(unique('e2e-slot-dept-'));
  const username = unique('slotuser');
  await admin.user(username, PASSWORD, [department], [roleId]);
  return username;
}

test('the usage records tile fills the home slot for a user who may see usage records, and no one else', async ({ page }) => {
  const admin = await Api.signIn();
  const reader = await userWith(admin, ['/home', '/transRecords'], ['transRecords:view']);
  const plain = await userWith(admin, ['/home'], []);

  await signIn(page, reader, PASSWORD);
  await page.goto(`${baseUrl()}/home`);
  const tile = page.getByTestId('tile-recent-usage');
  await expect(tile).toContainText('Recent usage');
  await tile.getByRole('button', { name: 'All records' }).click();
  await expect(page).toHaveURL(/\/transRecords$/);
  await expect(page.getByTestId('trans-records')).toBeVisible();

  await page.getByTestId('user-button').click();
  await page.getByTestId('logout').click();
  await signIn(page, plain, PASSWORD);
  await page.goto(`${baseUrl()}/home`);
  // The home plugin's own tiles render in the same pass as the slot: once they show, the slot has rendered.
  await expect(page.getByTestId('tile-shortcuts')).toBeVisible();
  await expect(page.locator('[data-slot="home.tiles"]')).toHaveCount(0);
});
