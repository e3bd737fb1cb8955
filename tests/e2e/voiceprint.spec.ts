import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import config from './playwright.config.js';
import { unique } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/** espeak-ng speech of one synthetic speaker (a voice variant with its pitch and speed), as a WAV. */
function speak(voice: string, pitch: number, speed: number, text: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'voiceprint-e2e-'));
  try {
    const out = join(dir, 'speech.wav');
    execFileSync('espeak-ng', ['-v', voice, '-p', String(pitch), '-s', String(speed), '-w', out, text]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The microphone Chromium is given: one speaker's voice (a 48 kHz WAV it loops), made when the file loads. */
const MIC_SPEAKER = { voice: 'en+f1', pitch: 58, speed: 170 };
const micWav = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'voiceprint-mic-'));
  const raw = join(dir, 'raw.wav');
  const out = join(dir, 'microphone.wav');
  execFileSync('espeak-ng', ['-v', MIC_SPEAKER.voice, '-p', String(MIC_SPEAKER.pitch), '-s', String(MIC_SPEAKER.speed), '-w', raw, 'My favourite season is autumn, when the leaves turn red and gold in the park. Please send the signed contract to our office before the end of the week.']);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', raw, '-ac', '1', '-ar', '48000', '-c:a', 'pcm_s16le', out]);
  return out;
})();
test.afterAll(() => rmSync(join(micWav, '..'), { recursive: true, force: true }));

// Chromium's microphone is that file for every scenario here (the browser's prompt answers no unless granted).
test.use({
  launchOptions: {
    ...config.use!.launchOptions,
    args: [...(config.use!.launchOptions!.args ?? []), '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${micWav}`],
  },
});

/**
 * Voiceprints in Chromium against the real server: the administrator enrols two speakers by uploading
 * two recordings each, waits for the department's model to be trained, and identifies a sentence that
 * neither enrolment contains.
 */
test('an administrator enrols two speakers by upload and identifies a held-out recording', async ({ page }) => {
  test.setTimeout(180_000);
  const speakers = [
    { name: unique('Ann '), voice: 'en+f3', pitch: 70, speed: 160 },
    { name: unique('Ben '), voice: 'en-us+m2', pitch: 40, speed: 150 },
  ];
  const enrolTexts = ['The quick brown fox jumps over the lazy dog near the quiet river bank.', 'Please send the signed contract to our office before the end of the week.'];
  await signIn(page);
  await page.goto(`${baseUrl()}/voiceprintRecognition`);
  await expect(page.getByTestId('voiceprint-view')).toBeVisible();

  for (const s of speakers) {
    await page.getByTestId('voiceprint-enrol').click();
    const dialog = page.getByRole('dialog', { name: 'Enrol speaker' });
    await dialog.locator('#voiceprint-name').fill(s.name);
    await dialog.locator('input[type=file]').setInputFiles(enrolTexts.map((text, i) => ({ name: `${s.name.trim()}-${i + 1}.wav`, mimeType: 'audio/wav', buffer: speak(s.voice, s.pitch, s.speed, text) })));
    await expect(dialog).toContainText(`${s.name.trim()}-2.wav`);
    await dialog.getByTestId('voiceprint-enrol-submit').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(s.name) })).toBeVisible();
  }

  // The department's model trains as a task; the page follows it until both speakers are ready.
  await expect(page.getByTestId('voiceprint-status')).toContainText('Model trained', { timeout: 120_000 });
  for (const s of speakers) await expect(page.getByRole('row', { name: new RegExp(s.name) })).toContainText('Ready');
  // Made by the built-in speaker node: its method and the threshold it suggests.
  await expect(page.getByTestId('voiceprint-method')).toHaveText('Method mfcc-gmm-ubm/1, threshold 1.2');

  const held = speakers[1]!;
  await page.getByTestId('voiceprint-identify-file').setInputFiles({ name: 'who-is-this.wav', mimeType: 'audio/wav', buffer: speak(held.voice, held.pitch, held.speed, 'Yesterday the train from the northern city arrived almost two hours late.') });
  await page.getByRole('button', { name: 'Identify the speaker' }).click();
  const result = page.getByTestId('voiceprint-identify-result');
  await expect(result).toContainText(`Speaker: ${held.name}`, { timeout: 30_000 });
  await expect(result.getByRole('row')).toHaveCount(3);
  await expect(result).toContainText('Scores of the method mfcc-gmm-ubm/1');
});

test.describe('from the microphone', () => {
  test('a refused microphone shows the permission note; granted, a speaker is enrolled from recordings and identified', async ({ page, context }) => {
    test.setTimeout(180_000);
    const name = unique('Cleo ');
    await signIn(page);
    await page.goto(`${baseUrl()}/voiceprintRecognition`);
    await page.getByTestId('voiceprint-enrol').click();
    const dialog = page.getByRole('dialog', { name: 'Enrol speaker' });
    await dialog.getByTestId('voiceprint-record').click();
    await expect(dialog.getByTestId('voiceprint-microphone-note')).toContainText('microphone permission was refused');

    await context.grantPermissions(['microphone'], { origin: baseUrl() });
    await dialog.locator('#voiceprint-name').fill(name);
    for (const take of [1, 2]) {
      await dialog.getByTestId('voiceprint-record').click();
      await expect(dialog.getByTestId('voiceprint-record-stop')).toContainText('(5 s)', { timeout: 15_000 });
      await dialog.getByTestId('voiceprint-record-stop').click();
      await expect(dialog).toContainText(new RegExp(`recording-${take}\\.(webm|ogg|m4a)`));
    }
    await dialog.getByTestId('voiceprint-enrol-submit').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Ready', { timeout: 120_000 });

    await page.getByTestId('voiceprint-identify-file').setInputFiles({ name: 'who.wav', mimeType: 'audio/wav', buffer: speak(MIC_SPEAKER.voice, MIC_SPEAKER.pitch, MIC_SPEAKER.speed, 'Seven children were playing football in the garden behind the old school.') });
    await page.getByRole('button', { name: 'Identify the speaker' }).click();
    await expect(page.getByTestId('voiceprint-identify-result')).toContainText(`Speaker: ${name}`, { timeout: 30_000 });
  });
});
