import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Engine editing (spec 01 section 7.5) in Chromium against the real server: the administrator
 * renames the seeded Apertium engine through the Edit engine dialog, the list shows the new name
 * after a reload, and the old name is restored (through the dialog, and by the API if a step failed).
 */

interface EngineRow {
  id: number;
  name: string;
  imageName: string;
}

test('an administrator renames the seeded Apertium engine and the list keeps the new name after a reload', async ({ page }) => {
  const admin = await Api.signIn();
  const { records } = await admin.call<{ records: EngineRow[] }>('GET', '/translServiceInfo/getTranslationServiceByPage?pageNum=1&pageSize=100');
  const apertium = records.find((e) => e.imageName === 'apertium');
  expect(apertium, 'the seeded Apertium engine').toBeTruthy();
  const original = apertium!.name;
  const renamed = unique('Apertium-e2e-');
  const card = page.getByTestId(`engine-${apertium!.id}`);

  async function rename(to: string) {
    await card.getByTestId('edit-engine').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('#field-name')).toHaveValue(/.+/);
    await dialog.locator('#field-name').fill(to);
    await dialog.getByTestId('form-submit').click();
    await expect(dialog).toBeHidden();
  }

  try {
    await signIn(page);
    await page.goto(`${baseUrl()}/service`);
    await expect(card).toContainText(original);

    // An empty name is refused by the server, and its message shows beside the name field.
    await card.getByTestId('edit-engine').click();
    await page.getByRole('dialog').locator('#field-name').fill('');
    await page.getByRole('dialog').getByTestId('form-submit').click();
    await expect(page.getByRole('dialog').getByTestId('error-name')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await rename(renamed);
    await page.reload();
    await expect(card.locator('h4')).toContainText(renamed);

    await rename(original);
    await page.reload();
    await expect(card.locator('h4')).toContainText(original);
    await expect(card.locator('h4')).not.toContainText(renamed);
  } finally {
    // Other specs expect the seeded name: put it back even if the browser steps failed.
    await admin.call('PUT', '/translServiceInfo/update', { id: apertium!.id, name: original });
  }
});
