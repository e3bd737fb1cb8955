// Figure: what the first visit of a one-view plugin adds on loopback (bundle + locales fetched,
// verified and evaluated), against a visit of a plugin already loaded. Real server, real Chromium.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, startServer } from '../lib/run-server.js';

const ROUNDS = 7;
const dist = join(ROOT, '.tmp', 'bench', 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const registryFile = join(ROOT, 'tests', 'fixtures', 'registry.json');
execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--out', dist, '--registry', registryFile], { cwd: ROOT, stdio: 'ignore' });
const password = 'Bench-admin-Passw0rd';
const server = await startServer({ DIST_DIR: dist, REGISTRY_FILE: registryFile, ADMIN_PASSWORD: password });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const first: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    // Sign-in has settled once the shell shows (the automatic department switch replaces the token).
    await page.getByTestId('sidebar').waitFor();
    await page.locator('a[href="/hello"]').first().click();
    await page.getByTestId('hello-view').waitFor();
    // First visit of `second`: its bundle and locales are fetched now.
    let t = performance.now();
    await page.locator('a[href="/second"]').first().click();
    await page.getByTestId('second-view').waitFor();
    first.push(performance.now() - t);
    // Back to `hello`, already loaded: the cost of a route change alone.
    t = performance.now();
    await page.locator('a[href="/hello"]').first().click();
    await page.getByTestId('hello-view').waitFor();
    warm.push(performance.now() - t);
    await page.close();
  }
  const added = median(first) - median(warm);
  console.log(`plugin first visit: median ${median(first).toFixed(1)} ms, loaded-plugin visit: median ${median(warm).toFixed(1)} ms`);
  console.log(`first visit adds: ${added.toFixed(1)} ms (budget 150 ms, ${ROUNDS} rounds)`);
} finally {
  await browser.close();
  await server.stop();
}
