import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sentencePieces } from '@linguaport/sdk/shared';
import { ADMIN_PASSWORD, seededRandom, startLibrePeer, startTestKernel, useOnlyLibreEngine } from '@linguaport/sdk/testing';
import { call, upload, waitForFile } from '../test/server/support.js';

/**
 * `npm run bench -- doc-reuse`: how much of a memory a document reuses. A memory holds KNOWN
 * sentences; a plain-text document of PARAGRAPHS paragraphs mixes them with new sentences (two to
 * four sentences a paragraph, about a third known; one paragraph in ten is a known sentence alone,
 * which a paragraph-level lookup can find too). The same document is translated twice in this run,
 * each on a kernel of its own with the same loopback engine: by sentence (the default) and by
 * paragraph (the plugin configuration's `memoryGranularity: "paragraph"`, the earlier behaviour).
 * Printed: memory match rate (sentences taken from the memory / sentences the memory knows), the
 * segments and characters sent to the engine, and the time from upload to completed.
 */

const PARAGRAPHS = Number(process.env.BENCH_REUSE_PARAGRAPHS ?? 1_000);
const KNOWN = Number(process.env.BENCH_REUSE_KNOWN ?? 200);

const random = seededRandom(22);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const NOUNS = 'house car city garden report meeting market price company river school teacher window door road family office street engine customer product project team budget contract'.split(' ');
const ADJECTIVES = 'red big small new old green quiet busy long short important simple public private early late'.split(' ');
const VERBS = 'sees opens closes builds reads writes finds needs sells moves changes helps starts keeps shows sends'.split(' ');
// Abbreviations and numbers inside sentences: the segmentation must not cut there.
const TAILS = ['today.', 'again.', 'at 3.5 per cent.', 'in the U.S. office.', 'with Dr. Lee.', 'e.g. on Monday.', 'by 2.30 p.m. tomorrow.'];
const sentence = (n: number) => `The ${pick(ADJECTIVES)} ${pick(NOUNS)} ${n} ${pick(VERBS)} the ${pick(NOUNS)} ${pick(TAILS)}`;

const known = Array.from({ length: KNOWN }, (_, i) => sentence(i));
let fresh = KNOWN;
const paragraphs: string[][] = [];
for (let p = 0; p < PARAGRAPHS; p++) {
  if (random() < 0.1) {
    paragraphs.push([pick(known)]);
    continue;
  }
  const n = 2 + Math.floor(random() * 3);
  paragraphs.push(Array.from({ length: n }, () => (random() < 0.33 ? pick(known) : sentence(fresh++))));
}
const knownSet = new Set(known);
const document = `${paragraphs.map((p) => p.join(' ')).join('\n\n')}\n`;
const sentencesKnown = paragraphs.flat().filter((s) => knownSet.has(s)).length;

async function run(granularity: 'sentence' | 'paragraph') {
  const peer = await startLibrePeer();
  const kernel = await startTestKernel({
    plugins: ['service', 'engine-libretranslate', 'trans-file', 'tm'],
    prepare: (config) => {
      mkdirSync(join(config.dataDir, 'config'), { recursive: true });
      writeFileSync(join(config.dataDir, 'config', 'trans-file.json'), JSON.stringify({ memoryGranularity: granularity }));
    },
  });
  try {
    const token = await kernel.login('admin', ADMIN_PASSWORD);
    await useOnlyLibreEngine(kernel, token, peer.url, { source: 'en', target: 'es' });
    const lib = await call(kernel, 'POST', '/api/TM/library/add', token, { name: 'Known', ownership: 'all', kind: 'shared', users: [] });
    const memory = lib.body.data.id as number;
    for (const s of known) {
      const res = await call(kernel, 'POST', '/api/TM/entry/add', token, { libraryId: memory, source: s, target: `ES ${s}`, sourceLang: 'en', targetLang: 'es' });
      if (res.status !== 200) throw new Error(`entry refused: ${JSON.stringify(res.body)}`);
    }
    const before = peer.requests.length;
    const t0 = performance.now();
    const up = await upload(kernel, token, { sourceLang: 'en', targetLang: 'es', memories: String(memory) }, [{ name: 'doc.txt', content: document }]);
    if (up.status !== 200) throw new Error(`upload refused: ${JSON.stringify(up.body)}`);
    const id = up.body.data[0].id as number;
    const file = await waitForFile(kernel, token, id, (f) => f.status === 'completed' || f.status === 'failed', 600_000);
    const ms = performance.now() - t0;
    if (file.status !== 'completed') throw new Error(`the document failed: ${file.error}`);
    // Reused: each known sentence whose translation came from the memory (a paragraph matched whole counts its sentences).
    let reused = 0;
    for (let page = 1; ; page++) {
      const { records } = (await call(kernel, 'GET', `/api/transFile/units/${id}?pageNum=${page}&pageSize=500`, token)).body.data;
      for (const u of records as Array<{ source: string; origin: string; sentences: Array<{ source: string; origin: string }> | null }>) {
        const parts = u.sentences ?? [{ source: u.source, origin: u.origin }];
        for (const s of parts) if (s.origin.startsWith('tm:')) reused += sentencePieces(s.source, 'en').filter((x) => 'sentence' in x && knownSet.has(x.sentence)).length;
      }
      if (records.length < 500) break;
    }
    const sent = peer.requests.slice(before).filter((r) => r.path === '/translate').flatMap((r) => (Array.isArray(r.body.q) ? r.body.q : [r.body.q]).map(String));
    return { reused, segments: sent.length, characters: sent.reduce((n, q) => n + q.length, 0), ms };
  } finally {
    await kernel.shutdown();
    await peer.close();
  }
}

const sentencesAll = paragraphs.flat().length;
console.log(`document: ${PARAGRAPHS} paragraphs, ${sentencesAll} sentences, ${sentencesKnown} of them known to a memory of ${KNOWN} sentences`);
const rows: Array<[string, Awaited<ReturnType<typeof run>>]> = [];
for (const g of ['paragraph', 'sentence'] as const) rows.push([g, await run(g)]);
for (const [g, r] of rows) {
  console.log(
    `${g.padEnd(9)} (${g === 'paragraph' ? 'baseline' : 'now'}): memory match rate ${((100 * r.reused) / sentencesKnown).toFixed(1)}% (${r.reused}/${sentencesKnown} known sentences reused); ` +
      `engine got ${r.segments} segments, ${r.characters.toLocaleString('en-US')} characters; ${(r.ms / 1000).toFixed(2)} s upload to completed`,
  );
}
