import { expect, type Page } from '@playwright/test';

export const baseUrl = () => process.env.E2E_BASE_URL!;

/** Signs in through the real login page (RSA-encrypted password) and waits for the shell. */
export async function signIn(page: Page, username = 'admin', password = process.env.E2E_ADMIN_PASSWORD!, locale = 'en-US') {
  // The console defaults to zh-CN (spec 01 section 1); these scenarios read the English resources.
  await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl() }]);
  await page.goto(`${baseUrl()}/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/\/login/);
  // Wait until sign-in has settled: with one department the console switches to it on its own
  // (a new token replaces the sign-in token), and a page.goto before that answer arrives would
  // abort it and keep a revoked token. A user with several departments stops at the pick.
  await expect(page.getByTestId('sidebar').or(page.locator('[data-testid="login-select"] [data-testid^="department-"]:nth-of-type(2)'))).toBeVisible();
}

/**
 * Closes the open dialog through its own close button and waits until its backdrop is gone. Escape
 * reaches a Blueprint overlay only once focus is inside it, which a busy machine may not have done yet.
 */
export async function closeDialog(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('.bp6-overlay-backdrop')).toHaveCount(0);
}
