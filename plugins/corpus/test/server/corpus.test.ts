import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { readTmx } from '@linguaport/interchange';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { alignSentences, splitSimple } from '../../server/gale-church.js';
import { ratioBounds } from '../../server/cleaning.js';

// The corpus area in the real kernel: who reaches which corpus, every kind of import with its
// rejections and limits, cleaning as a task with a report, Gale-Church alignment into a draft,
// and TMX out read back by the SDK's reader.

let k: TestKernel;
let owner: string;
let other: string;
let manager: string;
let nobody: string;
let corpusId: number;
const en = { cookie: 'locale=en-US' };

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

async function upload(url: string, token: string, fields: Record<string, string>, files: Array<{ name: string; content: string | Buffer }>) {
  const boundary = '----corpustest';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url, headers: { jwt: token, ...en, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

const importInto = (id: number, files: Array<{ name: string; content: string | Buffer }>, mode = 'bilingual', token = owner) => upload('/api/corpus/import', token, { corpusId: String(id), mode }, files);

async function newCorpus(name: string, token = owner, langs = { sourceLang: 'en', targetLang: 'es' }) {
  const res = await call('POST', '/api/corpus/add', token, { name, ...langs, domain: 'legal' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as number;
}

const pairsOf = async (id: number, token = owner) => (await call('GET', `/api/corpus/pair/list?corpusId=${id}&pageSize=200`, token)).body.data.records as Array<{ id: number; source: string; target: string; flags: string[] }>;

/** Everything the area stores, to show that a refused call changed nothing. */
async function digest() {
  const db = k.database.db;
  const tables = ['corpus_corpora', 'corpus_pairs', 'corpus_cleaning_reports', 'corpus_alignment_drafts'];
  const out: Record<string, unknown> = {};
  for (const t of tables) out[t] = await db.selectFrom(t as never).selectAll().orderBy('id' as never).execute();
  return JSON.stringify(out);
}

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['corpus'] });
  await createUserWithRole(k, 'corpus-owner', 'Owner-Passw0rd!', 'corpus owners', ['corpus:view', 'corpus:edit']);
  await createUserWithRole(k, 'corpus-other', 'Other-Passw0rd!', 'corpus others', ['corpus:view', 'corpus:edit']);
  await createUserWithRole(k, 'corpus-manager', 'Manager-Passw0rd!', 'corpus managers', ['corpus:view', 'corpus:edit', 'corpus:manage']);
  await createUserWithRole(k, 'corpus-nobody', 'Nobody-Passw0rd!', 'no corpus rights', []);
  owner = await k.login('corpus-owner', 'Owner-Passw0rd!');
  other = await k.login('corpus-other', 'Other-Passw0rd!');
  manager = await k.login('corpus-manager', 'Manager-Passw0rd!');
  nobody = await k.login('corpus-nobody', 'Nobody-Passw0rd!');
  corpusId = await newCorpus('Legal EN-ES');
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('corpora and who reaches them', () => {
  it('lists, searches and filters the caller\'s corpora, paged', async () => {
    await newCorpus('Medical EN-ZH', owner, { sourceLang: 'en', targetLang: 'zh-CN' });
    const all = (await call('GET', '/api/corpus/list?pageNum=1&pageSize=1', owner)).body.data;
    expect(all.total).toBe(2);
    expect(all.records).toHaveLength(1);
    const named = (await call('GET', '/api/corpus/list?name=legal', owner)).body.data.records;
    expect(named.map((c: { name: string }) => c.name)).toEqual(['Legal EN-ES']);
    const zh = (await call('GET', '/api/corpus/list?targetLang=zh-CN', owner)).body.data.records;
    expect(zh.map((c: { name: string }) => c.name)).toEqual(['Medical EN-ZH']);
    expect((await call('GET', '/api/corpus/list?domain=medical', owner)).body.data.total).toBe(0);
    expect((await call('GET', '/api/corpus/list', other)).body.data.total).toBe(0);
    expect((await call('GET', '/api/corpus/list', manager)).body.data.total).toBe(2);
  });

  it('refuses a corpus without a name or with one language twice', async () => {
    expect((await call('POST', '/api/corpus/add', owner, { name: ' ', sourceLang: 'en', targetLang: 'es' })).status).toBe(400);
    const same = await call('POST', '/api/corpus/add', owner, { name: 'Same', sourceLang: 'en', targetLang: 'en' });
    expect(same.status).toBe(400);
    expect(same.body.msg).toContain('The source and target languages must differ');
  });

  it('answers 404 to another user and 403 to a user without the keys, and nothing changes', async () => {
    await importInto(corpusId, [{ name: 'seed.txt', content: 'Seed sentence.\tFrase semilla.\n' }]);
    const before = await digest();
    const pair = (await pairsOf(corpusId))[0]!;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/corpus/detail?id=${corpusId}`],
      ['GET', `/api/corpus/pair/list?corpusId=${corpusId}`],
      ['PUT', '/api/corpus/update', { id: corpusId, name: 'Taken', sourceLang: 'en', targetLang: 'es' }],
      ['DELETE', `/api/corpus/delete?id=${corpusId}`],
      ['PUT', '/api/corpus/pair/update', { id: pair.id, source: 'X', target: 'Y' }],
      ['DELETE', `/api/corpus/pair/delete?corpusId=${corpusId}&ids=${pair.id}`],
      ['GET', `/api/corpus/export?corpusId=${corpusId}`],
      ['POST', '/api/corpus/clean/start', { corpusId }],
      ['POST', '/api/corpus/align/text', { corpusId, sourceText: 'One.', targetText: 'Uno.' }],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await call(method, url, other, payload);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.msg).toBe(`Corpus ${corpusId} not found`);
      expect((await call(method, url, nobody, payload)).status, `${method} ${url}`).toBe(403);
    }
    expect((await importInto(corpusId, [{ name: 'x.txt', content: 'A\tB\n' }], 'bilingual', other)).status).toBe(404);
    expect((await importInto(corpusId, [{ name: 'x.txt', content: 'A\tB\n' }], 'bilingual', nobody)).status).toBe(403);
    expect(await digest()).toBe(before);
    // Managing others' corpora reaches this one.
    expect((await call('GET', `/api/corpus/detail?id=${corpusId}`, manager)).body.data).toMatchObject({ name: 'Legal EN-ES', pairs: 1 });
  });

  it('edits and deletes pairs, in batches too, keeping the count', async () => {
    const id = await newCorpus('Pairs');
    await importInto(id, [{ name: 'p.txt', content: 'One.\tUno.\nTwo.\tDos.\nThree.\tTres.\n' }]);
    const [a, b, c] = await pairsOf(id);
    expect((await call('PUT', '/api/corpus/pair/update', owner, { id: a!.id, source: 'One!', target: '¡Uno!' })).body.data).toMatchObject({ source: 'One!', target: '¡Uno!' });
    expect((await call('PUT', '/api/corpus/pair/update', owner, { id: a!.id, source: 'One!', target: ' ' })).status).toBe(400);
    expect((await call('DELETE', `/api/corpus/pair/delete?corpusId=${id}&ids=${b!.id},${c!.id}`, owner)).body.data).toEqual({ deleted: 2 });
    expect((await pairsOf(id)).map((p) => p.source)).toEqual(['One!']);
    expect((await call('GET', `/api/corpus/detail?id=${id}`, owner)).body.data.pairs).toBe(1);
    expect((await call('GET', `/api/corpus/pair/list?corpusId=${id}&text=uno`, owner)).body.data.total).toBe(1);
    expect((await call('DELETE', `/api/corpus/delete?id=${id}`, owner)).status).toBe(200);
    expect((await call('GET', `/api/corpus/detail?id=${id}`, owner)).status).toBe(404);
  });
});

describe('imports', () => {
  it('imports TMX, reporting units without one of the languages', async () => {
    const id = await newCorpus('TMX in');
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="x" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en-US" datatype="plaintext"/>
<body>
  <tu><tuv xml:lang="en-US"><seg>The contract is valid.</seg></tuv><tuv xml:lang="es-ES"><seg>El contrato es válido.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>Only English here.</seg></tuv><tuv xml:lang="fr"><seg>Seulement en anglais.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>Sign here.</seg></tuv><tuv xml:lang="es"><seg>Firme aquí.</seg></tuv></tu>
</body></tmx>`;
    const res = await importInto(id, [{ name: 'a.tmx', content: tmx }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ imported: 2, rejected: 1, rejections: [{ file: 'a.tmx', row: 2, reason: 'the unit has no es text' }] });
    expect((await pairsOf(id)).map((p) => [p.source, p.target])).toEqual([['The contract is valid.', 'El contrato es válido.'], ['Sign here.', 'Firme aquí.']]);
  });

  it('imports tab-separated TXT and XLSX together, rejecting rows by file and row', async () => {
    const id = await newCorpus('TXT and XLSX in');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Source', 'Target'], ['Good night.', 'Buenas noches.'], ['No translation', ''], ['Thanks.', 'Gracias.']]), 'Sheet1');
    const xlsx = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const res = await importInto(id, [
      { name: 't.txt', content: 'Good morning.\tBuenos días.\nno tab here\n\n\tsolo destino\n' },
      { name: 's.xlsx', content: xlsx },
    ]);
    expect(res.body.data).toEqual({
      imported: 3,
      rejected: 3,
      rejections: [
        { file: 't.txt', row: 2, reason: 'no tab between the source and the target' },
        { file: 't.txt', row: 4, reason: 'the source is empty' },
        { file: 's.xlsx', row: 3, reason: 'the target is empty' },
      ],
    });
    expect((await pairsOf(id)).map((p) => p.source)).toEqual(['Good morning.', 'Good night.', 'Thanks.']);
  });

  it('pairs two line-aligned monolingual TXT files, and refuses them when the line counts differ', async () => {
    const id = await newCorpus('Parallel in');
    const ok = await importInto(id, [{ name: 'en.txt', content: 'Hello.\nGoodbye.\n\nSee you.\n' }, { name: 'es.txt', content: 'Hola.\nAdiós.\n\n\n' }], 'parallel');
    expect(ok.body.data).toEqual({ imported: 2, rejected: 1, rejections: [{ file: 'en.txt + es.txt', row: 4, reason: 'the target is empty' }] });
    const before = await digest();
    const uneven = await importInto(id, [{ name: 'en.txt', content: 'One. Two.\nThree.\n' }, { name: 'es.txt', content: 'Uno.\nDos.\nTres.\n' }], 'parallel');
    expect(uneven.status).toBe(400);
    expect(uneven.body.msg).toBe('en.txt has 2 lines and es.txt has 3: the line counts differ, so the lines cannot be paired one by one. Use sentence alignment instead.');
    expect((await importInto(id, [{ name: 'en.txt', content: 'One.\n' }], 'parallel')).status).toBe(400);
    expect(await digest()).toBe(before);
  });

  it('refuses a BOM, invalid UTF-8, an empty file, an unknown format, more than 5 files and a file over 20 MB, importing nothing', async () => {
    const id = await newCorpus('Refusals');
    const before = await digest();
    const bom = await importInto(id, [{ name: 'ok.txt', content: 'A.\tB.\n' }, { name: 'bom.txt', content: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Hello\tHola\n')]) }]);
    expect(bom.status).toBe(400);
    expect(bom.body.msg).toBe('bom.txt: the file starts with a byte-order mark (BOM); save it as UTF-8 without BOM');
    const bomParallel = await importInto(id, [{ name: 'en.txt', content: 'Hello\n' }, { name: 'es.txt', content: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Hola\n')]) }], 'parallel');
    expect(bomParallel.body.msg).toContain('byte-order mark');
    const latin1 = await importInto(id, [{ name: 'l.txt', content: Buffer.from('Caf\xe9\tCaf\xe9\n', 'latin1') }]);
    expect(latin1.body.msg).toBe('l.txt: the file is not valid UTF-8');
    expect((await importInto(id, [{ name: 'e.txt', content: '' }])).body.msg).toContain('cannot upload an empty file');
    expect((await importInto(id, [{ name: 'd.pdf', content: 'x' }])).body.msg).toContain('not a supported format');
    const six = await importInto(id, Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, content: 'A.\tB.\n' })));
    expect(six.status).toBe(400);
    expect(six.body.msg).toBe('At most 5 files at a time');
    const big = await importInto(id, [{ name: 'big.txt', content: Buffer.alloc(20 * 1024 * 1024 + 1, 0x61) }]);
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe('big.txt: the file is over 20 MB');
    expect(await digest()).toBe(before);
  });
});

describe('cleaning', () => {
  it('reports each rule on a crafted corpus, with progress as a task, and deletes the flagged pairs only when applied', async () => {
    const id = await newCorpus('To clean');
    const rows = [
      'Good morning.\tBuenos días.',
      'Good morning.\tBuenos días.',
      'Madrid\tMadrid',
      'Yes.\tSí, por supuesto, estoy completamente de acuerdo con todo lo que usted ha dicho hoy en la reunión.',
      'The weather is very nice today in the city.\tDas Wetter ist heute in der Stadt wirklich sehr schön.',
      'Where is the station?\t¿Dónde está la estación?',
      'I would like a coffee.\tMe gustaría un café.',
      'The book is on the table.\tEl libro está sobre la mesa.',
    ];
    await importInto(id, [{ name: 'c.txt', content: rows.join('\n') }]);
    // An empty side cannot come in through an import; it can be left behind by older data.
    const last = await k.database.db.insertInto('corpus_pairs' as never).values({ corpus_id: id, source: 'Left alone.', target: '', position: 100 } as never).returning('id' as never).executeTakeFirstOrThrow();
    const started = await call('POST', '/api/corpus/clean/start', owner, { corpusId: id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ status: 'running', taskId: expect.any(String) });
    // Its language detection first waits for the engines' start-up (APy), which a loaded machine slows.
    await expect.poll(async () => (await call('GET', `/api/corpus/clean/report?corpusId=${id}`, owner)).body.data.status, { timeout: 90_000 }).toBe('ready');
    const task = await call('GET', `/api/tasks/${started.body.data.taskId}`, owner);
    expect(task.body.data).toMatchObject({ state: 'completed', progress: { done: 9, total: 9 } });
    const report = (await call('GET', `/api/corpus/clean/report?corpusId=${id}`, owner)).body.data;
    const counts = Object.fromEntries(Object.entries(report.summary.rules as Record<string, { count: number }>).map(([r, v]) => [r, v.count]));
    expect(counts).toEqual({ duplicate: 1, empty: 1, lengthRatio: 1, sameText: 1, wrongLanguage: 1 });
    expect(report.summary.rules.lengthRatio.examples[0].source).toBe('Yes.');
    expect(report.summary.rules.wrongLanguage.examples[0].source).toBe('The weather is very nice today in the city.');
    expect(report.summary.rules.empty.examples[0].id).toBe((last as { id: number }).id);
    expect(report.summary.ratio.method).toBe('fixed');
    expect(report).toMatchObject({ flagged: 5, summary: { total: 9, flagged: 5 } });
    const flagged = (await call('GET', `/api/corpus/pair/list?corpusId=${id}&flagged=true`, owner)).body.data.records;
    expect(flagged.map((p: { flags: string[] }) => p.flags)).toEqual([['duplicate'], ['sameText'], ['lengthRatio'], ['wrongLanguage'], ['empty']]);
    // Nothing is gone until the report is applied.
    expect((await pairsOf(id)).length).toBe(9);
    expect((await call('POST', '/api/corpus/clean/apply', other, { reportId: report.id })).status).toBe(404);
    expect((await call('POST', '/api/corpus/clean/apply', owner, { reportId: report.id })).body.data).toEqual({ deleted: 5 });
    expect((await pairsOf(id)).map((p) => p.source)).toEqual(['Good morning.', 'Where is the station?', 'I would like a coffee.', 'The book is on the table.']);
    expect((await call('GET', `/api/corpus/detail?id=${id}`, owner)).body.data.pairs).toBe(4);
    expect((await call('POST', '/api/corpus/clean/apply', owner, { reportId: report.id })).status).toBe(409);
  }, 120_000);

  it('bounds length ratios by mean ± 3 standard deviations of the log-ratio once a corpus is large enough', () => {
    const ratios = Array.from({ length: 100 }, (_, i) => Math.log(1.1) + ((i % 10) - 4.5) / 50);
    const b = ratioBounds(ratios)!;
    expect(b.method).toBe('stats');
    expect(b.low).toBeCloseTo(b.mean - 3 * b.sd, 10);
    expect(b.high).toBeCloseTo(b.mean + 3 * b.sd, 10);
    expect(ratioBounds(ratios.slice(0, 10))!.method).toBe('fixed');
  });
});

describe('sentence alignment', () => {
  const english =
    'The committee met on Monday morning. It approved the annual budget after a long debate about the costs of the new building and its maintenance. The chair thanked everyone for their work. The next meeting will be held in June.';
  const spanish =
    'El comité se reunió el lunes por la mañana. Aprobó el presupuesto anual tras un largo debate. El debate trató sobre los costes del nuevo edificio y de su mantenimiento. La presidenta agradeció a todos su trabajo. La próxima reunión se celebrará en junio.';

  it('finds the 1-2 bead where one English sentence became two Spanish ones', async () => {
    const res = await call('POST', '/api/corpus/align/text', owner, { corpusId, sourceText: english, targetText: spanish });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const draft = res.body.data;
    expect(draft).toMatchObject({ sourceSentences: 4, targetSentences: 5 });
    expect(draft.pairs.map((p: { bead: string }) => p.bead)).toEqual(['1-1', '1-2', '1-1', '1-1']);
    expect(draft.pairs[1]).toMatchObject({
      source: 'It approved the annual budget after a long debate about the costs of the new building and its maintenance.',
      target: 'Aprobó el presupuesto anual tras un largo debate. El debate trató sobre los costes del nuevo edificio y de su mantenimiento.',
    });
    expect(draft.pairs[3].target).toBe('La próxima reunión se celebrará en junio.');
  });

  it('adds the accepted pairs, as edited, to the corpus and drops the draft', async () => {
    const draft = (await call('POST', '/api/corpus/align/text', owner, { corpusId, sourceText: english, targetText: spanish })).body.data;
    expect((await call('GET', `/api/corpus/align/draft?id=${draft.id}`, other)).status).toBe(404);
    const before = (await call('GET', `/api/corpus/detail?id=${corpusId}`, owner)).body.data.pairs;
    const chosen = [draft.pairs[0], { ...draft.pairs[3], target: 'La próxima reunión será en junio.' }];
    expect((await call('POST', '/api/corpus/align/accept', owner, { draftId: draft.id, pairs: chosen })).body.data).toEqual({ added: 2, skipped: 0 });
    const pairs = await pairsOf(corpusId);
    expect(pairs.length).toBe(before + 2);
    expect(pairs.at(-1)).toMatchObject({ source: 'The next meeting will be held in June.', target: 'La próxima reunión será en junio.' });
    expect((await call('GET', `/api/corpus/align/draft?id=${draft.id}`, owner)).status).toBe(404);
  });

  it('aligns two uploaded files (a short untranslated sentence joins its neighbour, as Gale-Church prefers 2-1 to 1-0), accepting all', async () => {
    const res = await upload('/api/corpus/align/files', owner, { corpusId: String(corpusId) }, [
      { name: 'en.txt', content: 'Open the door and wait for the guide. Close the window before the meeting starts.\nSee you.\nTurn off the lights when you leave the building tonight. The guard locks the gate at ten.\n' },
      { name: 'es.txt', content: 'Abra la puerta y espere al guía. Cierre la ventana antes de que empiece la reunión.\nApague las luces cuando salga del edificio esta noche. El guardia cierra la verja a las diez.\n' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.pairs.map((p: { bead: string }) => p.bead)).toEqual(['1-1', '2-1', '1-1', '1-1']);
    expect(res.body.data.pairs[1].source).toBe('Close the window before the meeting starts. See you.');
    expect((await call('POST', '/api/corpus/align/accept', owner, { draftId: res.body.data.id })).body.data).toEqual({ added: 4, skipped: 0 });
    // A pair with one side empty (a 1-0 or 0-1 bead) is not stored.
    const one = (await call('POST', '/api/corpus/align/text', owner, { corpusId, sourceText: 'Hello.', targetText: 'Hola.' })).body.data;
    expect((await call('POST', '/api/corpus/align/accept', owner, { draftId: one.id, pairs: [{ source: 'Hello.', target: '' }] })).body.data).toEqual({ added: 0, skipped: 1 });
  });

  it('aligns by character lengths alone, with every kind of bead', () => {
    const s = ['aaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbb', 'cccccccccccccccccccccccccccccc', 'dddddddddd', 'eeeeeeeeee', 'ffffffffffffffffffffffffffffffffffffffff'];
    const t = ['AAAAAAAAAA', 'BBBBBBBBBB', 'BBBBBBBBBB', 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC', 'DDDDDDDDDDDDDDDDDDDD', 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF'];
    expect(alignSentences(s, t).map((b) => b.bead)).toEqual(['1-1', '1-2', '1-1', '2-1', '1-1']);
    expect(splitSimple('你好。今天天气很好！是吗？Yes. It is.')).toEqual(['你好。', '今天天气很好！', '是吗？', 'Yes.', 'It is.']);
  });
});

describe('export', () => {
  it('exports TMX that the SDK reads back, and tab-separated TXT', async () => {
    const pairs = await pairsOf(corpusId);
    const res = await call('GET', `/api/corpus/export?corpusId=${corpusId}&format=tmx`, owner);
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toContain('application/x-tmx+xml');
    const units = [];
    for await (const u of readTmx([res.raw.body])) units.push(u);
    expect(units.map((u) => [u.variants.find((v) => v.lang === 'en')!.text, u.variants.find((v) => v.lang === 'es')!.text])).toEqual(pairs.map((p) => [p.source, p.target]));
    const txt = await call('GET', `/api/corpus/export?corpusId=${corpusId}&format=txt`, owner);
    expect(txt.raw.body.split('\n').filter(Boolean)).toEqual(pairs.map((p) => `${p.source}\t${p.target}`));
  });
});

describe('locales', () => {
  it('has every message of the console in both languages', () => {
    const root = join(import.meta.dirname, '..', '..');
    // Each file holds the plugin's namespace (plugin.json's i18n), as the console loads it.
    const zh = (JSON.parse(readFileSync(join(root, 'locales', 'zh-CN.json'), 'utf8')) as { corpus: Record<string, string> }).corpus;
    const enUS = (JSON.parse(readFileSync(join(root, 'locales', 'en-US.json'), 'utf8')) as { corpus: Record<string, string> }).corpus;
    // `operations` holds the Chinese titles of the operation log only (the English title is each route's summary).
    const keys = (messages: Record<string, unknown>) => Object.keys(messages).filter((k) => k !== 'operations').sort();
    expect(keys(zh)).toEqual(keys(enUS));
    expect(zh.operations).toBeTruthy();
    const source = readFileSync(join(root, 'console', 'index.tsx'), 'utf8');
    const used = [...source.matchAll(/\bt\('([A-Za-z_]+)'/g)].map((m) => m[1]!);
    const dynamic = ['rule_duplicate', 'rule_empty', 'rule_lengthRatio', 'rule_sameText', 'rule_wrongLanguage', 'status_running', 'status_ready', 'status_applied', 'status_discarded', 'status_failed'];
    for (const key of [...used, ...dynamic]) expect(enUS[key], key).toBeTruthy();
  });
});
