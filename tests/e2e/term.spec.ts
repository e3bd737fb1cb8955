import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Term bases in Chromium against the real server: the administrator creates a department term base
 * (their default), adds a term, passes it, imports a TBX from another tool (one term in, one refused
 * with its reason), finds the terms in a text, exports TBX-Basic and reads the review history.
 */
test.describe.configure({ mode: 'serial' });

const TBX = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX-Basic" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>Another tool</p></sourceDesc></fileDesc></martifHeader>
<text><body>
  <termEntry id="t1"><langSet xml:lang="en"><tig><term>load balancer</term></tig></langSet><langSet xml:lang="zh-CN"><tig><term>负载均衡器</term></tig></langSet></termEntry>
  <termEntry id="t2"><langSet xml:lang="en"><tig><term>12345</term></tig></langSet><langSet xml:lang="zh-CN"><tig><term>一二三</term></tig></langSet></termEntry>
</body></text></martif>`;

test('an administrator builds a term base, reviews, exchanges TBX and finds its terms in a text', async ({ page }) => {
  test.setTimeout(120_000);
  const name = unique('Terms ');
  const word = unique('gateway').replace(/[^a-z]/gi, '').toLowerCase();
  await signIn(page);
  await page.goto(`${baseUrl()}/term`);
  await expect(page.getByTestId('term-view')).toBeVisible();

  await page.getByTestId('term-add-base').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('#field-name').fill(name);
  await dialog.locator('#field-ownership').selectOption('department');
  await dialog.getByText('My default term base').click();
  await dialog.getByTestId('form-submit').click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: new RegExp(`^${name} \\(0\\)$`) }).click();

  await page.getByTestId('term-add-entry').click();
  const entry = page.getByRole('dialog');
  await entry.locator('#field-source').fill(word);
  await entry.locator('#field-target').fill('网关');
  await entry.getByTestId('form-submit').click();
  await expect(entry).toBeHidden();
  // The terms grid: the newest term is its first row (cells carry their row's index).
  const row = page.getByTestId('term-entry-table').locator('[data-row="0"]');
  await expect(row.first()).toHaveText(word);
  await expect(row.filter({ hasText: /^Unchecked$/ })).toHaveCount(1);
  await row.first().click();
  await page.getByTestId('term-pass').click();
  await expect(row.filter({ hasText: /^Checked$/ })).toHaveCount(1);

  const dir = mkdtempSync(join(tmpdir(), 'term-e2e-'));
  writeFileSync(join(dir, 'other.tbx'), TBX);
  await page.getByTestId('term-import-files').setInputFiles(join(dir, 'other.tbx'));
  await page.getByTestId('term-import-submit').click();
  await expect(page.getByTestId('term-import-report')).toContainText('1 terms imported, 1 rejected');
  await expect(page.getByTestId('term-import-report')).toContainText('other.tbx #');
  await expect(page.getByTestId('term-entry-table')).toContainText('负载均衡器');

  // Recognition: both terms in a sentence, the longer one whole.
  const recognise = page.getByTestId('term-recognise');
  await recognise.getByRole('textbox').fill(`The ${word} sends traffic to the load balancer.`);
  await recognise.getByRole('button', { name: 'Find' }).click();
  await expect(recognise.locator('mark')).toHaveText([word, 'load balancer']);
  await expect(recognise).toContainText('负载均衡器');

  // The export dialog says what leaves (checked entries by default, the unchecked import left out) before the download.
  await page.getByTestId('term-export-tbx').click();
  await expect(page.getByTestId('term-export-dialog')).toContainText('1');
  const download = page.waitForEvent('download');
  await page.getByTestId('term-export-download').click();
  const tbx = readFileSync((await (await download).path())!, 'utf8');
  expect(tbx).toContain('TBX-Basic');
  expect(tbx).toContain('网关');
  // Only checked terms leave: the imported one is still unchecked.
  expect(tbx).not.toContain('负载均衡器');

  // From text translation: "Add a term" puts one into the default term base, and the next translation
  // uses it (the term hook requires it; Apertium gets it protected and writes the term base's word).
  const coined = `${word}x`;
  const required = `Pasarela${word.slice(-4)}`;
  await page.goto(`${baseUrl()}/transText`);
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('source-text').fill(`The ${coined} is fast.`);
  await page.getByTestId('translate').click();
  await expect(page.getByTestId('target-text')).toHaveValue(new RegExp(coined));
  await page.getByTestId('add-term').click();
  await expect(page.getByTestId('term-add-form').getByRole('combobox')).toHaveValue(/\d+/);
  await page.getByTestId('term-add-source').fill(coined);
  await page.getByTestId('term-add-target').fill(required);
  await page.getByTestId('term-add-save').click();
  await expect(page.getByTestId('term-add-form')).toBeHidden();
  await expect(page.getByTestId('term-panel')).toContainText(`${coined} → ${required}`);
  await page.getByTestId('translate').click();
  await expect(page.getByTestId('target-text')).toHaveValue(new RegExp(required));

  await page.goto(`${baseUrl()}/term`);
  await page.getByRole('button', { name: new RegExp(`^${name} \\(\\d+\\)$`) }).click();
  await page.getByRole('button', { name: 'Term review history' }).click();
  await expect(page.getByTestId('term-history-view')).toBeVisible();
  await expect(page.getByTestId('term-history-table')).toContainText('Passed');
});
