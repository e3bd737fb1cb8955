import { test, expect } from '@playwright/test';
import { baseUrl, signIn } from './support/session.js';

// The plugin runtime against the real server and the fixture plugins of tests/fixtures/plugins.

test('a plugin loads at run time from the registry and renders its view', async ({ page }) => {
  await signIn(page);
  const registry = await page.evaluate(async () => {
    const token = document.cookie.split('; ').find((c) => c.startsWith('lp_token='))?.split('=')[1];
    const res = await fetch('/api/plugins/registry', { headers: { Jwt: decodeURIComponent(token ?? '') } });
    return res.json();
  });
  expect(registry.code).toBe(200);
  expect(registry.data.routes['/hello'].plugin).toBe('hello');
  await page.goto(`${baseUrl()}/hello`);
  await expect(page.getByTestId('hello-view')).toBeVisible();
  await expect(page.getByTestId('hello-view')).toContainText('Hello from a plugin');
});

test('a bundle is fetched only when one of its routes is first visited', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/plugins/second/') && req.url().endsWith('.js')) fetched.push(req.url());
  });
  await signIn(page);
  await page.goto(`${baseUrl()}/hello`);
  await expect(page.getByTestId('hello-view')).toBeVisible();
  expect(fetched).toHaveLength(0);

  await page.locator('a[href="/second"]').first().click();
  await expect(page.getByTestId('second-view')).toBeVisible();
  expect(fetched).toHaveLength(1);

  await page.locator('a[href="/hello"]').first().click();
  await expect(page.getByTestId('hello-view')).toBeVisible();
  await page.locator('a[href="/second"]').first().click();
  await expect(page.getByTestId('second-view')).toBeVisible();
  expect(fetched).toHaveLength(1);
});

test('react is one copy across the host and a plugin', async ({ page }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/hello`);
  const view = page.getByTestId('hello-view');
  await expect(view).toBeVisible();
  await expect(view).toHaveAttribute('data-react-same', 'true');
});

for (const [route, kind] of [
  ['/missing', 'http'],
  ['/tampered', 'integrity'],
  ['/thrower', 'render'],
] as const) {
  test(`a plugin failing with ${kind} at ${route} shows its error while the shell and another plugin keep working`, async ({ page }) => {
    await signIn(page);
    await page.goto(`${baseUrl()}${route}`);
    const panel = page.getByTestId('plugin-error');
    await expect(panel).toBeVisible();
    await expect(panel).toHaveAttribute('data-error-kind', kind);
    // The shell is still there and another plugin still loads from its menu entry.
    await page.locator('a[href="/hello"]').first().click();
    await expect(page.getByTestId('hello-view')).toBeVisible();
    await expect(page.getByTestId('plugin-error')).toHaveCount(0);
  });
}

test('a detail route opens when its parent menu is permitted', async ({ page }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/secondDetail`);
  await expect(page.getByTestId('second-detail-view')).toBeVisible();
});
