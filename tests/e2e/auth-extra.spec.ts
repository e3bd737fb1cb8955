import { expect, test, type Page } from '@playwright/test';
import * as XLSX from '@e965/xlsx';
import { Api, login, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Sign-in and shell features of spec 01 (issue 3) that auth.spec.ts and shell.spec.ts leave out:
 * the landing slider puzzle, guest sign-in, the forced password change, the settings panel and
 * the API key reset confirmation. Every global switch turned on here is put back in a finally
 * block, since all specs share one server.
 */

const PASSWORD = 'E2e-extra-pass-1';

async function english(page: Page) {
  await page.context().addCookies([{ name: 'locale', value: 'en-US', url: baseUrl() }]);
}

async function configValue(admin: Api, key: string): Promise<string> {
  return (await admin.call<{ configValue: string }>('GET', `/systemConfig/getOneConfigInfo?configKey=${key}`)).configValue;
}

/** A fresh account in a fresh department whose role sees /hello only. */
async function helloUser(admin: Api, prefix: string): Promise<string> {
  const role = await admin.role(unique(`e2e-${prefix}-`), ['/hello']);
  const department = await admin.department(unique(`dept-${prefix}-`));
  const username = unique(prefix);
  await admin.user(username, PASSWORD, [department], [role]);
  return username;
}

/**
 * Finds the hole of the slider puzzle the way a person does, by looking at the picture: the
 * server draws the hole's rim in flat grey (230, 230, 230), so the hole's left side is the first
 * column whose 40 pixels below the piece's top are nearly all that grey.
 */
async function holeX(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const [bg, piece] = Array.from(document.querySelectorAll<HTMLImageElement>('.lp-slider-picture img'));
    await Promise.all([bg, piece].map((img) => img.decode()));
    const top = Math.round(parseFloat(piece.style.top));
    const canvas = document.createElement('canvas');
    canvas.width = bg.naturalWidth;
    canvas.height = bg.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bg, 0, 0);
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const rim = (x: number, y: number) => {
      const i = (y * canvas.width + x) * 4;
      return data[i] === 230 && data[i + 1] === 230 && data[i + 2] === 230;
    };
    for (let x = 0; x < canvas.width; x++) {
      let hits = 0;
      for (let y = top; y < top + 40 && y < canvas.height; y++) if (rim(x, y)) hits++;
      if (hits >= 36) return x;
    }
    return -1;
  });
}

/** Drags the slider handle `dx` pixels to the right with a real mouse. */
async function drag(page: Page, dx: number) {
  const box = (await page.getByTestId('slider-handle').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 12 });
  await page.mouse.up();
}

test('slider puzzle: shown while LANDING_SLIDER is on; a wrong drag and a login without ticket are refused; the solved puzzle lets the login through', async ({ page }) => {
  // The API session is taken before the switch goes on: with it on, every login needs a ticket.
  const admin = await Api.signIn();
  const username = await helloUser(admin, 'slider');
  const before = await configValue(admin, 'LANDING_SLIDER');
  try {
    await admin.setConfig('LANDING_SLIDER', '1');
    await english(page);
    await page.goto(`${baseUrl()}/login`);
    const puzzle = page.getByTestId('slider-puzzle');
    await expect(puzzle).toBeVisible();
    await expect(puzzle.locator('.lp-slider-picture img')).toHaveCount(2);

    // The server refuses a login that carries no ticket, whatever the page does.
    const bare = await login(username, PASSWORD);
    expect(bare.code).not.toBe(200);
    // The API helper sends no locale: the server answers in Chinese, the console's default.
    expect(bare.msg).toBe('请先完成滑块验证');
    // So does the page, before it asks the server.
    await page.getByTestId('login-username').fill(username);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('Complete the slider puzzle first');
    await expect(page).toHaveURL(/\/login/);

    // A drag 60 px off the hole is refused, and a new puzzle replaces the answered one.
    const firstPicture = await puzzle.locator('.lp-slider-picture img').first().getAttribute('src');
    const gap = await holeX(page);
    expect(gap).toBeGreaterThan(0);
    await drag(page, gap > 120 ? gap - 60 : gap + 60);
    await expect(puzzle).toHaveAttribute('data-status', 'failed');
    await expect(page.getByTestId('slider-message')).toContainText('not in place');
    await expect(puzzle).toHaveAttribute('data-status', 'idle');
    await expect(puzzle.locator('.lp-slider-picture img').first()).not.toHaveAttribute('src', firstPicture!);

    // Solved from the new picture: the piece goes into its gap and the login goes through.
    const solved = await holeX(page);
    expect(solved).toBeGreaterThan(0);
    await drag(page, solved);
    await expect(puzzle).toHaveAttribute('data-status', 'ok');
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/hello$/);
    await expect(page.getByTestId('sidebar')).toBeVisible();
  } finally {
    await admin.setConfig('LANDING_SLIDER', before);
  }
  // With the switch back off a plain login works again (and the login page shows no puzzle).
  expect((await login(username, PASSWORD)).code).toBe(200);
});

