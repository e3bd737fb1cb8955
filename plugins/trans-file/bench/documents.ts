import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { escapeXml, writeZip } from '@linguaport/sdk/interchange';
import { needsHtml, toEngineHtml } from '../server/tags.js';
import { writeFile } from 'node:fs/promises';
import { inScratch, runTool } from '@linguaport/sdk/server';
import WebSocket from 'ws';
import { FILE_CHANGED } from '../shared/schemas.js';
import { ADMIN_PASSWORD, seededRandom, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

/**
 * `npm run bench -- documents`: a document of 20,000 words translated end to end (upload, queue,
 * batches through the pipeline, result written, downloadable) by the document area, beside:
 * - the engine itself: the same segments straight to Apertium's own command line, one call per
 *   format over all of them at once (`apertium -u -f txt` for the plain ones, joined by blank lines;
 *   `apertium -u -f html` for those with inline markup, each in a <p>), the plain ones in two halves
 *   and all calls at once (2 cores, as the platform's two pipelines per direction): no platform code
 *   at all, one pipeline start per call;
 * - the naive baseline of earlier runs: the same segments sent to the node's APy, in the batches the
 *   document area uses (25 a request, joined like the adapter joins them), 8 requests in flight;
 * - APy's own `/translateDoc` on the same file.
 * txt always; docx when a format module for docx is registered (plugins/formats-office). Each figure
 * is the best of BENCH_DOC_RUNS runs (default 2), APy warmed first. The engine is real: English to
 * Spanish through Debian's Apertium.
 */

const WORDS = Number(process.env.BENCH_DOC_WORDS ?? 20_000);
const RUNS = Number(process.env.BENCH_DOC_RUNS ?? 2);

// Words Apertium's English-Spanish pair knows, so the engine does its whole work on each.
const NOUNS = 'house car city water garden book report meeting market price company river school teacher student window door table road child family morning evening letter office street river engine machine customer product country government system project team result problem question answer plan budget contract price'.split(' ');
const ADJECTIVES = 'red big small new old green quiet busy long short important simple difficult public private open early late happy strong'.split(' ');
const VERBS = 'sees opens closes builds reads writes finds needs wants sells buys moves changes helps starts keeps shows brings sends carries'.split(' ');
const ADVERBS = 'today quickly slowly again often always never carefully together already'.split(' ');

/** Paragraphs of 2 to 4 sentences, about WORDS words in all. */
function paragraphs(words: number): string[] {
  const random = seededRandom(7);
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  const sentence = () => {
    const s = `The ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(VERBS)} the ${pick(NOUNS)} of the ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(ADVERBS)}.`;
    return s;
  };
  const out: string[] = [];
  let count = 0;
  while (count < words) {
    const n = 2 + Math.floor(random() * 3);
    const p = Array.from({ length: n }, sentence).join(' ');
    count += p.split(' ').length;
    out.push(p);
  }
  return out;
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const para = (text: string) => {
  // Every fifth paragraph has a bold word, as reports do.
  const words = text.split(' ');
  if (words.length < 6 || text.length % 5) return `<w:p><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:p>`;
  return `<w:p><w:r><w:t xml:space="preserve">${escapeXml(words.slice(0, 3).join(' '))} </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>${escapeXml(words[3]!)}</w:t></w:r><w:r><w:t xml:space="preserve"> ${escapeXml(words.slice(4).join(' '))}</w:t></w:r></w:p>`;
};

/**
 * A report as a docx: the paragraphs in the body, a two-column table every 25 paragraphs (its cells
 * take the next paragraphs), a footnote every 40 (the next paragraph), a header and a footer; and, for
 * the memory run, `pictureBytes` of incompressible media (what makes real office files large).
 */
function reportDocx(text: string[], pictureBytes = 0): Buffer {
  const body: string[] = [];
  const notes: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (i % 25 === 24 && i + 2 < text.length) {
      body.push(`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>${escapeXml(text[i]!)}</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>${escapeXml(text[i + 1]!)}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`);
      i += 2;
    } else if (i % 40 === 39 && i + 1 < text.length) {
      const id = notes.length + 1;
      notes.push(`<w:footnote w:id="${id}"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${escapeXml(text[i + 1]!)}</w:t></w:r></w:p></w:footnote>`);
      body.push(para(text[i]!).replace('</w:p>', `<w:r><w:footnoteReference w:id="${id}"/></w:r></w:p>`));
      i += 2;
    } else body.push(para(text[i++]!));
  }
  const parts: Array<{ name: string; data: Buffer }> = [
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>') },
    { name: '_rels/.rels', data: Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>') },
    { name: 'word/_rels/document.xml.rels', data: Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>') },
    { name: 'word/document.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body.join('')}<w:sectPr><w:headerReference w:type="default" r:id="rId3"/><w:footerReference w:type="default" r:id="rId4"/></w:sectPr></w:body></w:document>`) },
    { name: 'word/header1.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:hdr ${W}><w:p><w:r><w:t>The annual report of the company</w:t></w:r></w:p></w:hdr>`) },
    { name: 'word/footer1.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:ftr ${W}><w:p><w:r><w:t>The office of the city</w:t></w:r></w:p></w:ftr>`) },
    { name: 'word/footnotes.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:footnotes ${W}>${notes.join('')}</w:footnotes>`) },
  ];
  for (let k = 0, left = pictureBytes; left > 0; k++, left -= 4 * 1024 * 1024) parts.push({ name: `word/media/picture${k + 1}.bin`, data: randomBytes(Math.min(left, 4 * 1024 * 1024)) });
  return writeZip(parts);
}

/** The TCP port an engine process group of the kernel listens on (from /proc: its sockets in LISTEN). */
function apyUrl(dataDir: string): string {
  const records = JSON.parse(readFileSync(join(dataDir, 'engine-processes.json'), 'utf8')) as Array<{ pid: number }>;
  const groups = new Set(records.map((r) => String(r.pid)));
  const inodes = new Set<string>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const pgrp = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
    if (!groups.has(pgrp!)) continue;
    try {
      for (const fd of readdirSync(`/proc/${name}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${name}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      }
    } catch {
      // A process that ended meanwhile.
    }
  }
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[3] === '0A' && inodes.has(f[9]!)) return `http://127.0.0.1:${parseInt(f[1]!.split(':')[1]!, 16)}`;
  }
  throw new Error('the kernel runs no APy');
}

function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.append('file', new Blob([file.content as unknown as BlobPart]), file.name);
  return form;
}

/**
 * Upload, then wait for the file's `completed` on the event socket (as the console does: no polling
 * that would load the server it measures), then download the result.
 */
async function endToEnd(k: TestKernel, base: string, token: string, file: { name: string; content: Buffer }): Promise<{ ms: number; segments: number; id: number; cpuMs: number }> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws?token=${encodeURIComponent(token)}`);
  const events: Array<{ type: string; payload: { id: number; status: string; segments: number } }> = [];
  let wake = () => {};
  socket.on('message', (d) => {
    events.push(JSON.parse(String(d)));
    wake();
  });
  const until = async (found: () => boolean) => {
    while (!found()) await new Promise<void>((r) => (wake = r));
  };
  await until(() => events.some((e) => e.type === 'ws.ready'));
  const started = performance.now();
  const cpu = process.cpuUsage();
  const form = new FormData();
  form.set('sourceLang', 'en');
  form.set('targetLang', 'es');
  form.append('files', new Blob([file.content as unknown as BlobPart]), file.name);
  const up = await (await fetch(`${base}/api/transFile/upload`, { method: 'POST', headers: { jwt: token }, body: form })).json();
  if (up.code !== 200) throw new Error(`upload refused: ${JSON.stringify(up)}`);
  const id = up.data[0].id as number;
  const mine = () => events.filter((e) => e.type === FILE_CHANGED && e.payload.id === id).map((e) => e.payload);
  await until(() => mine().some((f) => f.status === 'completed' || ['failed', 'unknown', 'parseFailed'].includes(f.status)));
  const last = mine().at(-1)!;
  if (last.status !== 'completed') throw new Error(`the document ${last.status}`);
  const res = await fetch(`${base}/api/transFile/download/${id}`, { headers: { jwt: token } });
  await res.arrayBuffer();
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  socket.close();
  void k;
  return { ms, segments: last.segments, id, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * The same segments straight to APy, as any client keeping the formatting must send them: plain ones as
 * text (25 a request joined by a blank line, as the adapter joins them), those with inline markup as
 * html (25 a request, each in a <p>), 8 requests in flight.
 */
async function direct(apy: string, segments: string[]): Promise<number> {
  const chunks: Array<{ format: 'txt' | 'html'; q: string }> = [];
  const plain = segments.filter((s) => !needsHtml(s));
  const marked = segments.filter((s) => needsHtml(s)).map(toEngineHtml);
  for (let i = 0; i < plain.length; i += 25) chunks.push({ format: 'txt', q: plain.slice(i, i + 25).join('\n\n') });
  for (let i = 0; i < marked.length; i += 25) chunks.push({ format: 'html', q: marked.slice(i, i + 25).map((h) => `<p>${h}</p>`).join('') });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const res = await fetch(`${apy}/translate`, { method: 'POST', body: new URLSearchParams({ langpair: 'eng|spa', q: chunk.q, markUnknown: 'no', format: chunk.format }) });
      const body = (await res.json()) as { responseData?: { translatedText?: string } };
      if (typeof body.responseData?.translatedText !== 'string') throw new Error(`APy answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  return performance.now() - started;
}

/** The same segments through Apertium's command line (see above); checks that every paragraph came back. */
async function commandLine(segments: string[]): Promise<number> {
  const plain = segments.filter((s) => !needsHtml(s));
  const marked = segments.filter((s) => needsHtml(s)).map(toEngineHtml);
  // Files, not stdin: the script's deformatter opens /dev/stdin, which a Node pipe (a socket) cannot be.
  return inScratch(async (dir) => {
    const started = performance.now();
    const run = async (name: string, format: 'txt' | 'html', input: string) => {
      await writeFile(join(dir, name), input);
      return runTool('apertium', ['-u', '-f', format, 'eng-spa', join(dir, name)], { timeoutMs: 300_000 });
    };
    // The plain text in two halves, one pipeline each, as the platform runs two per direction on 2 cores.
    const half = Math.ceil(plain.length / 2);
    const texts = [plain.slice(0, half), plain.slice(half)].filter((part) => part.length);
    const [html, ...text] = await Promise.all([
      marked.length ? run('in.html', 'html', marked.map((h) => `<p>${h}</p>`).join('')) : null,
      ...texts.map((part, i) => run(`in${i}.txt`, 'txt', part.join('\n\n'))),
    ]);
    const ms = performance.now() - started;
    const paragraphs = text.reduce((n, t) => n + t!.stdout.trim().split(/\n\n/).length, 0) + (html?.stdout.match(/<p>/g)?.length ?? 0);
    if (paragraphs !== segments.length) throw new Error(`the command line gave ${paragraphs} paragraphs for ${segments.length}`);
    return ms;
  });
}

async function translateDoc(apy: string, file: { name: string; content: Buffer }): Promise<number | string> {
  const started = performance.now();
  const res = await fetch(`${apy}/translateDoc`, { method: 'POST', body: multipart({ langpair: 'eng|spa', markUnknown: 'no' }, file) });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return `HTTP ${res.status}: ${body.toString('utf8').slice(0, 120)}`;
  return performance.now() - started;
}

/**
 * With BENCH_DOC_PROFILE=<dir>, each end-to-end run's CPU profile of the server (this process) is
 * written there (`<file>-<run>.cpuprofile`, open it in Chromium's DevTools): where the platform's own
 * time goes, apart from the engine's processes.
 */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_DOC_PROFILE;
  if (!dir) return fn();
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

const best = (list: number[]) => Math.min(...list);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const kernel = await startTestKernel({ plugins: ['trans-file', 'formats-office'] });
  try {
    await kernel.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(kernel.app.server.address() as { port: number }).port}`;
    const token = await kernel.login('admin', ADMIN_PASSWORD);
    const text = paragraphs(WORDS);
    const words = text.join(' ').split(' ').length;
    const files: Array<{ name: string; content: Buffer }> = [{ name: 'bench.txt', content: Buffer.from(`${text.join('\n\n')}\n`) }];
    const formats = (await (await fetch(`${base}/api/transFile/setup`, { headers: { jwt: token } })).json()).data.formats as Array<{ id: string }>;
    const docx = formats.some((f) => f.id === 'docx');
    if (docx) files.push({ name: 'bench.docx', content: reportDocx(text) });
    else console.log('docx: no docx format registered (plugins/formats-office not in this build): txt only');

    // Starts the local APy and warms English-Spanish.
    await endToEnd(kernel, base, token, { name: 'warm.txt', content: Buffer.from('The red car is fast.\n') });
    const apy = apyUrl(kernel.config.dataDir);

    console.log(`document: ${words} words in ${text.length} paragraphs, English to Spanish, Apertium APy at ${apy}`);
    for (const file of files) {
      const e2e: number[] = [];
      const raw: number[] = [];
      const cli: number[] = [];
      const doc: Array<number | string> = [];
      let segments: string[] = [];
      const phases: string[] = [];
      for (let run = 0; run < RUNS; run++) {
        const r = await profiled(`${file.name}-${run + 1}`, () => endToEnd(kernel, base, token, file));
        e2e.push(r.ms);
        const row = await kernel.database.db.selectFrom('trans_file_files').select(['created_at', 'started_at', 'finished_at']).where('id', '=', r.id).executeTakeFirstOrThrow();
        const at = (v: unknown) => new Date(v as string).getTime();
        phases.push(`wait ${at(row.started_at) - at(row.created_at)} ms, translate+write ${at(row.finished_at) - at(row.started_at)} ms, server CPU ${Math.round(r.cpuMs)} ms`);
        if (!segments.length) {
          const rows = await kernel.database.db.selectFrom('trans_file_units').select('source').where('file_id', '=', r.id).orderBy('idx').execute();
          segments = rows.map((u) => u.source as string);
        }
        raw.push(await direct(apy, segments));
        cli.push(await commandLine(segments));
        doc.push(await translateDoc(apy, file));
      }
      const docMs = doc.filter((x): x is number => typeof x === 'number');
      const docText = docMs.length ? s(best(docMs)) : String(doc[0]);
      const ratio = best(e2e) / best(cli);
      console.log(`${file.name} (${(file.content.length / 1024).toFixed(0)} KB, ${segments.length} segments):`);
      console.log(`  end to end (upload to downloadable result)  ${s(best(e2e))}   runs: ${e2e.map(s).join(', ')}`);
      console.log(`    inside: ${phases.join('; ')}`);
      console.log(`  engine alone: Apertium's command line       ${s(best(cli))}   runs: ${cli.map(s).join(', ')}`);
      console.log(`  same segments to APy in batches (naive)     ${s(best(raw))}   runs: ${raw.map(s).join(', ')}`);
      console.log(`  APy /translateDoc on the same file           ${docText}`);
      console.log(`  ratio end to end / engine alone: ${ratio.toFixed(2)} (target <= 1.25); end to end / APy batches: ${(best(e2e) / best(raw)).toFixed(2)}${docMs.length ? `; /translateDoc / end to end: ${(best(docMs) / best(e2e)).toFixed(2)} (target > 1)` : ''}`);
    }
    if (docx) {
      // Memory: the same report made 50 MB by its pictures, translated end to end while the server's
      // resident memory is sampled (the kernel runs in this process).
      const big = { name: 'big.docx', content: reportDocx(text, 48 * 1024 * 1024) };
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
      const r = await endToEnd(kernel, base, token, big);
      clearInterval(sampler);
      console.log(`${big.name} (${(big.content.length / 1024 / 1024).toFixed(1)} MB, ${r.segments} segments): end to end ${s(r.ms)}, server memory growth ${((peak - before) / 1024 / 1024).toFixed(0)} MB (target < 300 MB)`);
    }
  } finally {
    await kernel.shutdown();
  }
}

await main();
process.exit(0);
