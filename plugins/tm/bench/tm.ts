// Figures of the memory area on this machine (`npm run bench -- tm`; size: BENCH_TM_SIZE, default
// 100,000 pairs; the figure is at 1,000,000): a TMX of that many generated pairs read and
// stored (time and memory growth), exact lookups, and fuzzy top-5 lookups of ours beside the naive
// pg_trgm `similarity()` ORDER BY, with recall: how often the entry a query was made from (one word
// changed, so it scores 75 or more) is among our top 5. PGlite unless DATABASE_URL is set.
import { createWriteStream, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { sql, type Kysely } from 'kysely';
import { openTestDatabase, seededRandom } from '@linguaport/sdk/testing';
import { readTmx, variantIn, writeTmx, type TmxUnit } from '@linguaport/interchange';
import { languageBase } from '@linguaport/sdk/shared';
import { tmMigrations, type TmDatabase } from '../server/tables.js';
import { MemoryLookup } from '../server/lookup.js';
import { FuzzyIndex } from '../server/fuzzy-index.js';
import { scoreText } from '../server/match/score.js';
import { exactKey } from '../server/match/text.js';

const SIZE = Number(process.env.BENCH_TM_SIZE ?? 100_000);
const QUERIES = 300;
// The naive baseline scans every row (about 45 s a query at 1,000,000 on PGlite): BENCH_TM_NAIVE sets how many.
const NAIVE_QUERIES = Number(process.env.BENCH_TM_NAIVE ?? 20);
const random = seededRandom(7);

// A vocabulary with a natural (Zipf-like) spread: a few words very common, most rare.
const SYLLABLES = ['ka', 'lo', 'mi', 'ser', 'tan', 'vo', 're', 'pi', 'nu', 'dal', 'gen', 'tor', 'bri', 'sa', 'qu', 'fel', 'mon', 'ra', 'ti', 'zen'];
const WORDS = Array.from({ length: 20_000 }, (_, i) => {
  let w = '';
  for (let n = 2 + (i % 3); n > 0; n--) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return w;
});
const FUNCTION_WORDS = ['the', 'a', 'of', 'to', 'and', 'in', 'is', 'for', 'on', 'with', 'that', 'by'];
const word = () => (random() < 0.35 ? FUNCTION_WORDS[Math.floor(random() * FUNCTION_WORDS.length)]! : WORDS[Math.floor(WORDS.length * Math.pow(random(), 2.2))]!);
/** 3 to 60 words, most between 8 and 25, sometimes a number. */
function sentence(): string {
  const n = Math.max(3, Math.min(60, Math.round(8 + Math.abs((random() + random() + random() - 1.5) * 14))));
  const words = Array.from({ length: n }, () => (random() < 0.04 ? String(Math.floor(random() * 1000)) : word()));
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}.`;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'tm-bench-'));
const testDb = await openTestDatabase();
try {
  const db = testDb.database.db as unknown as Kysely<TmDatabase>;
  for (const m of tmMigrations) await m.up(db as Kysely<any>);
  const lib = await db.insertInto('tm_libraries').values({ name: 'bench', ownership: 'all', department_id: null, kind: 'shared', creator_id: 1 }).returning('id').executeTakeFirstOrThrow();

  // The file: SIZE units written by our TMX writer.
  let t = performance.now();
  const file = join(dir, 'bench.tmx');
  const out = createWriteStream(file);
  const units = function* (): Generator<TmxUnit> {
    for (let i = 0; i < SIZE; i++) {
      const s = sentence();
      yield { variants: [{ lang: 'en', text: s, tags: {} }, { lang: 'es', text: `ES ${s}`, tags: {} }], props: [], notes: [] };
    }
  };
  for await (const chunk of writeTmx(units(), { srclang: 'en' })) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  console.log(`generated ${SIZE.toLocaleString('en-US')} pairs as TMX in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Import: the file read streaming and stored in batches of 1,000 in one transaction, as the import route stores them.
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  t = performance.now();
  await db.transaction().execute(async (trx) => {
    let batch: TmDatabase['tm_entries'][] = [];
    const flush = async () => {
      if (!batch.length) return;
      await trx.insertInto('tm_entries').values(batch as never).execute();
      batch = [];
      peak = Math.max(peak, process.memoryUsage().rss);
    };
    for await (const u of readTmx(createReadStream(file))) {
      const s = variantIn(u, 'en')!;
      const g = variantIn(u, 'es')!;
      batch.push({ library_id: lib.id, source: s.text, target: g.text, source_lang: 'en', target_lang: 'es', source_base: languageBase('en'), target_base: languageBase('es'), source_hash: exactKey(s.text), tags: '{}', creator_id: 1 } as never);
      if (batch.length === 1000) await flush();
    }
    await flush();
  });
  const importS = (performance.now() - t) / 1000;
  console.log(`TMX import: ${SIZE.toLocaleString('en-US')} units read and stored in ${importS.toFixed(1)} s (${Math.round(SIZE / importS).toLocaleString('en-US')} units/s), memory growth ${((peak - rss0) / 1024 / 1024).toFixed(0)} MB (target: 1,000,000 in 60 s, under 300 MB)`);
  await sql`analyze tm_entries`.execute(db);

  const sample = await db.selectFrom('tm_entries').select(['id', 'source']).where('id', 'in', Array.from({ length: QUERIES }, () => 1 + Math.floor(random() * SIZE))).execute();
  const lookup = new MemoryLookup(db, new FuzzyIndex(db));
  t = performance.now();
  await lookup.fuzzy([lib.id], 'en', 'es', 'warm the index', 5, 0);
  console.log(`fuzzy index of ${SIZE.toLocaleString('en-US')} entries built in ${((performance.now() - t) / 1000).toFixed(1)} s, memory now ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);

  // Exact: one text at a time, as a segment would ask.
  const exact: number[] = [];
  for (const row of sample) {
    t = performance.now();
    const hit = await lookup.exact([lib.id], 'en', 'es', [row.source]);
    exact.push(performance.now() - t);
    if (!hit.get(row.source)) throw new Error(`exact lookup missed entry ${row.id}`);
  }
  console.log(`exact lookup: p50 ${ms(pct(exact, 50))}, p95 ${ms(pct(exact, 95))} over ${exact.length} queries (target p95 at most 2 ms)`);

  // Fuzzy: each query is an entry with one word changed; that entry should be in the top 5.
  const queries = sample.map((r) => {
    const words = r.source.split(' ');
    const i = Math.floor(random() * words.length);
    words[i] = i === words.length - 1 ? `${word()}.` : word();
    return { from: r.id, text: words.join(' '), expected: scoreText(words.join(' '), r.source).score };
  });
  const ours: number[] = [];
  let eligible = 0;
  let found = 0;
  for (const q of queries) {
    t = performance.now();
    const top = await lookup.fuzzy([lib.id], 'en', 'es', q.text, 5, 0);
    ours.push(performance.now() - t);
    if (q.expected >= 75) {
      eligible++;
      if (top.some((m) => m.entryId === q.from || m.score >= q.expected)) found++;
    }
  }
  console.log(`fuzzy top-5 (ours): p50 ${ms(pct(ours, 50))}, p95 ${ms(pct(ours, 95))} over ${ours.length} queries`);
  const naive: number[] = [];
  for (const q of queries.slice(0, NAIVE_QUERIES)) {
    t = performance.now();
    await sql`select id, source, similarity(source, ${q.text}) as s from tm_entries order by similarity(source, ${q.text}) desc limit 5`.execute(db);
    naive.push(performance.now() - t);
  }
  console.log(`fuzzy top-5: ours p50 ${ms(pct(ours, 50))}, p95 ${ms(pct(ours, 95))} over ${ours.length} queries; naive similarity() ORDER BY p50 ${ms(pct(naive, 50))}, p95 ${ms(pct(naive, 95))} over ${naive.length} (targets p95: 50 ms embedded, 25 ms PostgreSQL)`);
  console.log(`recall: the source entry (or one scoring as well) in our top 5 for ${found} of ${eligible} queries scoring 75 or more (${((100 * found) / Math.max(1, eligible)).toFixed(1)}%; target 99%)`);
  console.log(`database: ${testDb.databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${SIZE.toLocaleString('en-US')} entries`);
} finally {
  await testDb.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
