import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Translation memory in Chromium against the real server: the administrator creates a department memory
 * (their default), adds an entry, passes it, imports a TMX from another tool, exports TMX, reads the
 * review history, and text translation gives the memory's own wording for that sentence.
 */
test.describe.configure({ mode: 'serial' });

interface TreeNode {
  id: number;
  key: string;
  children?: TreeNode[];
}

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="x" adminlang="en" srclang="en-US" datatype="plaintext"/>
<body>
  <tu><tuv xml:lang="en-US"><seg>The invoice is overdue.</seg></tuv><tuv xml:lang="es-ES"><seg>La factura está vencida.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>999</seg></tuv><tuv xml:lang="es"><seg>999</seg></tuv></tu>
</body></tmx>`;

test('an administrator builds a memory, reviews and exchanges TMX, and text translation uses it', async ({ page }) => {
  test.setTimeout(120_000);
  const name = unique('Memory ');
  const sentence = `Our ${unique('w').replace(/[^a-z]/gi, '')} contract ends today.`;
  await signIn(page);
  await page.goto(`${baseUrl()}/TM`);
  await expect(page.getByTestId('tm-view')).toBeVisible();

  await page.getByTestId('tm-add-memory').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('#field-name').fill(name);
  await dialog.locator('#field-ownership').selectOption('department');
  await dialog.getByText('My default memory').click();
  await dialog.getByTestId('form-submit').click();
  await expect(dialog).toBeHidden();
  const memoryButton = page.getByRole('button', { name: new RegExp(`^${name} \\(0\\)$`) });
  await memoryButton.click();

  await page.getByTestId('tm-add-entry').click();
  const entry = page.getByRole('dialog');
  await entry.locator('#field-source').fill(sentence);
  await entry.locator('#field-target').fill('Nuestro contrato termina hoy, sin falta.');
  await entry.getByTestId('form-submit').click();
  await expect(entry).toBeHidden();
  // The entries grid: the newest entry is its first row (cells carry their row's index).
  const row = page.getByTestId('tm-entry-table').locator('[data-row="0"]');
  await expect(row.first()).toHaveText(sentence);
  await expect(row.filter({ hasText: /^Unchecked$/ })).toHaveCount(1);
  await row.first().click();
  await page.getByTestId('tm-pass').click();
  await expect(row.filter({ hasText: /^Checked$/ })).toHaveCount(1);

  // A TMX from another tool: one unit lands, one is refused with its row number and reason.
  const dir = mkdtempSync(join(tmpdir(), 'tm-e2e-'));
  writeFileSync(join(dir, 'omegat.tmx'), TMX);
  await page.getByTestId('tm-import-files').setInputFiles(join(dir, 'omegat.tmx'));
  await page.getByTestId('tm-import-submit').click();
  await expect(page.getByTestId('tm-import-report')).toContainText('1 entries imported, 1 rejected');
  await expect(page.getByTestId('tm-import-report')).toContainText('omegat.tmx #2');
  await expect(page.getByTestId('tm-entry-table')).toContainText('La factura está vencida.');

  // The export dialog says what leaves (checked entries by default, the unchecked import left out) before the download.
  await page.getByTestId('tm-export-tmx').click();
  await expect(page.getByTestId('tm-export-dialog')).toContainText('1');
  const download = page.waitForEvent('download');
  await page.getByTestId('tm-export-download').click();
  const file = await (await download).path();
  const tmx = readFileSync(file!, 'utf8');
  expect(tmx).toContain('<tmx version="1.4">');
  expect(tmx).toContain('Nuestro contrato termina hoy, sin falta.');
  // Only checked entries leave: the imported one is still unchecked.
  expect(tmx).not.toContain('La factura');

  await page.getByRole('button', { name: 'Memory review history' }).click();
  await expect(page.getByTestId('tm-history-view')).toBeVisible();
  await expect(page.getByTestId('tm-history-table')).toContainText('Passed');

  // The administrator's default memory now serves text translation.
  await page.goto(`${baseUrl()}/transText`);
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('source-text').fill(sentence);
  await page.getByTestId('translate').click();
  await expect(page.getByTestId('target-text')).toHaveValue('Nuestro contrato termina hoy, sin falta.');
  // Beside the result, the memory area says where it came from.
  await expect(page.getByTestId('tm-panel')).toContainText('100%');
  await expect(page.getByTestId('tm-panel')).toContainText(sentence);

  // Someone from another department does not see the memory, and a direct call is refused.
  const admin = await Api.signIn();
  const memories = await admin.call<{ records: { id: number; name: string }[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200');
  const memoryId = memories.records.find((m) => m.name === name)!.id;
  const department = await admin.department(unique('e2e-tm-dept-'));
  const tree = await admin.call<TreeNode[]>('GET', '/permissionMenu/getAllPermissionMenu');
  const ids: number[] = [];
  const walk = (nodes: TreeNode[]) => nodes.forEach((n) => (['menu:/TM', 'tm:view'].includes(n.key) && ids.push(n.id), walk(n.children ?? [])));
  walk(tree);
  const created = await admin.call<{ id: number } | number>('POST', '/role/add', { name: unique('e2e-tm-'), description: 'e2e' });
  const role = typeof created === 'number' ? created : created.id;
  await admin.call('PUT', `/role/permissions/${role}`, { permissionIds: ids });
  const username = unique('tmuser');
  await admin.user(username, 'E2e-tm-pass-1', [department], [role]);
  const outsider = await Api.signIn(username, 'E2e-tm-pass-1');
  const seen = await outsider.call<{ records: unknown[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200');
  expect(seen.records).toEqual([]);
  const refused = await outsider.raw('GET', `/TM/entry/list?libraryId=${memoryId}`);
  expect(refused.code).toBe(403);
  expect(refused.msg).toBe('Insufficient permission: you may not use or edit this memory');
});
