import { expect, test, type Browser, type Page } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Issue 6 end to end, in Chromium against the real server and its seeded Apertium node: text
 * translation by a new user, the service interrupted and back, and a LibreTranslate client with
 * an API key counted in the usage records. Serial: one scenario stops the shared node.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'E2e-transl-pass-1';
const SENTENCE = 'The cat is sleeping on the red sofa.';

/** A new user whose only role grants these menus (by path) and keys. */
const userWith = (admin: Api, paths: string[], keys: string[]) => admin.userWith(paths, keys, PASSWORD, 'truser');

async function translate(page: Page, text: string) {
  await page.getByTestId('source-text').fill(text);
  await page.getByTestId('translate').click();
}

async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page);
  await page.goto(`${baseUrl()}/service`);
  await expect(page.getByTestId('service-view')).toBeVisible();
  return page;
}

test('a new user translates to Spanish with Apertium, swaps, detects and edits', async ({ page }) => {
  const admin = await Api.signIn();
  const user = await userWith(admin, ['/transText'], ['transText:use']);
  await signIn(page, user.username, PASSWORD);
  await page.goto(`${baseUrl()}/transText`);
  await expect(page.getByTestId('trans-text')).toBeVisible();
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');
  await translate(page, SENTENCE);
  await expect(page.getByTestId('target-text')).toHaveValue(/gato.*sofá rojo/);
  await expect(page.getByTestId('char-counter')).toContainText(`${SENTENCE.length} /`);

  // Swap: the translation becomes the source, Spanish to English.
  await page.getByTestId('swap').click();
  await expect(page.getByTestId('source-language')).toHaveValue('es');
  await expect(page.getByTestId('target-language')).toHaveValue('en');
  await expect(page.getByTestId('source-text')).toHaveValue(/gato/);
  await page.getByTestId('translate').click();
  // The translation, or the error the page shows instead (so a failure says why).
  await expect
    .poll(async () => (await page.getByTestId('target-text').inputValue()) || ((await page.getByTestId('trans-error').count()) ? await page.getByTestId('trans-error').textContent() : ''))
    .toMatch(/cat/i);

  // Detect: English text with the source set to detection.
  await page.getByTestId('source-language').selectOption('auto');
  await page.getByTestId('source-text').fill(SENTENCE);
  await page.getByTestId('detect').click();
  await expect(page.getByTestId('source-language')).toHaveValue('en');
  // German is detected as German, and the page says no engine takes it rather than blaming the text.
  await page.getByTestId('source-language').selectOption('auto');
  await page.getByTestId('source-text').fill('Kannst du mir bitte sagen, wann der nächste Zug nach Hamburg fährt?');
  await page.getByTestId('detect').click();
  await expect(page.getByTestId('trans-error')).toHaveText('No engine translates from German');
  await expect(page.getByTestId('source-language')).toHaveValue('auto');
  await page.getByTestId('source-text').fill(SENTENCE);
  await page.getByTestId('detect').click();
  await expect(page.getByTestId('source-language')).toHaveValue('en');
  await expect(page.getByTestId('trans-error')).toHaveCount(0);

  // Edit the translation and find the edit in the history.
  await page.getByTestId('target-language').selectOption('es');
  await page.getByTestId('translate').click();
  await expect(page.getByTestId('target-text')).toHaveValue(/gato/);
  await page.getByTestId('edit').click();
  await page.getByTestId('target-edit').fill('El gato duerme en el sofá rojo.');
  await page.getByTestId('save-edit').click();
  await expect(page.getByTestId('target-text')).toHaveValue('El gato duerme en el sofá rojo.');
  await expect(page.getByTestId('history')).toContainText('El gato duerme en el sofá rojo.');
});

test('when an administrator stops the node the page says the service is interrupted; once started, translation works again', async ({ page, browser }) => {
  const admin = await Api.signIn();
  const user = await userWith(admin, ['/transText'], ['transText:use']);
  await signIn(page, user.username, PASSWORD);
  await page.goto(`${baseUrl()}/transText`);
  await page.getByTestId('source-language').selectOption('en');
  await page.getByTestId('target-language').selectOption('es');

  const adminUi = await adminPage(browser);
  try {
    await adminUi.getByTestId('stop-node').first().click();
    await expect(adminUi.getByTestId('start-node').first()).toBeVisible();
    await translate(page, SENTENCE);
    await expect(page.getByTestId('trans-error')).toContainText('service is interrupted');
    // The platform status on the home page says the same.
    const home = await adminUi.context().newPage();
    await home.goto(`${baseUrl()}/home`);
    await expect(home.getByTestId('home-engines')).toContainText('no node answering');
    await home.close();
  } finally {
    // Whatever happened above, the shared node must run again for the rest of the suite.
    if (await adminUi.getByTestId('start-node').first().isVisible()) await adminUi.getByTestId('start-node').first().click();
    await expect(adminUi.getByTestId('stop-node').first()).toBeVisible({ timeout: 30_000 });
    await expect(adminUi.getByTestId('node-health').first()).toHaveText('Healthy');
  }
  await page.getByTestId('translate').click();
  await expect(page.getByTestId('target-text')).toHaveValue(/gato/);
  await expect(page.getByTestId('trans-error')).toHaveCount(0);
  const home = await adminUi.context().newPage();
  await home.goto(`${baseUrl()}/home`);
  await expect(home.getByTestId('home-engines')).toContainText(/\d+ of \d+ ready .*\(ready\)/);
  await home.close();
});

test('a LibreTranslate client translates with an API key and the usage record counts it', async ({ page }) => {
  const admin = await Api.signIn();
  const user = await userWith(admin, ['/transText'], ['transText:use']);
  const self = await Api.signIn(user.username, PASSWORD);
  const apiKey = await self.call<string>('GET', `/user/updateApiKey/${user.id}`);
  // Exactly what a LibreTranslate client sends.
  const res = await fetch(`${baseUrl()}/api/lt/translate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ q: SENTENCE, source: 'en', target: 'es', format: 'text', api_key: apiKey }),
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { translatedText: string }).translatedText).toMatch(/gato/);
  const bad = await fetch(`${baseUrl()}/api/lt/translate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ q: SENTENCE, source: 'en', target: 'es', api_key: 'wrong' }) });
  expect(bad.status).toBe(403);
  expect(await bad.json()).toEqual({ error: 'Invalid API key' });

  await expect
    .poll(async () => (await admin.call<{ records: Array<{ username: string; apiCharacters: number }> }>('GET', `/transRecords/list?username=${user.username}`)).records[0]?.apiCharacters)
    .toBe(SENTENCE.length);
  await signIn(page);
  await page.goto(`${baseUrl()}/transRecords`);
  await expect(page.getByTestId(`usage-${user.username}`).getByTestId('usage-text-api')).toHaveText(String(SENTENCE.length));
});
