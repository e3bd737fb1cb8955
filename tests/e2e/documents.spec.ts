import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Document translation in Chromium against the real server and its Apertium engine: a user uploads a
 * text file by the upload dialog, watches its progress to completion, reads source and translation
 * side by side, edits a paragraph, sees the rendered pages and downloads the result; an empty file is
 * refused with the catalogue's message before anything is sent.
 */
test.describe.configure({ mode: 'serial' });

test('a document is uploaded, translated with live progress, previewed, edited and downloaded', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'docs-e2e-'));
  const name = `${unique('report-')}.txt`;
  const paragraphs = Array.from({ length: 40 }, (_, i) => (i === 0 ? 'The red car is fast.' : `The house number ${i} has a big garden.`));
  writeFileSync(join(dir, name), `${paragraphs.join('\n\n')}\n`);
  writeFileSync(join(dir, 'empty.txt'), '');

  await signIn(page);
  await page.goto(`${baseUrl()}/transFile`);
  await expect(page.getByTestId('trans-file')).toBeVisible();
  await page.getByTestId('open-upload').click();
  const dialog = page.getByTestId('upload-dialog');
  await expect(dialog).toBeVisible();

  // An empty file is refused at once, with the catalogue's message, and cannot be sent.
  await page.getByTestId('file-input').setInputFiles(join(dir, 'empty.txt'));
  await expect(page.getByTestId('chosen-files')).toContainText('empty.txt: cannot upload an empty file');
  await expect(page.getByTestId('start-upload')).toBeDisabled();
  await page.getByTestId('chosen-files').getByRole('button', { name: 'Remove this file' }).click();

  await page.getByTestId('file-input').setInputFiles(join(dir, name));
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('start-upload').click();
  await expect(dialog).toBeHidden();

  // The row appears and moves to completed on its own (pushed over the WebSocket, no reload).
  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row).toBeVisible();
  const status = row.locator('[data-testid^="file-status-"]');
  await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(row).toContainText('Translation completed');

  // Side by side, paragraph by paragraph.
  await row.locator('[data-testid^="preview-"]').click();
  await expect(page).toHaveURL(/\/fileView\?id=\d+/);
  await expect(page.getByTestId('source-0')).toHaveText('The red car is fast.');
  await expect(page.getByTestId('target-0')).toContainText('coche');
  await expect(page.getByTestId('target-39')).toContainText('jardín');

  // An edit is written into the translated file.
  await page.getByTestId('edit-button-1').click();
  await page.getByTestId('edit-1').fill('La casa número 1 tiene un jardín enorme.');
  await page.getByTestId('save-1').click();
  await expect(page.getByTestId('target-1')).toContainText('jardín enorme');

  const downloading = page.waitForEvent('download');
  await page.getByTestId('view-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(name.replace('.txt', '_es.txt'));
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.split('\n\n')[1]).toBe('La casa número 1 tiene un jardín enorme.');
  expect(text.split('\n\n')[0]).toContain('coche');

  // The documents themselves, page by page.
  await page.getByRole('button', { name: 'Preview the document' }).click();
  await expect(page).toHaveURL(/\/fileView2\?id=\d+/);
  await expect(page.getByTestId('target-page-1')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('source-page-1')).toBeVisible();
});
