// `npm run bench -- import-health`: how long /api/health takes to answer (p50, p95, max; polled
// every 50 ms, 10 s counts as a timeout) on a real server on loopback, a child process of this one
// (PGlite, the memory and document areas), while it:
//   - idles (the baseline, measured in the same run);
//   - imports a TMX of 200,000 units into a memory (BENCH_IMPORT_UNITS), until the task completes;
//   - refuses an xlsx of 357 KB whose sheet unpacks to 100 MB (it must be refused, nothing written);
//   - takes 20 concurrent 5 MB text uploads to the documents area, until all are answered.
// Target (issue 21 item 7): p95 under 200 ms in every phase.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ADMIN_PASSWORD, sheetXlsx, startTestKernel } from '@linguaport/sdk/testing';

const UNITS = Number(process.env.BENCH_IMPORT_UNITS ?? 200_000);
const UPLOADS = Number(process.env.BENCH_IMPORT_UPLOADS ?? 20);
const UPLOAD_MB = Number(process.env.BENCH_IMPORT_UPLOAD_MB ?? 5);

interface Server {
  base: string;
  token: string;
  memoryId: number;
}

function tmx(n: number): Buffer {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="bench" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>\n<body>\n'];
  for (let i = 1; i <= n; i++) out.push(`<tu><tuv xml:lang="en"><seg>Sentence number ${i} of the generated memory, with a few more words.</seg></tuv><tuv xml:lang="es"><seg>Frase número ${i} de la memoria generada, con algunas palabras más.</seg></tuv></tu>\n`);
  out.push('</body></tmx>\n');
  return Buffer.from(out.join(''));
}

