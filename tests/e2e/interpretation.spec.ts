import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import config from './playwright.config.js';
import { Api } from './support/api.js';
import { baseUrl, signIn } from './support/session.js';

/** The voice of the microphone, and another one: both enrolled, so the log can say who spoke. */
const MIC_VOICE = { voice: 'en-us', speed: 120 };
const OTHER_VOICE = { voice: 'en+f3', speed: 160 };
const PASSWORD = 'E2e-interp-pass-1';

function speak(who: { voice: string; speed: number }, text: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'interpretation-voice-'));
  try {
    execFileSync('espeak-ng', ['-v', who.voice, '-s', String(who.speed), '-w', join(dir, 'speech.wav'), text]);
    return readFileSync(join(dir, 'speech.wav'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The microphone Chromium is given (it loops the file): a pause, espeak-ng saying a sentence
 * pocketsphinx hears well (slow, at half volume), and two seconds of silence that end the utterance.
 */
const micWav = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'interpretation-mic-'));
  const raw = join(dir, 'raw.wav');
  const out = join(dir, 'microphone.wav');
  execFileSync('espeak-ng', ['-v', MIC_VOICE.voice, '-s', String(MIC_VOICE.speed), '-w', raw, 'The children are playing in the park.']);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', raw, '-af', 'volume=0.5,adelay=700,apad=pad_dur=2.5', '-ac', '1', '-ar', '48000', '-c:a', 'pcm_s16le', out]);
  return out;
})();
test.afterAll(() => rmSync(join(micWav, '..'), { recursive: true, force: true }));

// This spec's Chromium hears that file as its microphone; the permission prompt answers no until granted.
test.use({
  launchOptions: {
    ...config.use!.launchOptions,
    args: [...(config.use!.launchOptions!.args ?? []), '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${micWav}`],
  },
});

test('live captions from the microphone: refused permission shows the note; granted, the sentence, its translation and the enrolled speaker appear and the session is in the log', async ({ page, context }) => {
  test.setTimeout(240_000);
  // An interpreter in a department of their own, where two speakers are enrolled: the microphone's voice and another.
  const admin = await Api.signIn();
  const { username } = await admin.userWith(
    ['/simultaneousInterpretation', '/simultaneousInterpretationLog', '/voiceprintRecognition'],
    ['interpretation:use', 'interpretation:log', 'voiceprint:use', 'voiceprint:enrol'],
    PASSWORD,
    'interpreter',
  );
  const interpreter = await Api.signIn(username, PASSWORD);
  const texts = [
    'The quick brown fox jumps over the lazy dog near the quiet river bank.',
    'Please send the signed contract to our office before the end of the week.',
    'My favourite season is autumn, when the leaves turn red and gold in the park.',
  ];
  for (const [name, who] of [['Mira Lane', MIC_VOICE], ['Tomas Berg', OTHER_VOICE]] as const) {
    await interpreter.upload('/voiceprint/speaker/enrol', { name }, texts.map((t, i) => ({ name: `${name}-${i}.wav`, content: speak(who, t), type: 'audio/wav' })));
  }
  await expect
    .poll(async () => {
      const s = await interpreter.call<{ status: string; upToDate: boolean; error?: string }>('GET', '/voiceprint/status');
      if (s.status === 'failed') throw new Error(`voiceprint training failed: ${s.error}`);
      return s.upToDate && s.status === 'idle';
    }, { timeout: 120_000, intervals: [500] })
    .toBe(true);

  await signIn(page, username, PASSWORD);
  await page.goto(`${baseUrl()}/simultaneousInterpretation`);
  await page.getByTestId('interpretation-source').selectOption('en');
  await page.getByTestId('interpretation-target').selectOption('es');
  await page.getByTestId('interpretation-start').click();
  await expect(page.getByTestId('interpretation-microphone-note')).toContainText('microphone permission was refused');

  await context.grantPermissions(['microphone'], { origin: baseUrl() });
  await page.getByTestId('interpretation-start').click();
  await expect(page.getByTestId('interpretation-live')).toBeVisible({ timeout: 30_000 });
  // The looped sentence is heard, recognised by pocketsphinx and translated by Apertium.
  await expect(page.getByTestId('interpretation-final-source')).toContainText(/playing in the park/i, { timeout: 60_000 });
  await expect(page.getByTestId('interpretation-final-target')).toContainText(/parque/i);
  await expect(page.getByTestId('interpretation-speaker')).toHaveText('Mira Lane');
  // One language only: the transcript line goes, the translation stays.
  await page.getByTestId('interpretation-languages').selectOption('one');
  await expect(page.getByTestId('interpretation-final-source')).toHaveCount(0);
  await expect(page.getByTestId('interpretation-final-target')).toContainText(/parque/i);
  await page.getByTestId('interpretation-stop').click();
  await expect(page.getByTestId('interpretation-start')).toBeVisible({ timeout: 30_000 });

  await page.goto(`${baseUrl()}/simultaneousInterpretationLog`);
  const row = page.getByTestId('interpretation-session-table').locator('tbody tr').first();
  await expect(row).toContainText('English → Spanish');
  await expect(row).toContainText(/playing in the park/i);
  await expect(row).toContainText('Mira Lane');
  await expect(row).not.toContainText('Tomas Berg');
  await row.getByTestId('interpretation-view').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('interpretation-utterances')).toContainText(/parque/i);
  await expect(dialog.getByTestId('interpretation-utterances')).toContainText('Mira Lane');
  const download = page.waitForEvent('download');
  await dialog.getByTestId('interpretation-export-srt').click();
  expect((await download).suggestedFilename()).toMatch(/\.srt$/);
});

test('settings name the speech and translation engines: Automatic by default, a chosen engine kept after saving', async ({ page }) => {
  await signIn(page);
  await page.goto(`${baseUrl()}/simultaneousInterpretingConfiguration`);
  const speech = page.getByTestId('interpretation-config-speech-engine');
  const translation = page.getByTestId('interpretation-config-translation-engine');
  await page.getByTestId('interpretation-config-source').selectOption('en');
  await page.getByTestId('interpretation-config-target').selectOption('es');
  await expect(translation).toHaveValue('');
  await expect(speech).toHaveValue('');
  // Automatic, then the engines for en -> es (the seeded Apertium) and the speech nodes that hear English.
  await expect.poll(() => translation.locator('option').count()).toBeGreaterThan(1);
  await expect.poll(() => speech.locator('option').count()).toBeGreaterThan(1);
  const engine = await translation.locator('option').nth(1).getAttribute('value');
  await translation.selectOption(engine!);
  const saved = page.waitForResponse((r) => r.url().includes('/api/interpretation/config') && r.request().method() === 'PUT');
  await page.getByTestId('interpretation-config-save').click();
  expect((await (await saved).json()).code).toBe(200);
  await page.reload();
  await expect(page.getByTestId('interpretation-config-translation-engine')).toHaveValue(engine!);
  // Back to Automatic, as the other scenarios expect.
  await page.getByTestId('interpretation-config-translation-engine').selectOption('');
  const reset = page.waitForResponse((r) => r.url().includes('/api/interpretation/config') && r.request().method() === 'PUT');
  await page.getByTestId('interpretation-config-save').click();
  expect((await (await reset).json()).code).toBe(200);
  await page.reload();
  await expect(page.getByTestId('interpretation-config-translation-engine')).toHaveValue('');
});
