import { expect, test } from '@playwright/test';
import { available } from '../../plugin-sdk/src/testing/requirements.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Language packs on the engines screen (issue: more languages translated): the administrator finds a
 * pack by its name, installs it (apt-get and dpkg for real, from a repository on disk the suite set up),
 * watches it become installed, and removes it after a confirmation.
 */

const PACK = 'apertium-qaa-qab';

test('an administrator installs a language pack from the engines screen and removes it again', async ({ page }) => {
  test.skip(!available('root (apt-get installs language packs)', process.getuid?.() === 0), 'apt-get needs root');
  test.setTimeout(150_000);
  await signIn(page);
  await page.goto(`${baseUrl()}/service`);
  const card = page.getByTestId('language-packs');
  await expect(card).toBeVisible();
  await card.getByRole('textbox', { name: 'Search languages' }).fill('qaa');
  const row = card.getByTestId(`pack-${PACK}`);
  await expect(row).toContainText('Not installed');
  await card.getByRole('textbox', { name: 'Search languages' }).fill('no such language');
  await expect(card).toContainText('No language pack matches');
  await card.getByRole('textbox', { name: 'Search languages' }).fill('qaa');

  // Blueprint draws the box over its input: the box takes the click.
  await row.locator('.bp6-control-indicator').click();
  await expect(row.getByRole('checkbox')).toBeChecked();
  await card.getByTestId('packs-install').click();
  await expect(row).toContainText('Installed 1.0-1', { timeout: 60_000 });
  await expect(card.getByTestId('packs-progress')).toHaveCount(0);

  await row.locator('.bp6-control-indicator').click();
  await card.getByTestId('packs-remove').click();
  const confirm = page.getByRole('dialog', { name: 'Remove language packs' });
  await expect(confirm).toContainText('qaa');
  await confirm.getByTestId('confirm-ok').click();
  await expect(row).toContainText('Not installed', { timeout: 60_000 });
});
