// Figures for the built-in engine: Apertium CLI over a corpus, one warm Apertium pipeline fed directly,
// APy driven directly, the adapter over the same batches, the whole platform through /api/lt/translate
// (real server in-process), and one warm short sentence's latency. The figures compared with each
// other are taken in interleaved rounds (the order turning each round) and compared round by round
// (the median of the rounds' ratios), and the latencies interleaved request by request, so a machine
// shared with other work loads both sides alike. Prints, never fails on a number.
// Both APy processes run with the same pipelines per pair: the one driven directly and the platform's
// own node. By default that is the seeded engine's container count (two per core, seededContainerCount);
// APY_CONTAINERS sets another (the engine's count is then changed to it before the platform starts).
// BENCH_ROUNDS sets the throughput rounds (default 5), BENCH_SHORT the short-sentence samples (default 100).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApertiumAdapter } from '../../plugins/engine-apertium/server/adapter.js';
import { ApyProcess } from '../../plugins/engine-apertium/server/apy-process.js';
import { PipelinePool } from '../../plugins/engine-apertium/server/pipelines.js';
import { toStream } from '../../plugins/engine-apertium/server/stream.js';
import { mapLimit } from '../../core/server/src/translation/http.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../../core/server/src/config.js';
import { createServer } from '../../core/server/src/server.js';
import { resetApiKey } from '../../core/server/src/auth/api-keys.js';
import { loadSecret } from '../../core/server/src/auth/secret.js';
import { seededContainerCount } from '../../core/server/src/translation/migrations.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SENTENCES = Number(process.env.BENCH_SENTENCES ?? 3000);
const BATCH = 25;
const CLIENTS = 8;
const CONTAINERS = Number(process.env.APY_CONTAINERS ?? seededContainerCount());
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SHORT_SAMPLES = Number(process.env.BENCH_SHORT ?? 100);

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

// 1. The CLI pipeline over the whole file (one run per throughput round, below).
const dir = join(ROOT, '.tmp', 'bench');
mkdirSync(dir, { recursive: true });
const file = join(dir, 'corpus-en.txt');
writeFileSync(file, sentences.join('\n') + '\n');
const cliRun = () => {
  const t0 = performance.now();
  execFileSync('apertium', ['-u', 'eng-spa', file, join(dir, 'corpus-es.txt')]);
  return performance.now() - t0;
};
cliRun();

const short = 'The red car is fast.';
const timed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

