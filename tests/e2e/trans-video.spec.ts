import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/**
 * Audio and video translation in Chromium against the real server: a short English video made here
 * (espeak-ng speech over a blue picture) is recognised by the seeded pocketsphinx node, translated into
 * Spanish by the seeded Apertium engine and burned in by ffmpeg; the preview shows the Spanish track,
 * switches to the English one, and a corrected transcript line is translated again into the subtitles.
 */

const SENTENCE = 'The children are playing in the park.';

/** Pixels much brighter in red and green than the blue background: subtitle letters. */
function lightPixels(video: string, seconds: number): number {
  const rgb = execFileSync('ffmpeg', ['-v', 'error', '-ss', seconds.toFixed(2), '-i', video, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
  let n = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) if (rgb[i]! > 160 && rgb[i + 1]! > 160) n++;
  return n;
}

/** The cues of the player's text track labelled `label` (loaded once the track is showing or hidden). */
async function trackCues(page: Page, label: string): Promise<string[]> {
  return page.getByTestId('tv-player').evaluate((el, wanted) => {
    const track = Array.from((el as HTMLVideoElement).textTracks).find((t) => t.label === wanted);
    return track?.cues ? Array.from(track.cues).map((c) => (c as VTTCue).text) : [];
  }, label);
}

async function showing(page: Page): Promise<string[]> {
  return page.getByTestId('tv-player').evaluate((el) => Array.from((el as HTMLVideoElement).textTracks).filter((t) => t.mode === 'showing').map((t) => t.label));
}

test('a user translates an English video into Spanish subtitles, burns them in and corrects a line', async ({ page }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'trans-video-e2e-'));
  const name = `${unique('talk-')}.mp4`;
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', join(dir, 'speech.wav'), SENTENCE]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=320x240:rate=10', '-i', join(dir, 'speech.wav'), '-af', 'volume=0.5,apad=pad_dur=0.5', '-shortest',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', join(dir, name)]);

  await signIn(page);
  // A fresh install has an English speech node, an OCR node and a speaker node: the engines screen lists them (the same card) with their languages.
  await page.goto(`${baseUrl()}/service`);
  await expect(page.getByTestId('speech-nodes').locator('tr', { hasText: 'pocketsphinx-local' })).toContainText('en');
  await expect(page.getByTestId('ocr-nodes').locator('tr', { hasText: 'tesseract-local' })).toContainText('en');
  // And a speaker node, for any language.
  await expect(page.getByTestId('speaker-nodes').locator('tr', { hasText: 'voiceprint-local' })).toContainText(/Any language|任意语言/);
  await page.goto(`${baseUrl()}/transVideo`);
  await expect(page.getByTestId('tv-view')).toBeVisible();
  await page.getByTestId('tv-source').selectOption('en');
  await page.getByTestId('tv-target').selectOption('es');
  await page.getByTestId('tv-burn').selectOption('target');
  await page.getByTestId('tv-input').setInputFiles(join(dir, name));
  await expect(page.getByTestId('tv-chosen')).toContainText(name);
  await page.getByTestId('tv-start').click();

  const row = page.getByRole('row', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  await expect(row.locator('[data-testid^="tv-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(row.locator('[data-testid^="tv-burn-status-"]')).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await row.locator('[data-testid^="tv-open-"]').click();

  // The preview: the transcript with the Spanish line, the Spanish track showing on the video.
  await expect(page.getByTestId('tv-preview')).toBeVisible();
  await expect(page.getByTestId('tv-cue-source-1')).toContainText(/children|park/i);
  const spanish = (await page.getByTestId('tv-cue-target-1').textContent())!.trim();
  expect(spanish).toMatch(/niños|parque/i);
  await expect.poll(() => showing(page)).toEqual(['target']);
  await expect.poll(() => trackCues(page, 'target')).toContain(spanish);
  // The player reads the media itself, in byte ranges (the session cookie stands in for the header): it knows
  // the duration and can seek to the middle without having fetched the whole file first.
  const seekable = () =>
    page.getByTestId('tv-player').evaluate((el) => {
      const v = el as HTMLVideoElement;
      return v.readyState >= 1 && v.seekable.length > 0 && v.seekable.end(0) > 1 && Number.isFinite(v.duration);
    });
  await expect.poll(seekable, { timeout: 20_000 }).toBe(true);
  await page.getByTestId('tv-player').evaluate((el) => {
    const v = el as HTMLVideoElement;
    v.currentTime = v.duration / 2;
  });
  await expect.poll(() => page.getByTestId('tv-player').evaluate((el) => (el as HTMLVideoElement).currentTime > 0)).toBe(true);
  await page.getByTestId('tv-track-source').click();
  await expect.poll(() => showing(page)).toEqual(['source']);
  await expect.poll(() => trackCues(page, 'source')).toContain((await page.getByTestId('tv-cue-source-1').textContent())!.trim());

  // The burned-in video has letters on its blue picture while the line is spoken.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('tv-download-burned').click();
  const burned = await downloading;
  expect(burned.suggestedFilename()).toBe(name.replace('.mp4', '.es.mp4'));
  expect(lightPixels((await burned.path())!, 1.2)).toBeGreaterThan(50);
  expect(lightPixels(join(dir, name), 1.2)).toBe(0);

  // Correcting the recognised text translates it again; the track and the downloaded subtitles follow.
  await page.getByTestId('tv-edit-1').click();
  await page.getByTestId('tv-edit-text').fill('The children are playing in the garden.');
  await page.getByTestId('tv-edit-save').click();
  await expect(page.getByTestId('tv-cue-target-1')).toContainText(/jardín/i);
  const corrected = (await page.getByTestId('tv-cue-target-1').textContent())!.trim();
  await page.getByTestId('tv-track-target').click();
  await expect.poll(() => trackCues(page, 'target')).toContain(corrected);
  await expect(page.getByTestId('tv-burn-stale')).toBeVisible();
  const srtDownload = page.waitForEvent('download');
  await page.getByTestId('tv-download-target-srt').click();
  const srt = readFileSync((await (await srtDownload).path())!, 'utf8');
  expect(srt).toContain(corrected);
  expect(srt).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n/);
});
