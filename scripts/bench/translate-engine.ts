// Figures for the built-in engine: Apertium CLI over a corpus, APy driven directly, the adapter
// over the same batches, and one warm short sentence's latency. Prints, never fails on a number.
// APY_CONTAINERS (default 2) sets the managed APy's pipelines per pair.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApertiumAdapter } from '../../core/server/src/translation/apertium/adapter.js';
import { ApyProcess } from '../../core/server/src/translation/apertium/apy-process.js';
import { mapLimit } from '../../core/server/src/translation/http.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../../core/server/src/config.js';
import { createServer } from '../../core/server/src/server.js';
import { resetApiKey } from '../../core/server/src/auth/api-keys.js';
import { loadSecret } from '../../core/server/src/auth/secret.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SENTENCES = Number(process.env.BENCH_SENTENCES ?? 3000);
const BATCH = 25;
const CLIENTS = 8;
const CONTAINERS = Number(process.env.APY_CONTAINERS ?? 2);

// A deterministic corpus of varied English sentences.
function corpus(n: number): string[] {
  let seed = 42;
  const r = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const subjects = ['The old man', 'My sister', 'A young teacher', 'The small dog', 'Our neighbours', 'The manager', 'Every student', 'The doctor', 'A tired driver', 'The children'];
  const verbs = ['reads', 'buys', 'finds', 'wants', 'sees', 'sells', 'writes', 'likes', 'opens', 'carries'];
  const adjectives = ['red', 'new', 'heavy', 'cheap', 'beautiful', 'strange', 'green', 'expensive', 'small', 'useful'];
  const objects = ['book', 'car', 'letter', 'house', 'bicycle', 'window', 'bottle', 'newspaper', 'computer', 'garden'];
  const places = ['in the morning', 'near the river', 'at the station', 'after work', 'in the city', 'before dinner', 'on Sundays', 'at school'];
  const tails = ['.', '.', '.', '!', '?'];
  return Array.from({ length: n }, () => {
    const s = `${pick(subjects)} ${pick(verbs)} a ${pick(adjectives)} ${pick(objects)} ${pick(places)}`;
    return r() < 0.3 ? `${s} because the ${pick(adjectives)} ${pick(objects)} is ${pick(adjectives)}${pick(tails)}` : `${s}${pick(tails)}`;
  });
}

const sentences = corpus(SENTENCES);
const words = sentences.reduce((n, s) => n + s.split(/\s+/).length, 0);
const batches: string[][] = [];
for (let i = 0; i < sentences.length; i += BATCH) batches.push(sentences.slice(i, i + BATCH));
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`corpus: ${sentences.length} sentences, ${fmt(words)} words; batches of ${BATCH}, ${CLIENTS} clients; APy containers ${CONTAINERS}`);

// 1. The CLI pipeline, once over the whole file.
const dir = join(ROOT, '.tmp', 'bench');
mkdirSync(dir, { recursive: true });
const file = join(dir, 'corpus-en.txt');
writeFileSync(file, sentences.join('\n') + '\n');
let t = performance.now();
execFileSync('apertium', ['-u', 'eng-spa', file, join(dir, 'corpus-es.txt')]);
const cliMs = performance.now() - t;
console.log(`apertium CLI (-u eng-spa, whole file):      ${fmt(words / (cliMs / 1000))} words/s (${(cliMs / 1000).toFixed(2)} s)`);