const apy = await ApyProcess.start({ containers: CONTAINERS });
// The whole platform: PGlite, its own managed APy with the seeded engine, an API key.
const dataDir = mkdtempSync(join(tmpdir(), 'bench-lt-'));
const registryFile = join(dataDir, 'registry.json');
// The built-in engine comes from its plugin, as in a deployment.
writeFileSync(registryFile, JSON.stringify({ plugins: [{ id: 'engine-apertium', path: join(ROOT, 'plugins', 'engine-apertium'), enabled: true }] }));
const config = { ...loadConfig({}), dataDir, databaseUrl: null, distDir: join(dataDir, 'dist'), registryFile, adminPassword: 'Bench-admin-Passw0rd', logLevel: 'warn' as const, port: 0, host: '127.0.0.1' };
// A first start seeds the Apertium engine; its container count is then set as for APy direct (as an
// administrator would on the engine screen) and the platform starts again with it.
const seeding = await createServer(config, { print: () => {}, logStream: { write: () => {} } });
await seeding.database.db.updateTable('engines').set({ container_count: CONTAINERS }).where('image_name', '=', 'apertium').execute();
await seeding.close();
const server = await createServer(config, { engineAutostart: true, print: () => {}, logStream: { write: () => {} } });
try {
  const direct = async (q: string) => {
    const body = new URLSearchParams({ langpair: 'eng|spa', q, markUnknown: 'no', format: 'txt' });
    const res = await fetch(`${apy.url}/translate`, { method: 'POST', body });
    return ((await res.json()) as { responseData: { translatedText: string } }).responseData.translatedText;
  };
  const admin = await server.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  const apiKey = (await resetApiKey(server.database.db, loadSecret(dataDir), admin.id, new Date()))!;
  await server.database.db.updateTable('system_config').set({ config_value: '1000000000' }).where('config_key', '=', 'API_TRANSLATION_CAP').execute();
  // The bench sends thousands of requests a minute from one key: the per-key rate limit is the deployment's, not the engine's.
  await server.database.db.updateTable('system_config').set({ config_value: '1000000' }).where('config_key', '=', 'LT_RATE_LIMIT').execute();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}/api/lt`;
  const lt = async (q: string | string[]) => {
    const res = await fetch(`${base}/translate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q, source: 'en', target: 'es', format: 'text', api_key: apiKey }) });
    const body = (await res.json()) as { translatedText?: unknown; error?: string };
    if (res.status !== 200) throw new Error(`/api/lt/translate answered ${res.status}: ${body.error}`);
    return body.translatedText;
  };
  // Autostart runs in the background: wait for the node, then let the extra pipelines start.
  for (let i = 0; ; i++) {
    try {
      await lt('Hello.');
      break;
    } catch (err) {
      if (i > 300) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await mapLimit(batches.slice(0, CLIENTS), CLIENTS, (b) => direct(b.join('\n\n')));
  await mapLimit(batches.slice(0, CLIENTS), CLIENTS, (b) => lt(b.join(' ')));

  // 2. Throughput in interleaved rounds: the CLI over the file, one warm pipeline fed the batches
  // directly (8 in its queue, as the adapter feeds it), APy direct (the joined batch as one form
  // POST), /api/lt/translate (25 sentences as one q, as a LibreTranslate client sends a paragraph,
  // and as an array of 25). Each round runs every side once, the order turning each round.
  const wps = (ms: number) => words / (ms / 1000);
  const pool = new PipelinePool({ perPair: 1 });
  const pipe = async (b: string[]) => (await pool.get('en|es'))!.run(Buffer.from(b.map((x) => `${toStream(x)}\0`).join('')), b.length, 120_000);
  await mapLimit(batches.slice(0, CLIENTS), CLIENTS, pipe);
  const sides = {
    cli: async () => cliRun(),
    pipeline: () => timed(() => mapLimit(batches, CLIENTS, pipe)),
    direct: () => timed(() => mapLimit(batches, CLIENTS, (b) => direct(b.join('\n\n')))),
    lt: () => timed(() => mapLimit(batches, CLIENTS, (b) => lt(b.join(' ')))),
    ltArray: () => timed(() => mapLimit(batches, CLIENTS, (b) => lt(b))),
  };
  const names = Object.keys(sides) as (keyof typeof sides)[];
  const rounds: Record<keyof typeof sides, number>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ms = {} as Record<keyof typeof sides, number>;
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      ms[name] = await sides[name]();
    }
    rounds.push(ms);
  }
  pool.stop();
  const medianWps = (name: keyof typeof sides) => median(rounds.map((r) => wps(r[name])));
  const bestWps = (name: keyof typeof sides) => Math.max(...rounds.map((r) => wps(r[name])));
  /** `a` over `b` per round (both measured in the same round), the median of the rounds. */
  const ratio = (a: keyof typeof sides, b: keyof typeof sides) => median(rounds.map((r) => r[b] / r[a]));
  const line = (label: string, name: keyof typeof sides) => console.log(`${label.padEnd(46)}${fmt(medianWps(name)).padStart(7)} words/s median (best ${fmt(bestWps(name))})`);
  console.log(`throughput, ${ROUNDS} interleaved rounds:`);
  line('apertium CLI (-u eng-spa, whole file):', 'cli');
  line('one warm pipeline fed directly (8 queued):', 'pipeline');
  line(`APy direct (${BATCH}/request, ${CLIENTS} clients):`, 'direct');
  line(`/api/lt/translate (${BATCH} sentences as one q):`, 'lt');
  line(`/api/lt/translate (q as array of ${BATCH}):`, 'ltArray');

  // 3. The adapter over the same batches, and one request per sentence, for reference.
  const engine = createApertiumAdapter({ url: apy.url });
  const adapterMs = await timed(() => mapLimit(batches, CLIENTS, (b) => engine.translate({ source: 'en', target: 'es', segments: b, format: 'text' })));
  console.log(`Apertium adapter (${BATCH}/batch, ${CLIENTS} clients):      ${fmt(wps(adapterMs))} words/s`);
  const singles = sentences.slice(0, 500);
  const singleMs = await timed(() => mapLimit(singles, CLIENTS, (s) => direct(s)));
  const singleWords = singles.reduce((n, s) => n + s.split(/\s+/).length, 0);
  console.log(`APy direct, 1 sentence/request (${CLIENTS} clients):  ${fmt(singleWords / (singleMs / 1000))} words/s`);

  // 4. One short warm sentence, one at a time, APy and /api/lt interleaved request by request.
  const xs: { apy: number[]; lt: number[]; adapter: number[]; html: number[] } = { apy: [], lt: [], adapter: [], html: [] };
  for (let i = 0; i < 20; i++) await direct(short).then(() => lt(short));
  for (let i = 0; i < SHORT_SAMPLES; i++) {
    // Which of the two goes first turns, so neither always meets the other's leftovers.
    if (i % 2) {
      xs.apy.push(await timed(() => direct(short)));
      xs.lt.push(await timed(() => lt(short)));
    } else {
      xs.lt.push(await timed(() => lt(short)));
      xs.apy.push(await timed(() => direct(short)));
    }
    xs.adapter.push(await timed(() => engine.translate({ source: 'en', target: 'es', segments: [short], format: 'text' })));
    if (i < 20) xs.html.push(await timed(() => engine.translate({ source: 'en', target: 'es', segments: ['The <b>red</b> car is fast.'], format: 'html' })));
  }
  const apyShortMs = median(xs.apy);
  const ltShortMs = median(xs.lt);
  console.log(`short warm sentence, APy direct:            p50 ${apyShortMs.toFixed(1)} ms`);
  console.log(`short warm sentence, adapter:               p50 ${median(xs.adapter).toFixed(1)} ms`);
  console.log(`short warm sentence, html through adapter:  p50 ${median(xs.html).toFixed(1)} ms`);
  console.log(`short warm sentence, /api/lt/translate:     p50 ${ltShortMs.toFixed(1)} ms`);

  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const extraMs = ltShortMs - apyShortMs;
  // The same difference taken pair by pair (each /api/lt call against the APy call beside it).
  const pairedMs = median(xs.lt.map((x, i) => x - xs.apy[i]!));
  const vsCli = ratio('lt', 'cli');
  const vsPipe = ratio('lt', 'pipeline');
  console.log('targets (issue 24, the request front):');
  console.log(`  short sentence, /api/lt over APy:  +${extraMs.toFixed(1)} ms p50 (paired +${pairedMs.toFixed(1)} ms) (target <= 3 ms) ${verdict(extraMs <= 3)}`);
  console.log(`  batched /api/lt vs CLI pipeline:   ${vsCli.toFixed(2)} (median of rounds; target >= 0.90) ${verdict(vsCli >= 0.9)}`);
  console.log(`  batched /api/lt vs warm pipeline:  ${vsPipe.toFixed(2)} (median of rounds, for reference)`);
  console.log('targets (issue 6):');
  console.log(`  /api/lt vs APy direct:   ${ratio('lt', 'direct').toFixed(2)} (target >= 0.80) ${verdict(ratio('lt', 'direct') >= 0.8)}`);
  console.log(`  /api/lt vs CLI:          ${vsCli.toFixed(2)} (target >= 0.50) ${verdict(vsCli >= 0.5)}`);
  console.log(`  short latency vs APy:    ${(ltShortMs / apyShortMs).toFixed(2)}x (target <= 1.5x) ${verdict(ltShortMs / apyShortMs <= 1.5)}`);
} finally {
  await server.close();
  await apy.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
