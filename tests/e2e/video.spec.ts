import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Api, unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Audio/video conversion in Chromium against the real server and ffmpeg: a user who may only use
 * /video converts a short spoken WAV (espeak-ng) to MP3 and cuts a one-second clip out of it, downloads
 * both and ffprobe reads them back; then deletes a job after confirming.
 */

function probe(path: string): { format: { format_name: string; duration: string }; streams: Array<{ codec_name: string }> } {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]).toString());
}

test('a user converts a wav to mp3 and cuts a clip, and downloads both', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'video-e2e-'));
  const talk = `${unique('talk-')}.wav`;
  const clip = `${unique('clip-')}.wav`;
  execFileSync('espeak-ng', ['-v', 'en', '-w', join(dir, talk), 'Converting a short recording keeps every spoken word in place.']);
  copyFileSync(join(dir, talk), join(dir, clip));

  // A user whose role holds the /video menu and its use button only.
  const admin = await Api.signIn();
  const tree = await admin.call<Array<{ id: number; key: string; children?: unknown[] }>>('GET', '/permissionMenu/getAllPermissionMenu');
  const ids: number[] = [];
  const walk = (nodes: Array<{ id: number; key: string; children?: unknown[] }>) => nodes.forEach((n) => (['menu:/video', 'video:use'].includes(n.key) && ids.push(n.id), walk((n.children ?? []) as typeof nodes)));
  walk(tree);
  expect(ids).toHaveLength(2);
  const created = await admin.call<{ id: number } | number>('POST', '/role/add', { name: unique('e2e-video-'), description: 'e2e' });
  const role = typeof created === 'number' ? created : created.id;
  await admin.call('PUT', `/role/permissions/${role}`, { permissionIds: ids });
  const department = await admin.department(unique('e2e-video-dept-'));
  const username = unique('video');
  await admin.user(username, 'E2e-video-pass-1', [department], [role]);

  await signIn(page, username, 'E2e-video-pass-1');
  await page.goto(`${baseUrl()}/video`);
  await expect(page.getByTestId('video-view')).toBeVisible();
  await expect(page.getByTestId('video-view')).toContainText('No jobs yet');

  // Convert: the default operation; MP3 chosen explicitly.
  await page.getByTestId('video-to').selectOption('mp3');
  await page.getByTestId('video-input').setInputFiles(join(dir, talk));
  await expect(page.getByTestId('video-chosen')).toContainText(talk);
  await page.getByTestId('video-start-job').click();
  const converted = page.getByRole('row', { name: new RegExp(talk.replace(/[.]/g, '\\.')) });
  await expect(converted.locator('[data-testid^="video-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(converted).toContainText('Convert format → MP3');
  let downloading = page.waitForEvent('download');
  await converted.locator('[data-testid^="video-download-"]').click();
  let download = await downloading;
  expect(download.suggestedFilename()).toBe(talk.replace('.wav', '.mp3'));
  const mp3 = probe((await download.path())!);
  expect(mp3.format.format_name).toBe('mp3');
  expect(mp3.streams[0]!.codec_name).toBe('mp3');

  // Cut from 0.5 s to 1.5 s, written as WAV.
  await page.getByTestId('video-new').locator('label', { hasText: 'Cut a clip' }).click();
  await expect(page.getByTestId('video-operation-cut')).toBeChecked();
  await page.getByTestId('video-to').selectOption('wav');
  await page.getByTestId('video-start').fill('0.5');
  await page.getByTestId('video-end').fill('0:01.5');
  await page.getByTestId('video-input').setInputFiles(join(dir, clip));
  await page.getByTestId('video-start-job').click();
  const cut = page.getByRole('row', { name: new RegExp(clip.replace(/[.]/g, '\\.')) });
  await expect(cut.locator('[data-testid^="video-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(cut).toContainText('Cut 0:00.5–0:01.5 → WAV');
  downloading = page.waitForEvent('download');
  await cut.locator('[data-testid^="video-download-"]').click();
  download = await downloading;
  expect(download.suggestedFilename()).toBe(clip.replace('.wav', '_0.5-1.5s.wav'));
  const wav = probe((await download.path())!);
  expect(Math.abs(Number(wav.format.duration) - 1)).toBeLessThan(0.1);

  // Deleted after confirming; the other job stays.
  await cut.locator('[data-testid^="video-delete-"]').click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(clip);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(cut).toHaveCount(0);
  await expect(converted).toBeVisible();
});