test('guest sign-in: with GUEST_LOGIN on the guest button enters a permitted page; off, there is no button and the server refuses', async ({ page }) => {
  const admin = await Api.signIn();
  const before = await configValue(admin, 'GUEST_LOGIN');
  let guestRole: { id: number; permissionIds: number[] } | null = null;
  try {
    await admin.setConfig('GUEST_LOGIN', '1');
    // The first guest sign-in makes the guest account and its role; administrators grant that role
    // what guests may see (without menus a session is signed out again).
    const first = await fetch(`${baseUrl()}/api/user/getGuestUser`).then((r) => r.json() as Promise<{ code: number }>);
    expect(first.code).toBe(200);
    const roles = await admin.call<{ id: number; name: string }[]>('GET', '/role/list');
    // The seeded guest role reads in the reader's language (the API helper reads in English).
    const role = roles.find((r) => r.name === 'Guest');
    expect(role, 'the guest role exists after the first guest sign-in').toBeTruthy();
    const current = await admin.call<{ permissionIds: number[] }>('GET', `/role/permissions/${role!.id}`);
    guestRole = { id: role!.id, permissionIds: current.permissionIds };
    await admin.call('PUT', `/role/permissions/${role!.id}`, { permissionIds: [...new Set([...current.permissionIds, ...(await admin.permissionIds(['/hello']))])] });

    await english(page);
    await page.goto(`${baseUrl()}/login`);
    await page.getByTestId('login-guest').click();
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByTestId('sidebar').locator('a[href="/hello"]')).toBeVisible();
    await page.goto(`${baseUrl()}/hello`);
    await expect(page).toHaveURL(/\/hello$/);
    await expect(page.getByTestId('user-name')).toHaveText('Guest');

    await admin.setConfig('GUEST_LOGIN', '0');
    const other = await page.context().browser()!.newPage();
    try {
      await english(other);
      await other.goto(`${baseUrl()}/login`);
      await expect(other.getByTestId('login-submit')).toBeVisible();
      // The flags have been read once the SSO button (an identity provider is configured for the suite) is there.
      await expect(other.getByTestId('login-sso')).toBeVisible();
      await expect(other.getByTestId('login-guest')).toHaveCount(0);
    } finally {
      await other.close();
    }
    const refused = await fetch(`${baseUrl()}/api/user/getGuestUser`).then((r) => r.json() as Promise<{ code: number }>);
    expect(refused.code).not.toBe(200);
  } finally {
    await admin.setConfig('GUEST_LOGIN', before);
    if (guestRole) await admin.call('PUT', `/role/permissions/${guestRole.id}`, { permissionIds: guestRole.permissionIds });
  }
});

