import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wordErrorRate } from '@linguaport/sdk/server';
import { ADMIN_PASSWORD, startTestKernel } from '@linguaport/sdk/testing';

/**
 * `npm run bench speech`: about 25 s of English speech (espeak-ng, eight sentences with pauses, 16 kHz
 * mono) recognised by Debian's pocketsphinx_continuous run directly on the file (the floor), then the
 * same recording through the platform: uploaded to /transVideo (en -> es), the sound taken out by
 * ffmpeg, recognised by the seeded pocketsphinx node through ctx.engines.speech, cut into cues and
 * translated by Apertium, until the job completes (kernel start-up and Apertium's first start not
 * counted: a warm-up job runs first). Prints real-time factors (time / audio length; target < 0.5
 * for recognition) and the word error rate of both against the script. Best of BENCH_SPEECH_RUNS (2).
 */

const RUNS = Number(process.env.BENCH_SPEECH_RUNS ?? 2);
const SCRIPT = [
  'The children are playing in the park.',
  'I would like to buy a ticket to the city.',
  'Thank you very much for your help.',
  'The weather is nice today.',
  'Please open the window before the meeting.',
  'We have a new customer in London.',
  'The train leaves at nine in the morning.',
  'My brother works in a large hospital.',
];

function makeSpeech(dir: string): { path: string; seconds: number } {
  const parts: string[] = [];
  SCRIPT.forEach((s, i) => {
    const p = join(dir, `s${i}.wav`);
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', p, s]);
    parts.push(p);
  });
  const inputs = parts.flatMap((p) => ['-i', p]);
  const filter = `${parts.map((_, i) => `[${i}:a]apad=pad_dur=0.6[a${i}]`).join(';')};${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${parts.length}:v=0:a=1,volume=0.5`;
  const out = join(dir, 'speech.wav');
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', filter, '-ar', '16000', '-ac', '1', out]);
  const seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', out]).toString());
  return { path: out, seconds };
}

function direct(path: string): { ms: number; text: string } {
  const start = performance.now();
  const res = spawnSync('pocketsphinx_continuous', ['-infile', path, '-logfn', '/dev/null'], { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (res.status !== 0) throw new Error(`pocketsphinx_continuous failed: ${res.stderr}`);
  return { ms, text: res.stdout.replace(/\s+/g, ' ').trim() };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-speech-'));
  const { path, seconds } = makeSpeech(dir);
  const reference = SCRIPT.join(' ');
  console.log(`audio: ${seconds.toFixed(1)} s, ${SCRIPT.length} sentences, ${reference.split(' ').length} words`);

  let best = { ms: Infinity, text: '' };
  for (let i = 0; i < RUNS; i++) {
    const r = direct(path);
    if (r.ms < best.ms) best = r;
  }
  console.log(`pocketsphinx_continuous directly: ${(best.ms / 1000).toFixed(2)} s, real-time factor ${(best.ms / 1000 / seconds).toFixed(3)}, WER ${wordErrorRate(reference, best.text).toFixed(3)}`);

  const kernel = await startTestKernel({ plugins: ['trans-video'] });
  try {
    const token = await kernel.login('admin', ADMIN_PASSWORD);
    const wav = readFileSync(path);
    const boundary = '----benchspeech';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="sourceLanguage"\r\n\r\nen\r\n--${boundary}\r\nContent-Disposition: form-data; name="targetLanguage"\r\n\r\nes\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="speech.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
      wav,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const job = async () => {
      const started = performance.now();
      const up = await kernel.app.inject({ method: 'POST', url: '/api/transVideo/upload', headers: { jwt: token, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      const id = up.json().data?.id;
      if (!id) throw new Error(`upload refused: ${up.body}`);
      for (;;) {
        const view = (await kernel.app.inject({ method: 'GET', url: `/api/transVideo/get/${id}`, headers: { jwt: token } })).json().data;
        if (view.job.status === 'completed') return { ms: performance.now() - started, cues: view.cues as { source: string; target: string }[] };
        if (view.job.status === 'failed') throw new Error(`job failed: ${view.job.error}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await job(); // warm-up: Apertium's pipelines start on first use
    let platform = { ms: Infinity, cues: [] as { source: string; target: string }[] };
    for (let i = 0; i < RUNS; i++) {
      const r = await job();
      if (r.ms < platform.ms) platform = r;
    }
    const heard = platform.cues.map((c) => c.source).join(' ');
    console.log(`platform (upload, extract, recognise, cues, translate en->es): ${(platform.ms / 1000).toFixed(2)} s, real-time factor ${(platform.ms / 1000 / seconds).toFixed(3)}, ${platform.cues.length} cues, WER ${wordErrorRate(reference, heard).toFixed(3)}`);
    console.log(`platform / direct recognition: ${(platform.ms / best.ms).toFixed(2)}x`);
  } finally {
    await kernel.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
