import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, openTestDatabase, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';
import { tmMigrations } from '../../server/tables.js';

// Memories keep language variants (BCP 47 tags): an en-US to en-GB memory, imports that take the variant
// asked (then the generic tag, then, said per unit, another variant) and keep every target of it, exports
// that keep the regions (read back by translate-toolkit), lookups that prefer the exact variant and take
// points off another one, and memories from before keeping their tags.

let k: TestKernel;
let admin: string;
let owner: string;
const dir = mkdtempSync(join(tmpdir(), 'tm-variants-'));

async function call(method: string, url: string, token: string, payload?: unknown, locale = 'en-US') {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, cookie: `locale=${locale}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

async function upload(libraryId: number, sourceLang: string, targetLang: string, name: string, content: string, locale = 'en-US') {
  const boundary = '----tmvariants';
  const fields = { libraryId: String(libraryId), sourceLang, targetLang };
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: owner, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function memory(name: string): Promise<number> {
  const res = await call('POST', '/api/TM/library/add', owner, { name, ownership: 'all', kind: 'shared', users: [] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

type Entry = { source: string; target: string; sourceLang: string; targetLang: string; id: number };
const entriesOf = async (libraryId: number): Promise<Entry[]> => (await call('GET', `/api/TM/entry/list?libraryId=${libraryId}&pageSize=100&sortBy=createdAt&sortOrder=asc`, owner)).body.data.records;
const pairs = (list: Entry[]) => list.map((e) => [e.sourceLang, e.targetLang, e.target]).sort((a, b) => (a.join('|') < b.join('|') ? -1 : 1));

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  await createUserWithRole(k, 'tm-variants', 'Variants-Passw0rd!', 'memory owners', ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:review', 'tm:import', 'tm:export']);
  owner = await k.login('tm-variants', 'Variants-Passw0rd!');
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe('memories keep language variants', () => {
  it('makes an en-US to en-GB memory: imports and entries keep both tags, case-normalised; the same tag twice or a malformed one is refused in both languages', async () => {
    const id = await memory('US to UK');
    const txt = await upload(id, 'en-us', 'EN_gb', 'spelling.txt', 'The color of the center.\tThe colour of the centre.\n');
    expect(txt.status, JSON.stringify(txt.body)).toBe(200);
    expect(txt.body.data).toMatchObject({ imported: 1, rejected: 0 });
    const added = await call('POST', '/api/TM/entry/add', owner, { libraryId: id, source: 'Organize the program.', target: 'Organise the programme.', sourceLang: 'EN-us', targetLang: 'en-gb' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(pairs(await entriesOf(id))).toEqual([
      ['en-US', 'en-GB', 'Organise the programme.'],
      ['en-US', 'en-GB', 'The colour of the centre.'],
    ]);
    const same = await upload(id, 'en-US', 'en-us', 'same.txt', 'a\tb\n');
    expect(same.status).toBe(400);
    expect(same.body.msg).toBe('The source and target languages must differ');
    expect((await call('POST', '/api/TM/entry/add', owner, { libraryId: id, source: 'Hello.', target: 'Hello!', sourceLang: 'en-US', targetLang: 'EN-US' })).body.msg).toBe('The source and target languages must differ');
    const malformed = await upload(id, 'en GB', 'fr', 'a.txt', 'a\tb\n');
    expect(malformed.status).toBe(400);
    expect(malformed.body.msg).toBe('sourceLang: Enter a valid BCP 47 language tag, such as en, en-GB or zh-Hans-CN');
    const zh = await upload(id, 'en', 'fr--FR', 'a.txt', 'a\tb\n', 'zh-CN');
    expect(zh.body.msg).toBe('targetLang: 请输入有效的 BCP 47 语言标记，例如 en、en-GB、zh-Hans-CN');
    const entry = await call('POST', '/api/TM/entry/add', owner, { libraryId: id, source: 'Hello.', target: 'Bonjour.', sourceLang: 'en', targetLang: 'fr_FR!' });
    expect(entry.status).toBe(400);
    expect(entry.body.msg).toContain('Enter a valid BCP 47 language tag');
    expect(await entriesOf(id)).toHaveLength(2);
  });

  it('imports the variant asked, then the generic tag, then another variant said per unit; TMX 1.1 lang and srclang *all* are read', async () => {
    const id = await memory('Variants asked');
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="*all*" datatype="plaintext"/>
<body>
  <tu><tuv xml:lang="fr-FR"><seg>La couleur du centre.</seg></tuv><tuv xml:lang="en-US"><seg>The color of the center.</seg></tuv><tuv xml:lang="en-GB"><seg>The colour of the centre.</seg></tuv><tuv xml:lang="en"><seg>The colour (generic) of the centre.</seg></tuv></tu>
  <tu><tuv xml:lang="fr-FR"><seg>Le programme.</seg></tuv><tuv xml:lang="EN-us"><seg>The program.</seg></tuv><tuv xml:lang="en"><seg>The programme.</seg></tuv></tu>
  <tu><tuv xml:lang="fr-FR"><seg>Le camion.</seg></tuv><tuv xml:lang="en-US"><seg>The truck.</seg></tuv></tu>
  <tu><tuv xml:lang="fr-FR"><seg>Seulement en allemand.</seg></tuv><tuv xml:lang="de"><seg>Nur auf Deutsch.</seg></tuv></tu>
</body></tmx>`;
    const res = await upload(id, 'fr-FR', 'en-GB', 'variants.tmx', tmx);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ imported: 3, rejected: 1, rejections: [{ file: 'variants.tmx', row: 4, reason: 'the unit has no en-GB text' }] });
    // Only the unit without British or generic English says what it took instead.
    expect(res.body.data.notices).toEqual([{ file: 'variants.tmx', row: 3, reason: 'no en-GB text: en-US used' }]);
    expect(pairs(await entriesOf(id))).toEqual([
      ['fr-FR', 'en-GB', 'The colour of the centre.'],
      ['fr-FR', 'en-US', 'The truck.'],
      ['fr-FR', 'en', 'The programme.'],
    ]);

    // TMX 1.1 names languages with `lang`; the report speaks the caller's language.
    const old = await memory('TMX 1.1');
    const v11 = `<?xml version="1.0"?><tmx version="1.1"><header creationtool="old" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="EN-US" srclang="EN-US" datatype="PlainText"/><body>
  <tu><tuv lang="EN-US"><seg>The truck.</seg></tuv><tuv lang="EN-GB"><seg>The lorry.</seg></tuv><tuv lang="EN-AU"><seg>The ute.</seg></tuv></tu>
  <tu><tuv lang="EN-US"><seg>The apartment.</seg></tuv><tuv lang="EN-AU"><seg>The unit.</seg></tuv></tu>
</body></tmx>`;
    const read = await upload(old, 'en-US', 'en-GB', 'old.tmx', v11, 'zh-CN');
    expect(read.body.data).toMatchObject({ imported: 2, rejected: 0, notices: [{ row: 2, reason: '没有 en-GB 的文本，改用 en-AU' }] });
    expect(pairs(await entriesOf(old))).toEqual([
      ['en-US', 'en-AU', 'The unit.'],
      ['en-US', 'en-GB', 'The lorry.'],
    ]);
  });

  it('keeps every target of the chosen variant as its own entry', async () => {
    const id = await memory('Canadian French');
    const tmx = `<?xml version="1.0"?><tmx version="1.4"><header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body>
  <tu><tuv xml:lang="en"><seg>Send an email.</seg></tuv><tuv xml:lang="fr-CA"><seg>Envoyez un courriel.</seg></tuv><tuv xml:lang="fr-FR"><seg>Envoyez un e-mail.</seg></tuv><tuv xml:lang="fr-ca"><seg>Envoyez un message électronique.</seg></tuv></tu>
</body></tmx>`;
    const res = await upload(id, 'en', 'fr-CA', 'email.tmx', tmx);
    expect(res.body.data).toMatchObject({ imported: 2, rejected: 0 });
    expect(res.body.data.notices).toBeUndefined();
    expect(pairs(await entriesOf(id))).toEqual([
      ['en', 'fr-CA', 'Envoyez un courriel.'],
      ['en', 'fr-CA', 'Envoyez un message électronique.'],
    ]);
  });

  it('exports the entries with their regions, as translate-toolkit reads them', async () => {
    const id = await memory('Export regions');
    await upload(id, 'zh-hans-cn', 'en-GB', 'a.txt', '红色的车。\tThe red car.\n');
    await upload(id, 'zh-Hans-CN', 'sr-latn', 'b.txt', '红色的车。\tCrveni auto.\n');
    const res = await call('GET', `/api/TM/export?libraryId=${id}&scope=all`, owner);
    expect(res.status).toBe(200);
    const file = join(dir, 'regions.tmx');
    writeFileSync(file, res.raw.body);
    expect(res.raw.body).toContain('srclang="zh-Hans-CN"');
    const script = [
      'import json,sys',
      'from translate.storage import tmx, lisa',
      's=tmx.tmxfile(open(sys.argv[1],"rb"))',
      'print(json.dumps([[[lisa.getXMLlang(n), u.getNodeText(n)] for n in u.getlanguageNodes()] for u in s.units]))',
    ].join('\n');
    const units = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as string[][][];
    expect(units).toEqual([
      [['zh-Hans-CN', '红色的车。'], ['en-GB', 'The red car.']],
      [['zh-Hans-CN', '红色的车。'], ['sr-Latn', 'Crveni auto.']],
    ]);
  });

  it('looks up the exact variant first and takes the configured penalty off another variant, saying which it is', async () => {
    const id = await memory('Lookup variants');
    const source = 'Wählen Sie eine Farbe für das Diagramm.';
    await call('POST', '/api/TM/entry/add', owner, { libraryId: id, source, target: 'Choose a colour for the chart.', sourceLang: 'de-DE', targetLang: 'en-GB' });
    await call('POST', '/api/TM/entry/add', owner, { libraryId: id, source, target: 'Choose a color for the chart.', sourceLang: 'de-DE', targetLang: 'en-US' });
    const match = async (targetLang: string, sourceLang = 'de-DE') => (await call('GET', `/api/TM/match?libraryIds=${id}&sourceLang=${sourceLang}&targetLang=${targetLang}&text=${encodeURIComponent(source)}`, owner)).body.data.matches;

    expect(await match('en-GB')).toEqual([
      expect.objectContaining({ target: 'Choose a colour for the chart.', score: 100, targetLang: 'en-GB', variant: 'exact', penalty: 0 }),
      expect.objectContaining({ target: 'Choose a color for the chart.', score: 98, targetLang: 'en-US', variant: 'variant', penalty: 2 }),
    ]);
    expect((await match('en-us')).map((m: { targetLang: string; score: number }) => [m.targetLang, m.score])).toEqual([
      ['en-US', 100],
      ['en-GB', 98],
    ]);
    // No region asked: every English variant answers without a penalty.
    expect((await match('en', 'de')).map((m: { score: number; variant: string }) => [m.score, m.variant])).toEqual([
      [100, 'generic'],
      [100, 'generic'],
    ]);
    // Another language never answers.
    expect(await match('fr-FR')).toEqual([]);

    // The penalty is the area's setting (0 to 20).
    const set = await call('PUT', '/api/TM/settings', admin, { showThreshold: 50, autoUseThreshold: 100, variantPenalty: 5 });
    expect(set.body.data).toEqual({ showThreshold: 50, autoUseThreshold: 100, variantPenalty: 5 });
    expect((await call('PUT', '/api/TM/settings', admin, { showThreshold: 50, autoUseThreshold: 100, variantPenalty: 50 })).status).toBe(400);
    // A change that leaves the penalty out keeps it.
    expect((await call('PUT', '/api/TM/settings', admin, { showThreshold: 50, autoUseThreshold: 100 })).body.data.variantPenalty).toBe(5);
    await expect.poll(async () => (await match('en-GB'))[1]?.score, { timeout: 10_000 }).toBe(95);
    await call('PUT', '/api/TM/settings', admin, { showThreshold: 50, autoUseThreshold: 100, variantPenalty: 2 });
  });
});