test('a password that must be changed: login opens the change dialog, the new password is set and then enters the console', async ({ page }) => {
  const admin = await Api.signIn();
  const role = await admin.role(unique('e2e-force-'), ['/hello']);
  const department = await admin.department(unique('dept-force-'));
  // An imported account must change its password at first sign-in (the administrator's demand,
  // the same state as an expired password: login answers 4014). The user list has no API that
  // backdates a password, so the import is the way to this state without touching the database.
  const username = unique('force');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([
    ['User name', 'Real name', 'Email', 'Phone', 'Employee number', 'Memo'],
    [username, 'Forced Change', '', '', '', ''],
  ]), 'users');
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer)], { type: 'application/vnd.ms-excel' }), 'users.xls');
  const imported = (await (await fetch(`${baseUrl()}/api/user/importUsers`, { method: 'POST', headers: { Jwt: admin.token, 'Accept-Language': 'en-US' }, body: form })).json()) as { code: number; data: { imported: number } };
  expect(imported.code).toBe(200);
  expect(imported.data.imported).toBe(1);
  // A known password and a role with a menu; an edit keeps the demand for a change.
  const list = await admin.call<{ records: { id: number; username: string }[] }>('GET', `/user/getAllUserByPage?username=${username}&pageNum=1&pageSize=10`);
  const user = list.records.find((r) => r.username === username)!;
  await admin.call('PUT', '/user/update', { id: user.id, username, realName: 'Forced Change', departmentIds: [department], roleIds: [role], password: PASSWORD, confirmPassword: PASSWORD });
  expect((await login(username, PASSWORD)).code).toBe(4014);

  await english(page);
  await page.goto(`${baseUrl()}/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('force-new')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  const next = 'E2e-extra-new-2';
  await page.getByTestId('force-old').fill(PASSWORD);
  await page.getByTestId('force-new').fill(next);
  await page.getByTestId('force-confirm').fill(next);
  await page.getByTestId('force-submit').click();
  await expect(page.getByTestId('force-new')).toHaveCount(0);
  await expect(page.getByTestId('login-info')).toHaveText('Password changed. Sign in with the new password.');
  // The old password no longer works; the new one enters.
  expect((await login(username, PASSWORD)).code).not.toBe(200);
  await page.getByTestId('login-password').fill(next);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/hello$/);
  await expect(page.getByTestId('sidebar')).toBeVisible();
});

test('settings panel: a theme colour and the tab bar switched off are still applied after a reload', async ({ page }) => {
  await signIn(page);
  const theme = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--lp-theme').trim().toLowerCase());
  const start = await theme();
  const colour = start === '#13c2c2' ? '#fa541c' : '#13c2c2';
  await expect(page.getByTestId('tags-view')).toBeVisible();

  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-panel')).toBeVisible();
  await page.getByTestId(`theme-${colour.slice(1)}`).click();
  await expect.poll(theme).toBe(colour);
  await page.getByTestId('settings-panel').getByText('Show the tab bar').click();
  await expect(page.getByTestId('tags-view')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings-panel')).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('sidebar')).toBeVisible();
  expect(await theme()).toBe(colour);
  await expect(page.getByTestId('tags-view')).toHaveCount(0);
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId(`theme-${colour.slice(1)}`)).toHaveClass(/lp-swatch-on/);
  await expect(page.getByTestId('settings-panel').getByRole('checkbox', { name: 'Show the tab bar' })).not.toBeChecked();
});

test('API key: a new account says it has none and creates one; the key is masked by 16 asterisks, shown on toggle, copied, and the next change is dated', async ({ page, context }) => {
  const admin = await Api.signIn();
  const username = await helloUser(admin, 'apikey');
  const own = await Api.signIn(username, PASSWORD);
  // A new account has no key until it makes one.
  expect((await own.call<{ apiKey: string | null }>('GET', '/user/getApiKey')).apiKey).toBeNull();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  await signIn(page, username, PASSWORD);
  await page.getByTestId('user-button').click();
  await page.getByTestId('user-settings').click();
  await page.getByRole('tab', { name: 'API key' }).click();
  await expect(page.getByTestId('apikey-none')).toHaveText('No API key yet. Create one to call the API from other programs.');
  await expect(page.getByTestId('apikey-value')).toHaveCount(0);
  await page.getByTestId('apikey-create').click();

  const value = page.getByTestId('apikey-value');
  await expect(value).toHaveValue('*'.repeat(16));
  const fresh = (await own.call<{ apiKey: string }>('GET', '/user/getApiKey')).apiKey;
  expect(fresh).toBeTruthy();
  await page.getByTestId('apikey-toggle').click();
  await expect(value).toHaveValue(fresh);
  await page.getByTestId('apikey-toggle').click();
  await expect(value).toHaveValue('*'.repeat(16));
  await page.getByTestId('apikey-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(fresh);
  // Changed once today: the next change is dated in the console's format, and reset waits for it.
  await expect(page.getByTestId('apikey-next')).toContainText(/next change possible at \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await expect(page.getByTestId('apikey-reset')).toBeDisabled();
});
