import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
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

  const held = speakers[1]!;
  await page.getByTestId('voiceprint-identify-file').setInputFiles({ name: 'who-is-this.wav', mimeType: 'audio/wav', buffer: speak(held.voice, held.pitch, held.speed, 'Yesterday the train from the northern city arrived almost two hours late.') });
  await page.getByRole('button', { name: 'Identify the speaker' }).click();
  const result = page.getByTestId('voiceprint-identify-result');
  await expect(result).toContainText(`Speaker: ${held.name}`, { timeout: 30_000 });
  await expect(result.getByRole('row')).toHaveCount(3);
});
