import { expect, test } from '@playwright/test';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * A corpus in Chromium against the real server: the administrator creates an English–Spanish corpus,
 * aligns two pasted texts sentence by sentence (one English sentence translated as two Spanish ones),
 * adds the reviewed pairs, and runs the cleaning job, whose report flags what it should.
 */
test('an administrator builds a corpus by sentence alignment and cleans it', async ({ page }) => {
  test.setTimeout(120_000);
  const name = unique('Corpus ');
  await signIn(page);
  await page.goto(`${baseUrl()}/corpus`);
  await expect(page.getByTestId('corpus-view')).toBeVisible();

  await page.getByTestId('corpus-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('#field-name').fill(name);
  await dialog.locator('#field-sourceLang').selectOption('en');
  await dialog.locator('#field-targetLang').selectOption('es');
  await dialog.getByTestId('form-submit').click();
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name }).click();
  await expect(page.getByTestId('corpus-page')).toContainText(name);

  await page.getByRole('button', { name: 'Sentence alignment' }).click();
  const align = page.getByRole('dialog');
  await align.getByPlaceholder(/en/).first().fill('The red car is fast. The old house has a big garden and a quiet street runs past it every day. The school opens today.');
  await align.getByPlaceholder(/es/).first().fill('El coche rojo es rápido. La casa vieja tiene un jardín grande. Una calle tranquila pasa por delante cada día. La escuela abre hoy.');
  await align.getByRole('button', { name: 'Align', exact: true }).click();
  await expect(page.getByTestId('corpus-draft')).toContainText('1-2');
  await align.getByRole('button', { name: /^Add \d+ pairs$/ }).click();
  await expect(page.getByTestId('corpus-page')).toContainText('3 pairs');
  await expect(page.getByTestId('corpus-pair-table')).toContainText('La escuela abre hoy.');

  await page.getByRole('button', { name: 'Start cleaning' }).click();
  await expect(page.getByTestId('corpus-cleaning')).toContainText(/Report .*0 of 3 pairs flagged/, { timeout: 60_000 });
});
