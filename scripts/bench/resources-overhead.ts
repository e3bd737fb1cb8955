// What language resources cost a text translation (`npm run bench -- resources-overhead`): the real
// kernel with the memory, term and text-translation areas and the built-in Apertium engine, a memory
// of BENCH_RESOURCES_TM pairs (1,000,000 for the figure; 100,000 by default) and a term base
// of BENCH_RESOURCES_TERMS terms (10,000), both made from the same English vocabulary the requests
// use (so lookups find near matches and terms, as a real team's resources would). The same requests
// are sent through /api/transText/translate with the memory and the term base and without any, in
// alternating rounds on one warm server, so a machine shared with other work loads both alike.
// Target: with resources at most 1.2 times the time without. Prints, never fails on a number.
import { sql } from 'kysely';
import { ADMIN_PASSWORD, seededRandom, startTestKernel } from '@linguaport/sdk/testing';
import { exactKey } from '../../plugins/tm/server/match/text.js';

const TM_SIZE = Number(process.env.BENCH_RESOURCES_TM ?? 100_000);
const TERMS = Number(process.env.BENCH_RESOURCES_TERMS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_RESOURCES_REQUESTS ?? 60);
const ROUNDS = 4;

const random = seededRandom(11);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
const subjects = ['The old man', 'My sister', 'A young teacher', 'The small dog', 'Our neighbours', 'The manager', 'Every student', 'The doctor', 'A tired driver', 'The children'];
const verbs = ['reads', 'buys', 'finds', 'wants', 'sees', 'sells', 'writes', 'likes', 'opens', 'carries'];
const adjectives = ['red', 'new', 'heavy', 'cheap', 'beautiful', 'strange', 'green', 'expensive', 'small', 'useful'];
const objects = ['book', 'car', 'letter', 'house', 'bicycle', 'window', 'bottle', 'newspaper', 'computer', 'garden'];
const places = ['in the morning', 'near the river', 'at the station', 'after work', 'in the city', 'before dinner', 'on Sundays', 'at school'];
const sentence = () => {
  const s = `${pick(subjects)} ${pick(verbs)} a ${pick(adjectives)} ${pick(objects)} ${pick(places)}`;
  return random() < 0.4 ? `${s} because the ${pick(adjectives)} ${pick(objects)} is ${pick(adjectives)}.` : `${s}.`;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const k = await startTestKernel({ plugins: ['tm', 'term', 'trans-text', 'service'], config: { logLevel: 'error' } });
try {
  const token = await k.login('admin', ADMIN_PASSWORD);
  const db = k.database.db;
  const add = async (url: string, name: string) => {
    const res = await k.call('POST', url, token, { name, ownership: 'all', kind: 'shared', users: [], isDefault: false });
    if (res.body.code !== 200) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const memoryId = await add('/api/TM/library/add', 'bench memory');
  const termBaseId = await add('/api/term/library/add', 'bench terms');

  // The memory: generated sentences (many near matches of the requests), stored in batches as an import stores them.
  let t = performance.now();
  for (let done = 0; done < TM_SIZE; done += 1000) {
    const rows = Array.from({ length: Math.min(1000, TM_SIZE - done) }, () => {
      const s = sentence();
      return { library_id: memoryId, source: s, target: `ES ${s}`, source_lang: 'en', target_lang: 'es', source_hash: exactKey(s), tags: '{}', status: 'checked', creator_id: 1 };
    });
    await db.insertInto('tm_entries').values(rows as never).execute();
  }
  await sql`analyze tm_entries`.execute(db);
  console.log(`memory: ${TM_SIZE.toLocaleString('en-US')} pairs stored in ${secs(performance.now() - t)}`);

  // The term base: the vocabulary's nouns and adjectives (found in every request) and made-up terms to make up the count.
  const real = [...objects, ...adjectives].map((w) => ({ source: w, target: `${w}-es` }));
  const made = Array.from({ length: Math.max(0, TERMS - real.length) }, (_, i) => ({ source: `${pick(adjectives)} term${i} ${pick(objects)}`, target: `término${i}` }));
  const terms = [...real, ...made];
  for (let i = 0; i < terms.length; i += 1000) {
    const rows = terms.slice(i, i + 1000).map((term) => ({ library_id: termBaseId, source: term.source, target: term.target, source_lang: 'en', target_lang: 'es', status: 'checked', creator_id: 1 }));
    await db.insertInto('term_entries').values(rows as never).execute();
  }
  console.log(`term base: ${terms.length.toLocaleString('en-US')} terms`);

  // Requests end in words the memory never has: near (fuzzy) matches abound, exact ones do not, so no
  // request is cheaper for skipping the engine.
  const request = () => `${sentence().slice(0, -1)} every single week.`;
  const requests = Array.from({ length: REQUESTS }, () => Array.from({ length: 1 + Math.floor(random() * 3) }, request).join(' '));
  const words = requests.reduce((n, r) => n + r.split(/\s+/).length, 0);
  const run = async (resources: { memories: number[]; termBases: number[] }) => {
    const t0 = performance.now();
    for (const text of requests) {
      const res = await k.call('POST', '/api/transText/translate', token, { text, source: 'en', target: 'es', resources });
      if (res.body.code !== 200) throw new Error(`translate: ${JSON.stringify(res.body)}`);
    }
    return performance.now() - t0;
  };
  const withResources = { memories: [memoryId], termBases: [termBaseId] };
  const without = { memories: [], termBases: [] };
  // Warm both paths: the engine's pairs, the memory's fuzzy index, the term base's matcher.
  t = performance.now();
  await run(withResources);
  console.log(`first pass with resources (index and matcher built): ${secs(performance.now() - t)}`);
  await run(without);

  const plain: number[] = [];
  const used: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await run(without));
    used.push(await run(withResources));
  }
  const best = (xs: number[]) => Math.min(...xs);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${REQUESTS} requests (${words.toLocaleString('en-US')} words), one at a time, ${ROUNDS} alternating rounds:`);
  console.log(`  without resources: best ${secs(best(plain))}, median ${secs(median(plain))}`);
  console.log(`  with a ${TM_SIZE.toLocaleString('en-US')}-pair memory and a ${terms.length.toLocaleString('en-US')}-term base: best ${secs(best(used))}, median ${secs(median(used))}`);
  console.log(`  ratio: best ${(best(used) / best(plain)).toFixed(2)}, median ${(median(used) / median(plain)).toFixed(2)} (target at most 1.2)`);
} finally {
  await k.shutdown();
}
