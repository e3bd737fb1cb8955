import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Issue 22 item 3 end to end, in Chromium against the real server and its Apertium engine: a translator
 * whose default term base holds an enforced term (computer -> computadora, whose gender differs from
 * Apertium's "ordenador") and a forbidden one (warranty -> garantía), and whose default memory holds a
 * sentence without the term. The text translation and a document both come back with the term applied
 * with agreement and the source's case, and every term warning (forbidden, missing) is shown where the
 * result is shown, worded for people, in English and after switching to Chinese.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'E2e-term-warn-1';
const FORBIDDEN_EN = 'The translation uses “garantía”, which the term base forbids for “warranty”';
const FORBIDDEN_ZH = '译文使用了术语库禁用的译法“garantía”（原文“warranty”）';
const MISSING_EN = 'The term “computer” should read “computadora” in the translation';
const MISSING_ZH = '术语“computer”在译文中应译为“computadora”';
// The memory's translation keeps the engine's word, so the term hook finds the term missing (checked, never rewritten).
const REMEMBERED = 'El ordenador está sobre la mesa.';

/** A translator with text and document translation, who uses (not edits) a term base and a memory made their defaults. */
async function translator(): Promise<{ username: string; base: string; memory: string }> {
  const admin = await Api.signIn();
  const user = await admin.userWith(['/transText', '/transFile', '/term', '/TM'], ['transText:use', 'transFile:use', 'term:view', 'tm:view'], PASSWORD, 'termwarn');
  const rights = [{ userId: user.id, use: true, edit: false }];
  const base = unique('Warn terms ');
  const made = await admin.call<{ id: number } | number>('POST', '/term/library/add', { name: base, ownership: 'custom', users: rights });
  const baseId = typeof made === 'number' ? made : made.id;
  for (const [source, target, forbidden] of [['computer', 'computadora', false], ['warranty', 'garantía', true]] as const) {
    await admin.call('POST', '/term/entry/add', { libraryId: baseId, sourceLang: 'en', targetLang: 'es', source, target, forbidden });
  }
  const memory = unique('Warn memory ');
  await admin.call('POST', '/TM/library/add', { name: memory, ownership: 'custom', kind: 'shared', users: rights, isDefault: false });
  const memoryId = (await admin.call<{ records: { id: number; name: string }[] }>('GET', '/TM/library/list?pageNum=1&pageSize=200')).records.find((m) => m.name === memory)!.id;
  await admin.call('POST', '/TM/entry/add', { libraryId: memoryId, source: 'The computer is on the table.', target: REMEMBERED, sourceLang: 'en', targetLang: 'es' });
  // The translator makes both their defaults (a use right is enough).
  const self = await Api.signIn(user.username, PASSWORD);
  await self.call('PUT', '/term/library/default', { id: baseId, isDefault: true });
  await self.call('PUT', '/TM/library/default', { id: memoryId, isDefault: true });
  return { username: user.username, base, memory };
}

let who: Awaited<ReturnType<typeof translator>>;

test.beforeAll(async () => {
  who = await translator();
});

async function switchTo(page: Page, locale: 'zh-CN' | 'en-US') {
  await page.getByTestId('locale-switch').selectOption(locale);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/** No code, key or template left in what people read. */
function expectWorded(texts: string[]) {
  for (const text of texts) expect(text).not.toMatch(/term-(missing|forbidden|not-applied)|\{\{|[a-z]+\.[a-z]+[A-Z]\w*/);
}

test('text translation applies the term with agreement and the source case, and shows the forbidden and missing term warnings in English and Chinese', async ({ page }) => {
  await signIn(page, who.username, PASSWORD);
  await page.goto(`${baseUrl()}/transText`);
  await expect(page.getByTestId('trans-text')).toBeVisible();
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  // The defaults come preselected in the pickers (item 1).
  await expect(page.getByTestId('pick-term-bases').getByRole('checkbox', { name: who.base })).toBeChecked();
  await expect(page.getByTestId('pick-memories').getByRole('checkbox', { name: who.memory })).toBeChecked();

  await page.getByTestId('source-text').fill('The new computer is broken. Computer, screen and printer are new. The warranty is valid. The computer is on the table.');
  await page.getByTestId('translate').click();
  const target = page.getByTestId('target-text');
  // Agreement follows the term's noun (computadora, f.), not the engine's ordenador (m.): never "El computadora".
  await expect(target).toHaveValue(/^La computadora nueva está rota\. /);
  // A sentence opening with the term opens with its capital.
  await expect(target).toHaveValue(/ Computadora, la pantalla y la impresora /);
  await expect(target).toHaveValue(/La garantía es válida\./);
  await expect(target).toHaveValue(new RegExp(`${REMEMBERED}$`));
  const text = await target.inputValue();
  expect(text).not.toMatch(/\b[Ee]l computadora|\bcomputadora nuevo\b| {2}/);

  // The warnings beside the result, worded from their codes.
  const issues = page.getByTestId('term-panel').getByTestId('term-panel-issue');
  await expect(issues).toHaveText([FORBIDDEN_EN, MISSING_EN], { useInnerText: true });
  expectWorded(await issues.allInnerTexts());
  // The memory's sentence is marked as the memory's.
  await expect(page.getByTestId('segment-origins').locator('[data-origin="tm"]')).toContainText(REMEMBERED);

  // The same warnings in Chinese once the console speaks Chinese (no new translation needed).
  await switchTo(page, 'zh-CN');
  await expect(issues).toHaveText([FORBIDDEN_ZH, MISSING_ZH], { useInnerText: true });
  expectWorded(await issues.allInnerTexts());
  await expect(page.getByTestId('target-text')).toHaveValue(text);
});

test('a document translated with the term base shows each term warning on its sentence, in English and Chinese', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'term-warn-e2e-'));
  const name = `${unique('warranty-')}.txt`;
  writeFileSync(join(dir, name), 'The new computer is broken. The warranty is valid.\n\nThe computer is on the table.\n');

  await signIn(page, who.username, PASSWORD);
  await page.goto(`${baseUrl()}/transFile`);
  await page.getByTestId('open-upload').click();
  const dialog = page.getByTestId('upload-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(join(dir, name));
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  // The term base and the memory the translator made their defaults are picked already (item 1).
  await expect(dialog.getByTestId('term-bases').getByRole('checkbox', { name: who.base })).toBeChecked();
  await expect(dialog.getByTestId('memories').getByRole('checkbox', { name: who.memory })).toBeChecked();
  await page.getByTestId('start-upload').click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row.locator('[data-testid^="file-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
  await row.locator('[data-testid^="preview-"]').click();
  await expect(page).toHaveURL(/\/fileView\?id=\d+/);

  // Paragraph 0: the term applied with agreement (no warning on that sentence), the forbidden one warned on the second sentence.
  await expect(page.getByTestId('sentence-0-0')).toContainText('La computadora nueva está rota.');
  await expect(page.getByTestId('sentence-issue-0-0')).toHaveCount(0);
  const forbidden = page.getByTestId('sentence-issue-0-1');
  await expect(page.getByTestId('sentence-0-1')).toContainText('La garantía es válida.');
  await expect(forbidden).toHaveAttribute('data-code', 'term-forbidden');
  await expect(forbidden).toHaveText(FORBIDDEN_EN);
  // Paragraph 1: the memory's sentence, missing the term: warned, not rewritten.
  const missing = page.getByTestId('sentence-issue-1-0');
  await expect(page.getByTestId('sentence-1-0')).toHaveAttribute('data-origin', 'tm:100');
  await expect(page.getByTestId('sentence-1-0')).toContainText(REMEMBERED);
  await expect(missing).toHaveAttribute('data-code', 'term-missing');
  await expect(missing).toHaveText(MISSING_EN);
  expectWorded([await forbidden.innerText(), await missing.innerText()]);

  await switchTo(page, 'zh-CN');
  await expect(forbidden).toHaveText(FORBIDDEN_ZH);
  await expect(missing).toHaveText(MISSING_ZH);
  expectWorded([await forbidden.innerText(), await missing.innerText()]);
});