describe('the language-tags migration', () => {
  it('keeps the tags existing entries have, case-normalised, and groups them by language for lookups', async () => {
    const test = await openTestDatabase();
    try {
      const db = test.database.db as Kysely<any>;
      const [created, settings, tags] = tmMigrations;
      expect(tags!.name).toBe('003_language_tags');
      await created!.up(db);
      await settings!.up(db);
      const lib = await db.insertInto('tm_libraries').values({ name: 'Old memory', ownership: 'all', kind: 'shared', creator_id: 1 }).returning('id').executeTakeFirstOrThrow();
      const row = (source: string, source_lang: string, target_lang: string) => ({ library_id: lib.id, source, target: `${source} (t)`, source_lang, target_lang, source_hash: source, creator_id: 1 });
      await db.insertInto('tm_entries').values([row('a', 'en', 'zh-CN'), row('b', 'en', 'zh-CN'), row('c', 'EN-gb', 'fr'), row('d', 'zh-TW', 'en')]).execute();
      await tags!.up(db);
      const rows = await db.selectFrom('tm_entries').select(['source', 'source_lang', 'target_lang', 'source_base', 'target_base']).orderBy('source').execute();
      expect(rows).toEqual([
        { source: 'a', source_lang: 'en', target_lang: 'zh-CN', source_base: 'en-Latn', target_base: 'zh-Hans' },
        { source: 'b', source_lang: 'en', target_lang: 'zh-CN', source_base: 'en-Latn', target_base: 'zh-Hans' },
        { source: 'c', source_lang: 'en-GB', target_lang: 'fr', source_base: 'en-Latn', target_base: 'fr-Latn' },
        { source: 'd', source_lang: 'zh-TW', target_lang: 'en', source_base: 'zh-Hant', target_base: 'en-Latn' },
      ]);
      const index = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'tm_entries_exact'`.execute(db);
      expect(index.rows[0]!.indexdef).toContain('source_base');
    } finally {
      await test.cleanup();
    }
  });
});