let apyShortMs = 0;
let apyDirectWps = 0;
const short = 'The red car is fast.';
const lat = async (fn: () => Promise<unknown>) => {
  for (let i = 0; i < 5; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < 50; i++) {
    const s = performance.now();
    await fn();
    xs.push(performance.now() - s);
  }
  return median(xs);
};
const apy = await ApyProcess.start({ containers: CONTAINERS });
try {
  // 2. APy directly: the joined batch as one form POST, no parsing beyond JSON.
  const direct = async (q: string) => {
    const body = new URLSearchParams({ langpair: 'eng|spa', q, markUnknown: 'no', format: 'txt' });
    const res = await fetch(`${apy.url}/translate`, { method: 'POST', body });
    return ((await res.json()) as { responseData: { translatedText: string } }).responseData.translatedText;
  };
  await mapLimit(batches.slice(0, CLIENTS), CLIENTS, (b) => direct(b.join('\n\n'))); // let extra pipelines start
  t = performance.now();
  await mapLimit(batches, CLIENTS, (b) => direct(b.join('\n\n')));
  const directMs = performance.now() - t;
  console.log(`APy direct (${BATCH}/request, ${CLIENTS} clients):          ${fmt(words / (directMs / 1000))} words/s`);

  // 3. The adapter over the same batches.
  const engine = createApertiumAdapter({ url: apy.url });
  t = performance.now();
  await mapLimit(batches, CLIENTS, (b) => engine.translate({ source: 'en', target: 'es', segments: b, format: 'text' }));
  const adapterMs = performance.now() - t;
  console.log(`Apertium adapter (${BATCH}/batch, ${CLIENTS} clients):      ${fmt(words / (adapterMs / 1000))} words/s`);

  // 3b. For comparison: one request per sentence, same concurrency.
  t = performance.now();
  await mapLimit(sentences.slice(0, 500), CLIENTS, (s) => direct(s));
  const singleMs = performance.now() - t;
  const singleWords = sentences.slice(0, 500).reduce((n, s) => n + s.split(/\s+/).length, 0);
  console.log(`APy direct, 1 sentence/request (${CLIENTS} clients):  ${fmt(singleWords / (singleMs / 1000))} words/s`);

  // 4. One short warm sentence, one at a time.
  console.log(`short warm sentence, APy direct:            p50 ${(await lat(() => direct(short))).toFixed(1)} ms`);
  console.log(`short warm sentence, adapter:               p50 ${(await lat(() => engine.translate({ source: 'en', target: 'es', segments: [short], format: 'text' }))).toFixed(1)} ms`);
  console.log(`short warm sentence, html through adapter:  p50 ${(await lat(() => engine.translate({ source: 'en', target: 'es', segments: ['The <b>red</b> car is fast.'], format: 'html' }))).toFixed(1)} ms`);
  apyShortMs = await lat(() => direct(short));
  apyDirectWps = words / (directMs / 1000);
} finally {
  await apy.stop();
}

// 5. The whole platform: the real server in-process (PGlite, its own managed APy with the seeded
// engine's container count), a LibreTranslate client with an API key over loopback HTTP.
{
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-lt-'));
  const registryFile = join(dataDir, 'registry.json');
  writeFileSync(registryFile, JSON.stringify({ plugins: [] }));
  const config = { ...loadConfig({}), dataDir, databaseUrl: null, distDir: join(dataDir, 'dist'), registryFile, adminPassword: 'Bench-admin-Passw0rd', logLevel: 'warn' as const, port: 0, host: '127.0.0.1' };
  const server = await createServer(config, { engineAutostart: true, print: () => {}, logStream: { write: () => {} } });
  try {
    const admin = await server.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const apiKey = (await resetApiKey(server.database.db, loadSecret(dataDir), admin.id, new Date()))!;
    await server.database.db.updateTable('system_config').set({ config_value: '1000000000' }).where('config_key', '=', 'API_TRANSLATION_CAP').execute();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address() as { port: number };
    const base = `http://127.0.0.1:${address.port}/api/lt`;
    const lt = async (q: string | string[]) => {
      const res = await fetch(`${base}/translate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q, source: 'en', target: 'es', format: 'text', api_key: apiKey }) });
      const body = (await res.json()) as { translatedText?: unknown; error?: string };
      if (res.status !== 200) throw new Error(`/api/lt/translate answered ${res.status}: ${body.error}`);
      return body.translatedText;
    };
    // The first request starts the node (autostart runs in the background); then warm the pipelines.
    for (let i = 0; ; i++) {
      try {
        await lt('Hello.');
        break;
      } catch (err) {
        if (i > 300) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await mapLimit(batches.slice(0, CLIENTS), CLIENTS, (b) => lt(b.join(' ')));
    t = performance.now();
    await mapLimit(batches, CLIENTS, (b) => lt(b.join(' ')));
    const ltMs = performance.now() - t;
    const ltWps = words / (ltMs / 1000);
    console.log(`/api/lt/translate (${BATCH} sentences as one q, ${CLIENTS} clients): ${fmt(ltWps)} words/s`);
    t = performance.now();
    await mapLimit(batches, CLIENTS, (b) => lt(b));
    const ltArrayWps = words / ((performance.now() - t) / 1000);
    console.log(`/api/lt/translate (q as array of ${BATCH}, ${CLIENTS} clients): ${fmt(ltArrayWps)} words/s`);
    const ltShortMs = await lat(() => lt(short));
    console.log(`short warm sentence, /api/lt/translate:     p50 ${ltShortMs.toFixed(1)} ms`);
    const cliWps = words / (cliMs / 1000);
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log('targets (issue 6):');
    console.log(`  /api/lt vs APy direct:   ${(ltWps / apyDirectWps).toFixed(2)} (target >= 0.80) ${verdict(ltWps / apyDirectWps >= 0.8)}`);
    console.log(`  /api/lt vs CLI:          ${(ltWps / cliWps).toFixed(2)} (target >= 0.50) ${verdict(ltWps / cliWps >= 0.5)}`);
    console.log(`  short latency vs APy:    ${(ltShortMs / apyShortMs).toFixed(2)}x (target <= 1.5x) ${verdict(ltShortMs / apyShortMs <= 1.5)}`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