/** About `mb` MB of English paragraphs. */
function text(mb: number, seed: number): Buffer {
  const words = 'the house car city water garden book report meeting market price company river school teacher student window door table road child family morning evening letter office street'.split(' ');
  const lines: string[] = [];
  let size = 0;
  let s = seed;
  while (size < mb * 1024 * 1024) {
    const sentence: string[] = [];
    for (let i = 0; i < 12; i++) sentence.push(words[(s = (s * 1103515245 + 12345) % 2147483648) % words.length]!);
    // Paragraphs of three sentences, one a line, as hard-wrapped text is.
    const line = `${sentence.join(' ')}.${lines.length % 3 === 2 ? '\n' : ''}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n'));
}

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);

// The poller runs in a thread of its own: the main thread here is busy sending the uploads, and its
// delays must not count as the server's.
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const latencies = [];
let timeouts = 0;
let running = true;
parentPort.once('message', () => (running = false));
(async () => {
  while (running) {
    const t0 = performance.now();
    try {
      const res = await fetch(workerData.base + '/api/health', { signal: AbortSignal.timeout(10000) });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
    } catch {
      timeouts++;
      latencies.push(10000);
    }
    const wait = 50 - (performance.now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  parentPort.postMessage({ latencies, timeouts });
})();
`;

/** Polls /api/health every 50 ms until stopped; each answer's latency, a timeout counted as 10 s. */
function pollHealth(base: string) {
  const worker = new Worker(POLLER, { eval: true, workerData: { base } });
  return {
    async stop(): Promise<{ latencies: number[]; timeouts: number }> {
      const answer = once(worker, 'message');
      worker.postMessage('stop');
      const [result] = await answer;
      await worker.terminate();
      return result;
    },
  };
}

let ask: (line: string) => Promise<{ p95: number; max: number }>;

async function measure(name: string, server: Server, work: () => Promise<string>) {
  await ask('reset');
  const poll = pollHealth(server.base);
  const t0 = performance.now();
  const note = await work();
  const seconds = (performance.now() - t0) / 1000;
  const { latencies, timeouts } = await poll.stop();
  const loop = await ask('report');
  return { name, seconds, n: latencies.length, p50: pct(latencies, 50), p95: pct(latencies, 95), max: Math.max(...latencies), timeouts, note, loop };
}

async function main() {
  if (process.env.BENCH_PROFILE) mkdirSync(process.env.BENCH_PROFILE, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
  const server = JSON.parse(await next()) as Server;
  ask = async (line) => {
    const answer = line === 'report' ? next() : Promise.resolve('{}');
    child.stdin!.write(`${line}\n`);
    return JSON.parse(await answer);
  };
  const headers = { jwt: server.token, cookie: 'locale=en-US' };
  try {
    // Warm-up: the first requests compile routes and fill caches.
    for (let i = 0; i < 20; i++) await (await fetch(`${server.base}/api/health`)).arrayBuffer();
    const results = [];
    results.push(await measure('idle (baseline)', server, async () => {
      await new Promise((r) => setTimeout(r, 5_000));
      return '';
    }));

    const file = tmx(UNITS);
    results.push(await measure(`TMX import, ${UNITS.toLocaleString('en-US')} units`, server, async () => {
      const form = new FormData();
      form.set('libraryId', String(server.memoryId));
      form.set('sourceLang', 'en');
      form.set('targetLang', 'es');
      form.append('files', new Blob([file as unknown as BlobPart]), 'bench.tmx');
      const up = await (await fetch(`${server.base}/api/TM/import`, { method: 'POST', headers, body: form })).json();
      if (up.code !== 200) throw new Error(`TMX import refused: ${JSON.stringify(up)}`);
      // A small file (BENCH_IMPORT_UNITS) is imported within the call.
      if (!up.data.taskId) return `${up.data.imported} imported within the call`;
      for (;;) {
        const view = (await (await fetch(`${server.base}/api/TM/import/${up.data.taskId}`, { headers })).json()).data;
        if (view.state === 'completed') return `${view.result.imported} imported, ${(file.length / 1024 / 1024).toFixed(0)} MB`;
        if (view.state !== 'queued' && view.state !== 'running') throw new Error(`TMX import ${view.state}: ${view.error}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }));

    // 845,009 rows of one sentence pair: about 100 MB of sheet XML, a few hundred KB zipped.
    const bomb = sheetXlsx(845_009, () => ['The same sentence again and again.', 'La misma frase una y otra vez.']);
    results.push(await measure(`XLSX of ${(bomb.length / 1024).toFixed(0)} KB (100 MB sheet)`, server, async () => {
      const form = new FormData();
      form.set('libraryId', String(server.memoryId));
      form.set('sourceLang', 'en');
      form.set('targetLang', 'es');
      form.append('files', new Blob([bomb as unknown as BlobPart]), 'bomb.xlsx');
      const res = await (await fetch(`${server.base}/api/TM/import`, { method: 'POST', headers, body: form })).json();
      return res.code === 200 ? `NOT REFUSED: ${JSON.stringify(res.data).slice(0, 100)}` : `refused ${res.code}: ${res.msg}`;
    }));

    const texts = Array.from({ length: UPLOADS }, (_, i) => text(UPLOAD_MB, i + 1));
    results.push(await measure(`${UPLOADS} concurrent ${UPLOAD_MB} MB text uploads`, server, async () => {
      const answers = await Promise.all(
        texts.map(async (content, i) => {
          const form = new FormData();
          form.set('sourceLang', 'en');
          form.set('targetLang', 'es');
          form.append('files', new Blob([content as unknown as BlobPart]), `upload-${i + 1}.txt`);
          return (await (await fetch(`${server.base}/api/transFile/upload`, { method: 'POST', headers, body: form })).json()) as { code: number; msg?: string };
        }),
      );
      const ok = answers.filter((a) => a.code === 200).length;
      return `${ok} accepted${ok < answers.length ? `, refused: ${answers.find((a) => a.code !== 200)!.msg}` : ''}`;
    }));

    const ms = (x: number) => `${x.toFixed(0)} ms`.padStart(9);
    console.log(`/api/health latency, and the server's event-loop delay (p95, max), load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}:`);
    console.log(`${'phase'.padEnd(40)} ${'time'.padStart(8)} ${'polls'.padStart(6)} ${'p50'.padStart(9)} ${'p95'.padStart(9)} ${'max'.padStart(9)} timeouts ${'loop p95'.padStart(9)} ${'loop max'.padStart(9)}`);
    for (const r of results) console.log(`${r.name.padEnd(40)} ${`${r.seconds.toFixed(1)} s`.padStart(8)} ${String(r.n).padStart(6)} ${ms(r.p50)} ${ms(r.p95)} ${ms(r.max)} ${String(r.timeouts).padStart(8)} ${ms(r.loop.p95)} ${ms(r.loop.max)}${r.note ? `  (${r.note})` : ''}`);
  } finally {
    child.stdin!.end();
    const exited = new Promise((r) => child.once('exit', r));
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    await exited;
  }
}

if (process.argv.includes('--serve')) {
  // The server: a kernel of its own, listening on loopback, until its parent closes stdin.
  const k = await startTestKernel({ plugins: ['tm', 'trans-file'], config: { logLevel: 'error' } });
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  const token = await k.login('admin', ADMIN_PASSWORD);
  const memory = await k.call('POST', '/api/TM/library/add', token, { name: 'bench', ownership: 'all', kind: 'shared', users: [], isDefault: false });
  process.stdout.write(`${JSON.stringify({ base: `http://127.0.0.1:${(k.app.server.address() as { port: number }).port}`, token, memoryId: memory.body.data.id })}\n`);
  // The server's own event-loop delay per phase: main-thread blocking, told apart from waiting on the database.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // BENCH_PROFILE=<dir>: a CPU profile of the server per phase, to find what holds the main thread.
  const session = process.env.BENCH_PROFILE ? new Session() : null;
  session?.connect();
  const post = (method: string) => new Promise<any>((resolve, reject) => session!.post(method, (err, res) => (err ? reject(err) : resolve(res))));
  if (session) await post('Profiler.enable');
  let phase = 0;
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'reset') {
      delay.reset();
      if (session) await post('Profiler.start');
    }
    if (line === 'report') {
      if (session) writeFileSync(`${process.env.BENCH_PROFILE}/phase-${++phase}.cpuprofile`, JSON.stringify((await post('Profiler.stop')).profile));
      process.stdout.write(`${JSON.stringify({ p95: delay.percentile(95) / 1e6, max: delay.max / 1e6 })}\n`);
    }
  });
  process.stdin.on('end', () => void k.shutdown().finally(() => process.exit(0)));
} else {
  await main();
}
