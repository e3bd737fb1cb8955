import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { createUserWithRole, startTestKernel } from '@linguaport/sdk/testing';
import { wordErrorRate } from '@linguaport/sdk/server';

/**
 * `npm run bench latency`: how long after a speaker stops does the final caption (transcript and
 * translation) arrive, measured in Chromium with the fake microphone playing espeak-ng sentences
 * (each followed by silence; Chromium loops the file). The page captures the microphone with the
 * console's own capture code, streams it to /api/interpretation/live, and notes the moment the captured
 * sound falls silent (its own energy, 16 kHz frames) and the moment each final arrives. Beside it,
 * pocketsphinx_continuous alone on each sentence's 16 kHz WAV (the recognition floor, and its real-time
 * factor). Targets: final caption at most 1.5 s after the speaker stops; recognition RTF under 0.5.
 */

const SENTENCES = ['The children are playing in the park.', 'I would like a cup of coffee.', 'The students are reading in the library.'];
const FINALS = Number(process.env.BENCH_LATENCY_FINALS ?? 9);

function sentenceWav(dir: string, i: number, rate: number): string {
  const raw = join(dir, `raw${i}.wav`);
  const out = join(dir, `s${i}-${rate}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', raw, SENTENCES[i]!]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-af', 'volume=0.5', '-ar', String(rate), '-ac', '1', '-c:a', 'pcm_s16le', out]);
  return out;
}

const seconds = (path: string) => Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-interpretation-'));
  // pocketsphinx alone on each sentence (best of two).
  const alone: { ms: number; audio: number; wer: number }[] = [];
  for (let i = 0; i < SENTENCES.length; i++) {
    const wav = sentenceWav(dir, i, 16_000);
    let best = { ms: Infinity, text: '' };
    for (let run = 0; run < 2; run++) {
      const start = performance.now();
      const res = spawnSync('pocketsphinx_continuous', ['-infile', wav, '-logfn', '/dev/null'], { encoding: 'utf8' });
      const ms = performance.now() - start;
      if (ms < best.ms) best = { ms, text: res.stdout.trim() };
    }
    alone.push({ ms: best.ms, audio: seconds(wav), wer: wordErrorRate(SENTENCES[i]!, best.text) });
  }
  // The microphone: each sentence, then 2.5 s of silence.
  const parts = SENTENCES.map((_, i) => sentenceWav(dir, i, 48_000));
  const mic = join(dir, 'microphone.wav');
  const filter = `${parts.map((_, i) => `[${i}:a]apad=pad_dur=2.5[a${i}]`).join(';')};${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${parts.length}:v=0:a=1`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...parts.flatMap((p) => ['-i', p]), '-filter_complex', filter, '-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', mic]);

  const capture = await build({ entryPoints: [join(import.meta.dirname, '..', 'console', 'microphone.ts')], bundle: true, format: 'iife', globalName: 'Mic', write: false, target: 'chrome120' });
  const k = await startTestKernel({ plugins: ['interpretation'] });
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(k.app.server.address() as { port: number }).port}`;
  await createUserWithRole(k, 'bench', 'Bench-Passw0rd!', 'bench', ['interpretation:use']);
  const token = await k.login('bench', 'Bench-Passw0rd!');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-features=LocalNetworkAccessChecks', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${mic}`, '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    page.on('crash', () => console.error('page crashed'));
    page.on('pageerror', (err) => console.error(`page error: ${err.message}`));
    // A blank page of the server's origin (fulfilled here, so Chromium's local-network checks are off for the socket) (the API's answers forbid scripts): the socket is same-origin, as the console's is.
    await page.route(`${origin}/bench`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title>' }));
    // tsx compiles the evaluated function with esbuild's keepNames, which calls a __name helper.
    await page.addInitScript('globalThis.__name = (f) => f;');
    await page.goto(`${origin}/bench`);
    await page.addScriptTag({ content: capture.outputFiles[0]!.text });
    const url = `${origin.replace('http', 'ws')}/api/interpretation/live?token=${encodeURIComponent(token)}&source=en&target=es`;
    const result = await page.evaluate(
      async ({ url, finals }) => {
        const out: { text: string; translation: string; afterSilenceMs: number; serverMs: number }[] = [];
        const seen: string[] = [];
        let sent = 0;
        let lastLoud = 0;
        let quietSince = 0;
        /** The last loud frame before the latest silence of 300 ms: when the speaker stopped. */
        let speechEnd = 0;
        const socket = new WebSocket(url);
        const within = <T,>(what: string, p: Promise<T>, ms: number) => Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms))]);
        await within('socket open', new Promise((resolve) => (socket.onopen = resolve)), 15_000);
        const done = new Promise<void>((resolve) => {
          socket.onmessage = (event) => {
            const m = JSON.parse(String(event.data));
            seen.push(m.type);
            if (m.type === 'final' && m.text) {
                            out.push({ text: m.text, translation: m.translation, afterSilenceMs: performance.now() - speechEnd, serverMs: m.latencyMs });
              if (out.length >= finals) resolve();
            }
          };
        });
        const mic: any = await within('microphone', (globalThis as any).Mic.captureMicrophone((pcm: ArrayBuffer) => {
          const samples = new Int16Array(pcm);
          // 20 ms frames: the last one above -40 dBFS is when the speaker was last heard.
          const now = performance.now();
          for (let at = 0; at + 320 <= samples.length; at += 320) {
            let sum = 0;
            for (let i = at; i < at + 320; i++) sum += samples[i]! * samples[i]!;
            const db = 20 * Math.log10(Math.sqrt(sum / 320) / 32768 + 1e-9);
            const frameTime = now - ((samples.length - at - 320) / 16_000) * 1000;
            if (db > -40) {
              lastLoud = frameTime;
              quietSince = 0;
            } else {
              if (!quietSince) quietSince = frameTime;
              if (frameTime - quietSince >= 300 && lastLoud) speechEnd = lastLoud;
            }
          }
          socket.send(pcm);
          sent++;
        }), 15_000);
        // A deadline, so a silent microphone says so instead of waiting for ever.
        await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 150_000))]);
        if (out.length < finals) throw new Error(`only ${out.length} finals in 150 s; ${sent} frames sent; messages: ${seen.join(',')}`);
        mic.stop();
        socket.close();
        return out;
      },
      { url, finals: FINALS },
    );
    // The first round includes warm-up (the first pocketsphinx and Apertium calls); report it apart.
    const measured = result.slice(SENTENCES.length);
    const latencies = measured.map((r) => r.afterSilenceMs);
    console.log('pocketsphinx alone (best of 2 per sentence):');
    alone.forEach((a, i) => console.log(`  "${SENTENCES[i]}" ${a.audio.toFixed(2)} s audio: ${a.ms.toFixed(0)} ms, RTF ${(a.ms / 1000 / a.audio).toFixed(2)}, WER ${a.wer.toFixed(2)}`));
    const rtf = alone.reduce((n, a) => n + a.ms, 0) / 1000 / alone.reduce((n, a) => n + a.audio, 0);
    console.log(`  overall recognition RTF ${rtf.toFixed(2)} (target < 0.5)`);
    console.log(`final caption after the speaker stops, in the browser (${measured.length} utterances after ${SENTENCES.length} warm-up):`);
    measured.forEach((r) => console.log(`  ${r.afterSilenceMs.toFixed(0)} ms  "${r.text}" -> "${r.translation}"`));
    console.log(`  median ${median(latencies).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (target <= 1500 ms; of it 500 ms is the silence that ends an utterance)`);
    console.log(`  pocketsphinx alone per sentence, median: ${median(alone.map((a) => a.ms)).toFixed(0)} ms`);
  } finally {
    await browser.close();
    await k.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
