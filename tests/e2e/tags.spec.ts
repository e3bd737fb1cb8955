import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Issue 22 item 4 in Chromium: a document's inline tags are chips in the paragraph view and in its
 * editor, typed text never splits one, Backspace takes a chip whole, Ctrl+, and Ctrl+Alt+digit insert
 * the source's tags, and a translation with typed look-alikes (⟨1⟩) is refused with the tag named.
 */
test('tags are atomic chips in the document editor, inserted by keyboard, and broken tags are refused', async ({ page }) => {
  test.setTimeout(180_000);
  const admin = await Api.signIn();
  const name = `${unique('guide-')}.html`;
  const [row] = await admin.upload<Array<{ id: number }>>('/transFile/upload', { sourceLang: 'en', targetLang: 'es' }, [
    { name, content: Buffer.from('<html><body><p>Press <b>Print</b> to start<br>now.</p></body></html>'), type: 'text/html' },
  ]);
  await expect.poll(async () => (await admin.call<{ status: string }>('GET', `/transFile/get/${row!.id}`)).status, { timeout: 120_000, intervals: [500] }).toBe('completed');

  await signIn(page);
  await page.goto(`${baseUrl()}/fileView?id=${row!.id}`);
  const source = page.getByTestId('source-0');
  await expect(source.locator('.lp-tag-chip')).toHaveCount(3);
  await expect(source).not.toContainText('⟨');

  await page.getByTestId('edit-button-0').click();
  const editor = page.getByTestId('edit-0');
  await expect(editor).toBeFocused();
  await expect(editor).toHaveAttribute('title', /Ctrl\+,/);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await expect(editor.locator('.lp-tag-chip')).toHaveCount(0);
  await expect(page.getByTestId('edit-0-tags')).toContainText('missing from the translation: 1 /1 2/');

  await page.keyboard.type('Pulse ');
  await page.keyboard.press('Control+Comma');
  await page.keyboard.type('Imprimir');
  await page.keyboard.press('Control+Comma');
  await page.keyboard.type(' para empezar ');
  await page.keyboard.press('Control+Alt+Digit2');
  await page.keyboard.type('ya.');
  await expect(editor.locator('.lp-tag-chip')).toHaveCount(3);
  await expect(page.getByTestId('edit-0-tags')).not.toContainText('missing');
  // Backspace after "ya." and then once more: the standalone chip goes whole.
  for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace');
  await expect(editor.locator('.lp-tag-chip')).toHaveCount(2);
  await expect(page.getByTestId('edit-0-tags')).toContainText('missing from the translation: 2/');
  await page.keyboard.press('Control+Alt+Digit2');
  await page.keyboard.type('ya.');
  await page.getByTestId('save-0').click();
  await expect(editor).toBeHidden();
  await expect(page.getByTestId('target-0').locator('.lp-tag-chip')).toHaveCount(3);
  await expect(page.getByTestId('target-0')).toContainText('Imprimir');
  const units = await admin.call<{ records: Array<{ target: string }> }>('GET', `/transFile/units/${row!.id}`);
  expect(units.records[0]!.target).toBe('Pulse <1>Imprimir</1> para empezar <2/>ya.');

  // The old glyphs typed as text are refused, naming the tag, and the paragraph keeps its translation.
  await page.getByTestId('edit-button-0').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('Pulse ⟨1⟩Imprimir⟨/1⟩ para empezar ya.');
  await page.getByTestId('save-0').click();
  await expect(page.getByText('The tags of the translation do not match the source: tag <1> is missing')).toBeVisible();
  await expect(editor).toBeVisible();
  const after = await admin.call<{ records: Array<{ target: string }> }>('GET', `/transFile/units/${row!.id}`);
  expect(after.records[0]!.target).toBe('Pulse <1>Imprimir</1> para empezar <2/>ya.');
});
