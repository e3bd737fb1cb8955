import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Picture translation in Chromium against the real server (tesseract, the queue, Apertium): a user
 * uploads a photographed sign on /transPic, sees it completed, opens /fileViewPic with the original
 * and the translated picture and their blocks, edits a block and sees the translated picture drawn
 * again (tesseract reads the edit in the downloaded picture).
 */

/** The "photo" of a sign: dark green text on a light green panel on a grey wall, a little noise. */
function signPhoto(): Buffer {
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
  const c = createCanvas(800, 450);
  const g = c.getContext('2d');
  g.fillStyle = '#7d8288';
  g.fillRect(0, 0, 800, 450);
  g.fillStyle = '#e6f4e8';
  g.fillRect(40, 40, 720, 370);
  g.fillStyle = '#0b3d1a';
  g.textBaseline = 'top';
  g.font = 'bold 56px "DejaVu Sans"';
  g.fillText('EMERGENCY EXIT', 80, 90);
  g.font = 'bold 32px "DejaVu Sans"';
  g.fillText('Keep this door closed', 80, 240);
  const image = g.getImageData(0, 0, 800, 450);
  let seed = 7;
  for (let i = 0; i < image.data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const n = (seed % 13) - 6;
    for (let k = 0; k < 3; k++) image.data[i + k] = Math.max(0, Math.min(255, image.data[i + k]! + n));
  }
  g.putImageData(image, 0, 0);
  return c.toBuffer('image/jpeg', 90);
}

test('a photographed sign is translated into a picture, and editing a block draws it again', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'pics-e2e-'));
  const name = `${unique('sign-')}.jpg`;
  writeFileSync(join(dir, name), signPhoto());
  writeFileSync(join(dir, 'notes.png'), 'not a picture at all');

  await signIn(page);
  await page.goto(`${baseUrl()}/transPic`);
  await expect(page.getByTestId('trans-pic')).toBeVisible();
  await page.getByTestId('pic-open-upload').click();
  const dialog = page.getByTestId('pic-upload-dialog');
  await expect(dialog).toBeVisible();

  // A text file named .png passes the browser's check by name; the server refuses it by content.
  await page.getByTestId('pic-file-input').setInputFiles(join(dir, 'notes.png'));
  await page.getByTestId('pic-source-language').selectOption('en');
  await page.getByTestId('pic-target-language').selectOption('es');
  await page.getByTestId('pic-start-upload').click();
  await expect(page.getByTestId('pic-upload-error')).toContainText('notes.png: not a supported picture');
  await page.getByTestId('pic-chosen-files').getByRole('button', { name: 'Remove this file' }).click();

  await page.getByTestId('pic-file-input').setInputFiles(join(dir, name));
  await page.getByTestId('pic-start-upload').click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row).toBeVisible();
  await expect(row.locator('[data-testid^="pic-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });

  await row.locator('[data-testid^="pic-view-"]').click();
  await expect(page).toHaveURL(/\/fileViewPic\?id=\d+/);
  await expect(page.getByTestId('pic-source')).toBeVisible();
  await expect(page.getByTestId('pic-target')).toBeVisible();
  await expect(page.getByTestId('pic-source-0')).toHaveText('EMERGENCY EXIT');
  await expect(page.getByTestId('pic-source-1')).toHaveText('Keep this door closed');
  // The blocks are outlined on both pictures, and Apertium's translation is there.
  await expect(page.getByTestId('pic-source-box-0')).toBeVisible();
  await expect(page.getByTestId('pic-target-box-1')).toBeVisible();
  await expect(page.getByTestId('pic-target-1')).not.toHaveText('Keep this door closed');
  await expect(page.getByTestId('pic-target-1')).not.toHaveText('—');
  const before = await page.getByTestId('pic-target').getAttribute('src');

  await page.getByTestId('pic-edit-0').click();
  await page.getByTestId('pic-edit-text-0').fill('SALIDA DE EMERGENCIA');
  await page.getByTestId('pic-save-0').click();
  await expect(page.getByTestId('pic-target-0')).toHaveText('SALIDA DE EMERGENCIA', { timeout: 60_000 });
  await expect(page.getByTestId('pic-target')).toHaveAttribute('data-version', '1');
  await expect(page.getByTestId('pic-target')).not.toHaveAttribute('src', before!);

  const downloading = page.waitForEvent('download');
  await page.getByTestId('pic-view-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(name.replace('.jpg', '_es.jpg'));
  const read = execFileSync('tesseract', [(await download.path())!, '-', '-l', 'eng'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  expect(read).toContain('SALIDA DE EMERGENCIA');
  expect(read).not.toContain('EMERGENCY EXIT');

  const text = page.waitForEvent('download');
  await page.getByTestId('pic-view-download-text').click();
  const bilingual = readFileSync((await (await text).path())!, 'utf8');
  expect(bilingual.split('\n').slice(0, 2)).toEqual(['EMERGENCY EXIT', 'SALIDA DE EMERGENCIA']);
});
