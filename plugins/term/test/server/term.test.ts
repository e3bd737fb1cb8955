import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { readTbx, readTermCsv } from '@linguaport/interchange';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The term area in the real kernel with text translation and the real Apertium engine: term bases and
// who may use them, terms and their review and history, recognition, imports and exports, and the
// pipeline hook that requires terms and checks the engine's output for them.

let k: TestKernel;
const ALL = ['term:view', 'term:library', 'term:add', 'term:edit', 'term:delete', 'term:review', 'term:import', 'term:export', 'transText:use'];
let owner: { userId: number; token: string };
let colleague: { userId: number; token: string };
let outsider: { userId: number; token: string };
let baseId: number;
const dir = mkdtempSync(join(tmpdir(), 'term-test-'));
const en = { cookie: 'locale=en-US' };

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

async function upload(token: string, fields: Record<string, string>, files: Array<{ name: string; content: string | Buffer }>) {
  const boundary = '----termtest';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/term/import', headers: { jwt: token, ...en, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

const add = (token: string, body: Record<string, unknown>) => call('POST', '/api/term/entry/add', token, { libraryId: baseId, sourceLang: 'en', targetLang: 'es', ...body });
const entries = async (query = '') => (await call('GET', `/api/term/entry/list?libraryId=${baseId}&pageSize=200${query}`, owner.token)).body.data.records as Array<Record<string, unknown> & { id: number; source: string }>;

beforeAll(async () => {
  // The probe records the required terms every translation handed the engine.
  k = await startTestKernel({ plugins: ['term', 'trans-text', 'service', { id: 'term-probe', path: join(import.meta.dirname, '..', 'fixtures', 'term-probe') }] });
  await k.login('admin', ADMIN_PASSWORD);
  const db = k.database.db;
  const a = await createUserWithRole(k, 'term-owner', 'Owner-Passw0rd!', 'term owners', ALL);
  const b = await createUserWithRole(k, 'term-colleague', 'Colleague-Passw0rd!', 'term users', ['term:view', 'term:add', 'transText:use']);
  const c = await createUserWithRole(k, 'term-outsider', 'Outsider-Passw0rd!', 'other term users', ALL);
  // The outsider works in another department.
  const other = await db.insertInto('departments').values({ name: 'Elsewhere', code: 'elsewhere' }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('user_department_roles').set({ department_id: other.id }).where('user_id', '=', c.userId).execute();
  owner = { userId: a.userId, token: await k.login('term-owner', 'Owner-Passw0rd!') };
  colleague = { userId: b.userId, token: await k.login('term-colleague', 'Colleague-Passw0rd!') };
  outsider = { userId: c.userId, token: await k.login('term-outsider', 'Outsider-Passw0rd!') };
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const TBX = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX-Basic" xml:lang="en-US">
  <martifHeader><fileDesc><sourceDesc><p>Another tool</p></sourceDesc></fileDesc></martifHeader>
  <text><body>
    <termEntry id="c1">
      <descrip type="subjectField">IT</descrip>
      <langSet xml:lang="en-US"><tig><term>hard disk</term><termNote type="partOfSpeech">noun</termNote></tig></langSet>
      <langSet xml:lang="es-ES">
        <tig><term>disco duro</term></tig>
        <tig><term>disco rígido</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
      </langSet>
    </termEntry>
    <termEntry id="c2"><langSet xml:lang="en"><tig><term>Only English</term></tig></langSet><langSet xml:lang="fr"><tig><term>Seulement</term></tig></langSet></termEntry>
    <termEntry id="c3"><langSet xml:lang="en"><tig><term>404</term></tig></langSet><langSet xml:lang="es"><tig><term>404</term></tig></langSet></termEntry>
  </body></text>
</martif>`;

describe('every term route', () => {
  it('answers 403 to a signed-in user without term permissions and changes no term table', async () => {
    await createUserWithRole(k, 'term-nobody', 'Nobody-Passw0rd!', 'holds nothing', []);
    const token = await k.login('term-nobody', 'Nobody-Passw0rd!');
    const routes = k.routes.filter((r) => r.pluginId === 'term');
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/term/library/list', 'POST /api/term/entry/review', 'GET /api/termHistory/list', 'POST /api/term/recognise', 'POST /api/term/import', 'GET /api/term/export', 'GET /api/term/users']),
    );
    const digest = async () => {
      const out: Record<string, string> = {};
      for (const table of ['term_libraries', 'term_library_users', 'term_defaults', 'term_entries', 'term_history']) {
        const [row] = await k.database.query<{ n: string; digest: string }>(`select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${table}" t`, []);
        out[table] = `${row!.n} ${row!.digest}`;
      }
      return out;
    };
    const before = await digest();
    const wrong: string[] = [];
    for (const r of routes) {
      const res = await k.app.inject({ method: r.method as 'GET', url: r.url, headers: { jwt: token }, ...(r.method === 'GET' ? {} : { payload: {} }) });
      if (res.statusCode !== 403) wrong.push(`${r.method} ${r.url}: HTTP ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    expect(await digest()).toEqual(before);
  });
});

describe('term bases and who may use them', () => {
  it('creates a department term base that its department sees and uses, and nobody else', async () => {
    const created = await call('POST', '/api/term/library/add', owner.token, { name: 'IT EN-ES', ownership: 'department', kind: 'shared', users: [], isDefault: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    baseId = created.body.data.id;
    const mine = await call('GET', '/api/term/library/list', owner.token);
    expect(mine.body.data.records).toEqual([expect.objectContaining({ id: baseId, name: 'IT EN-ES', ownership: 'department', isDefault: true, mayEdit: true, entries: 0 })]);
    expect((await call('GET', '/api/term/library/list', colleague.token)).body.data.records.map((r: { id: number }) => r.id)).toEqual([baseId]);
    expect((await call('GET', '/api/term/library/list', outsider.token)).body.data.records).toEqual([]);
    // A direct call from outside the department gets the insufficient-permission message.
    for (const [method, url, body] of [
      ['GET', `/api/term/entry/list?libraryId=${baseId}`],
      ['GET', `/api/termHistory/list?libraryId=${baseId}`],
      ['GET', `/api/term/export?libraryId=${baseId}`],
      ['POST', '/api/term/recognise', { text: 'a server', sourceLang: 'en', targetLang: 'es', termBaseIds: [baseId] }],
      ['DELETE', `/api/term/library/delete?id=${baseId}`],
    ] as const) {
      const res = await call(method, url, outsider.token, body);
      expect(res.status, url).toBe(403);
      expect(res.body.msg).toBe('Insufficient permission: you may not use or edit this term base');
    }
    // The colleague may use it but not edit it.
    const refused = await call('POST', '/api/term/entry/add', colleague.token, { libraryId: baseId, source: 'server', target: 'servidor', sourceLang: 'en', targetLang: 'es' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('Insufficient permission: you may not use or edit this term base');
  });

  it('refuses a term base without a name, or with chosen users but none listed', async () => {
    expect((await call('POST', '/api/term/library/add', owner.token, { name: ' ', ownership: 'all', users: [] })).status).toBe(400);
    const custom = await call('POST', '/api/term/library/add', owner.token, { name: 'Nobody', ownership: 'custom', users: [] });
    expect(custom.status).toBe(400);
    expect(custom.body.msg).toBe('A custom-user term base needs at least one user');
  });
});

describe('terms and review', () => {
  it('validates terms as the spec says', async () => {
    const bad = [
      [{ source: '123 456', target: 'x' }, 'The source cannot be only special characters, only digits, or a mix of the two'],
      [{ source: '%%%', target: 'x' }, 'The source cannot be only special characters, only digits, or a mix of the two'],
      [{ source: '', target: 'x' }, 'This field is required'],
      [{ source: 'server', target: 'servidor {NUMBER}' }, 'The translation cannot contain the reserved markers'],
      [{ source: 'server', target: 'a ||| b' }, 'The translation cannot contain the reserved markers'],
      [{ source: 'server', target: ' ' }, 'This field is required'],
    ] as const;
    for (const [over, msg] of bad) {
      const res = await add(owner.token, over);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.msg).toContain(msg);
    }
    expect((await add(owner.token, { source: 'server', target: 'servidor', targetLang: 'en' })).body.msg).toBe('The source and target languages must differ');
  });

  it('adds terms with their forbidden flag, part of speech, note and domain, both ways on request, and keeps fields an edit leaves out', async () => {
    const both = await add(owner.token, { source: 'server', target: 'servidor', partOfSpeech: 'noun', domain: 'IT', note: 'hardware', bidirectional: true });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.data).toEqual([
      expect.objectContaining({ source: 'server', target: 'servidor', sourceLang: 'en', targetLang: 'es', status: 'unchecked', forbidden: false, partOfSpeech: 'noun', domain: 'IT', note: 'hardware' }),
      expect.objectContaining({ source: 'servidor', target: 'server', sourceLang: 'es', targetLang: 'en', partOfSpeech: 'noun' }),
    ]);
    const forbidden = await add(owner.token, { source: 'computer', target: 'computador', forbidden: true });
    expect(forbidden.body.data[0]).toMatchObject({ forbidden: true });
    const edited = await call('PUT', '/api/term/entry/update', owner.token, { id: both.body.data[0].id, source: 'server', target: 'servidor', note: 'a machine' });
    expect(edited.body.data).toMatchObject({ note: 'a machine', partOfSpeech: 'noun', domain: 'IT', forbidden: false });
    expect((await entries('&forbidden=true')).map((e) => e.source)).toEqual(['computer']);
    expect((await entries('&sourceLang=en&sortBy=source&sortOrder=asc')).map((e) => e.source)).toEqual(['computer', 'server']);
  });

  it('passes and rejects only unchecked terms, enables only checked ones, records each action and tells the creator', async () => {
    const id = (await entries('&sourceLang=en')).find((e) => e.source === 'server')!.id;
    const reverse = (await entries('&sourceLang=es'))[0]!.id;
    expect((await call('POST', '/api/term/entry/review', owner.token, { ids: [id], action: 'enable' })).status).toBe(400);
    expect((await call('POST', '/api/term/entry/review', owner.token, { ids: [id], action: 'pass' })).body.data[0]).toMatchObject({ status: 'checked' });
    // A batch with one term the action does not fit changes nothing.
    const mixed = await call('POST', '/api/term/entry/review', owner.token, { ids: [id, reverse], action: 'reject' });
    expect(mixed.status).toBe(400);
    expect(mixed.body.msg).toContain(String(id));
    expect((await entries('&sourceLang=es'))[0]!.status).toBe('unchecked');
    expect((await call('POST', '/api/term/entry/review', owner.token, { ids: [reverse], action: 'reject' })).body.data[0].status).toBe('failed');
    expect((await call('POST', '/api/term/entry/review', owner.token, { ids: [id], action: 'disable' })).body.data[0].enabled).toBe(false);
    expect((await call('POST', '/api/term/entry/review', owner.token, { ids: [id], action: 'enable' })).body.data[0].enabled).toBe(true);
    const history = (await call('GET', `/api/termHistory/list?libraryId=${baseId}`, owner.token)).body.data.records;
    expect(history.slice(0, 4).map((h: { action: string }) => h.action)).toEqual(['enable', 'disable', 'reject', 'pass']);
    expect(history[3]).toMatchObject({ entryId: id, actorId: owner.userId, before: expect.objectContaining({ status: 'unchecked' }), after: expect.objectContaining({ status: 'checked' }) });
    expect(history.find((h: { action: string }) => h.action === 'edit')).toMatchObject({ before: expect.objectContaining({ note: 'hardware' }), after: expect.objectContaining({ note: 'a machine' }) });

    await k.database.db.insertInto('term_library_users').values({ library_id: baseId, user_id: colleague.userId, can_use: true, can_edit: true }).execute();
    const mine = await add(colleague.token, { source: 'router', target: 'enrutador' });
    expect(mine.status).toBe(200);
    await call('POST', '/api/term/entry/review', owner.token, { ids: [mine.body.data[0].id], action: 'pass' });
    const messages = await k.database.db.selectFrom('messages' as never).selectAll().where('user_id' as never, '=', colleague.userId as never).execute();
    expect(messages).toEqual([expect.objectContaining({ type: 'check', content: expect.stringContaining('term-owner passed 1 term: router') })]);
  });

  it('deletes terms and records the deletion', async () => {
    const extra = await add(owner.token, { source: 'keyboard', target: 'teclado' });
    const del = await call('DELETE', `/api/term/entry/delete?ids=${extra.body.data[0].id}`, owner.token);
    expect(del.body.data).toEqual({ deleted: 1 });
    const history = (await call('GET', `/api/termHistory/list?libraryId=${baseId}&action=delete`, owner.token)).body.data.records;
    expect(history[0]).toMatchObject({ entryId: extra.body.data[0].id, after: null, before: expect.objectContaining({ source: 'keyboard' }) });
  });
});

describe('recognition', () => {
  it('finds the terms of the default term bases, longest first, case ignored, whole words only; failed and disabled terms never', async () => {
    await add(owner.token, { source: 'server farm', target: 'granja de servidores' });
    const res = await call('POST', '/api/term/recognise', owner.token, { text: 'The Server farm has a SERVER, servers and a computer.', sourceLang: 'en', targetLang: 'es' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.termBases).toEqual([baseId]);
    expect(res.body.data.hits.map((h: { text: string; target: string; start: number; forbidden: boolean }) => [h.text, h.target, h.start, h.forbidden])).toEqual([
      ['Server farm', 'granja de servidores', 4, false],
      ['SERVER', 'servidor', 22, false],
      ['computer', 'computador', 44, true],
    ]);
    // The rejected reverse term is never recognised.
    expect((await call('POST', '/api/term/recognise', owner.token, { text: 'un servidor', sourceLang: 'es', targetLang: 'en' })).body.data.hits).toEqual([]);
    // A disabled term is dropped at once (the index is rebuilt when terms change).
    const server = (await entries('&sourceLang=en')).find((e) => e.source === 'server')!.id;
    await call('POST', '/api/term/entry/review', owner.token, { ids: [server], action: 'disable' });
    const without = await call('POST', '/api/term/recognise', owner.token, { text: 'a server', sourceLang: 'en', targetLang: 'es', termBaseIds: [baseId] });
    expect(without.body.data.hits).toEqual([]);
    await call('POST', '/api/term/entry/review', owner.token, { ids: [server], action: 'enable' });
  });

  it('finds Chinese terms as substrings', async () => {
    await add(owner.token, { source: '机器', target: 'máquina', sourceLang: 'zh-CN' });
    await add(owner.token, { source: '机器翻译', target: 'traducción automática', sourceLang: 'zh-CN' });
    const res = await call('POST', '/api/term/recognise', owner.token, { text: '我们的机器翻译用机器完成', sourceLang: 'zh-CN', targetLang: 'es' });
    expect(res.body.data.hits.map((h: { text: string; start: number; end: number }) => [h.text, h.start, h.end])).toEqual([
      ['机器翻译', 3, 7],
      ['机器', 8, 10],
    ]);
  });
});

describe('files in and out', () => {
  it('imports TXT and XLSX, reporting rejected rows by number, and refuses a BOM, a file over 2 MB, an empty file, too many files and an unknown format', async () => {
    const txt = await upload(owner.token, { libraryId: String(baseId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'a.txt', content: 'mouse\tratón\nno tab here\n12345\t12345\n\nprinter\timpresora {DATA}\nscreen\tpantalla\n' }]);
    expect(txt.status, JSON.stringify(txt.body)).toBe(200);
    expect(txt.body.data).toEqual({
      imported: 2,
      rejected: 3,
      rejections: [
        { file: 'a.txt', row: 2, reason: 'no tab between the source and the translation' },
        { file: 'a.txt', row: 3, reason: 'the source is only special characters, digits or a mix of the two' },
        { file: 'a.txt', row: 5, reason: 'the translation contains a reserved marker' },
      ],
    });
    const sheet = XLSX.utils.aoa_to_sheet([['Source', 'Translation', 'Part of speech', 'Note', 'Domain', 'Forbidden'], ['laptop', 'portátil', 'noun', '', 'IT', ''], ['notebook', 'notebook', '', 'use portátil', 'IT', 'yes'], ['', 'nada']]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Terms');
    const xlsx = await upload(owner.token, { libraryId: String(baseId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'b.xlsx', content: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer }]);
    expect(xlsx.body.data).toEqual({ imported: 2, rejected: 1, rejections: [{ file: 'b.xlsx', row: 4, reason: 'the source is empty' }] });
    expect((await entries('&text=notebook'))[0]).toMatchObject({ forbidden: true, note: 'use portátil', domain: 'IT' });

    const before = (await entries()).length;
    const fields = { libraryId: String(baseId), sourceLang: 'en', targetLang: 'es' };
    const bom = await upload(owner.token, fields, [{ name: 'c.txt', content: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('cable\tcable\n')]) }]);
    expect(bom.status).toBe(400);
    expect(bom.body.msg).toContain('byte-order mark');
    expect((await upload(owner.token, fields, [{ name: 'd.txt', content: Buffer.from('Caf\xe9\tCaf\xe9\n', 'latin1') }])).body.msg).toContain('not UTF-8');
    expect((await upload(owner.token, fields, [{ name: 'e.txt', content: `${'a\tb\n'.repeat(600_000)}` }])).body.msg).toContain('over 2 MB');
    expect((await upload(owner.token, fields, [{ name: 'f.txt', content: '' }])).body.msg).toContain('empty file');
    expect((await upload(owner.token, fields, [{ name: 'g.pdf', content: 'x' }])).body.msg).toContain('not a supported format');
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `h${i}.txt`, content: `word${i}\tpalabra\n` }));
    expect((await upload(owner.token, fields, six)).body.msg).toBe('At most 5 files at a time');
    expect((await upload(outsider.token, fields, [{ name: 'i.txt', content: 'cable\tcable\n' }])).status).toBe(403);
    expect((await entries()).length).toBe(before);
  });

  it('imports CSV term lists and TBX from other tools, with forbidden translations and rejected rows by number', async () => {
    const fields = { libraryId: String(baseId), sourceLang: 'en', targetLang: 'es' };
    const csv = await upload(owner.token, fields, [{ name: 'terms.csv', content: 'en,es,note\r\nfirewall,cortafuegos,network\r\n,vacío,\r\n"12,34",x,\r\nbackup,copia de seguridad,\r\n' }]);
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect(csv.body.data).toEqual({
      imported: 2,
      rejected: 2,
      rejections: [
        { file: 'terms.csv', row: 3, reason: 'the source is empty' },
        { file: 'terms.csv', row: 4, reason: 'the source is only special characters, digits or a mix of the two' },
      ],
    });
    expect((await entries('&text=firewall'))[0]).toMatchObject({ target: 'cortafuegos', note: 'network' });
    const tbx = await upload(owner.token, fields, [{ name: 'other.tbx', content: TBX }]);
    expect(tbx.body.data).toEqual({
      imported: 2,
      rejected: 2,
      rejections: [
        { file: 'other.tbx', row: 2, reason: 'the concept has no es term' },
        { file: 'other.tbx', row: 3, reason: 'the source is only special characters, digits or a mix of the two' },
      ],
    });
    const disks = await entries('&text=hard%20disk&sortBy=target&sortOrder=asc');
    expect(disks.map((e) => [e.target, e.forbidden, e.partOfSpeech, e.domain])).toEqual([
      ['disco duro', false, 'noun', 'IT'],
      ['disco rígido', true, 'noun', 'IT'],
    ]);
    expect((await upload(owner.token, fields, [{ name: 'broken.tbx', content: '<martif><text><body><termEntry>' }])).body.msg).toContain('not a valid TBX file');
    expect((await upload(owner.token, fields, [{ name: 'big.csv', content: `en,es\n${'a,b\n'.repeat(600_000)}` }])).body.msg).toContain('over 2 MB');
  });

  it('exports only checked terms as TBX-Basic that validates against its DTD and translate-toolkit reads, and as CSV', async () => {
    const hard = (await entries('&text=hard%20disk')).map((e) => e.id);
    await call('POST', '/api/term/entry/review', owner.token, { ids: hard, action: 'pass' });
    const res = await call('GET', `/api/term/export?libraryId=${baseId}&sourceLang=en&targetLang=es`, owner.token);
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toContain('application/x-tbx+xml');
    const file = join(dir, 'export.tbx');
    writeFileSync(file, res.raw.rawPayload);
    execFileSync('xmllint', ['--noout', '--dtdvalid', join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'interchange', 'src', 'tbx-basic', 'tbx-basic-v2.dtd'), file]);
    const script = 'import json,sys\nfrom translate.storage import tbx\ns=tbx.tbxfile(open(sys.argv[1],"rb"))\nprint(json.dumps(sorted([u.source for u in s.units])))';
    expect(JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' }))).toEqual(['hard disk', 'hard disk', 'router', 'server']);
    const concepts = [];
    for await (const c of readTbx([res.raw.rawPayload])) concepts.push(c);
    const rigid = concepts.find((c) => c.languages[1]!.terms[0]!.term === 'disco rígido')!;
    expect(rigid).toMatchObject({ subjectField: 'IT', languages: [{ lang: 'en', terms: [{ term: 'hard disk', partOfSpeech: 'noun' }] }, { lang: 'es', terms: [{ forbidden: true }] }] });
    const v3 = await call('GET', `/api/term/export?libraryId=${baseId}&version=3&sourceLang=en&targetLang=es`, owner.token);
    expect(String(v3.raw.body)).toContain('<tbx type="TBX-Basic"');

    const csv = await call('GET', `/api/term/export?libraryId=${baseId}&format=csv&sourceLang=en&targetLang=es`, owner.token);
    expect(csv.raw.headers['content-type']).toContain('text/csv');
    expect(csv.raw.rawPayload[0]).not.toBe(0xef);
    expect(readTermCsv(csv.raw.rawPayload, { sourceLanguage: 'en', targetLanguage: 'es' }).rows.map((r) => r.source).sort()).toEqual(['hard disk', 'hard disk', 'router', 'server']);
  });

  it('exports only checked terms as XLSX', async () => {
    const res = await call('GET', `/api/term/export?libraryId=${baseId}&format=xlsx`, owner.token);
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toContain('spreadsheetml');
    const book = XLSX.read(res.raw.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows[0]).toEqual(['Source', 'Translation', 'Source language', 'Target language', 'Part of speech', 'Note', 'Domain', 'Forbidden']);
    // Checked: server and router, and the hard disk pair passed above; the unchecked and failed terms stay in.
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual(['hard disk', 'hard disk', 'router', 'server']);
  });
});

describe('every translation', () => {
  it('requires the recognised terms and warns when the output lacks one, or uses a forbidden one', async () => {
    // Apertium says "coche" for car; the term base asks for "automóvil", and Apertium, given the term, writes it.
    await add(owner.token, { source: 'car', target: 'automóvil' });
    const res = await call('POST', '/api/transText/translate', owner.token, { text: 'The red car is fast.', source: 'en', target: 'es' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.text, JSON.stringify(res.body.data.segments)).toContain('automóvil');
    expect(res.body.data.segments[0].issues).toEqual([]);
    // An engine whose output holds neither the term nor its own rendering of the term's source ("coche"): nothing is put in blindly, the term is flagged.
    await call('PUT', '/api/termProbe/ignore', owner.token, { word: 'coche', instead: 'vehículo' });
    const ignored = await call('POST', '/api/transText/translate', owner.token, { text: 'The blue car is fast.', source: 'en', target: 'es' });
    expect(ignored.body.data.text).toContain('vehículo');
    expect(ignored.body.data.segments[0].issues).toEqual([expect.objectContaining({ hook: 'term', severity: 'warning', code: 'term-not-applied', params: { term: 'car', target: 'automóvil' }, message: expect.stringContaining('The term "car" could not be applied') })]);
    await call('PUT', '/api/termProbe/ignore', owner.token, {});
    // A translation the engine did not write (a memory's) is checked, never rewritten: a missing term and a forbidden one are flagged.
    await add(owner.token, { source: 'red', target: 'rojo', forbidden: true });
    await call('PUT', '/api/termProbe/fill', owner.token, { target: 'El coche rojo es rápido.' });
    const forbidden = await call('POST', '/api/transText/translate', owner.token, { text: 'The red car is fast.', source: 'en', target: 'es' });
    await call('PUT', '/api/termProbe/fill', owner.token, {});
    expect(forbidden.body.data.text).toBe('El coche rojo es rápido.');
    expect(forbidden.body.data.segments[0].issues.map((i: { code: string }) => i.code).sort()).toEqual(['term-forbidden', 'term-missing']);
    expect(forbidden.body.data.segments[0].issues.find((i: { code: string }) => i.code === 'term-missing')).toMatchObject({ params: { term: 'car', target: 'automóvil' }, message: expect.stringContaining('The term "car" should read "automóvil"') });
    // From the engine, the forbidden translation is flagged too.
    const engineForbidden = await call('POST', '/api/transText/translate', owner.token, { text: 'The red car is fast.', source: 'en', target: 'es' });
    expect(engineForbidden.body.data.segments[0].issues.map((i: { code: string }) => i.code)).toEqual(['term-forbidden']);
    // The engine was asked for the term, and told to avoid the forbidden one (never asked for it).
    const seen = (await call('GET', '/api/termProbe/seen', owner.token)).body.data;
    expect(seen[seen.length - 1]).toEqual({ terms: [{ source: 'car', target: 'automóvil' }], avoid: [{ source: 'red', target: 'rojo' }] });
    // A named term base the caller may not use is refused.
    const foreign = await call('POST', '/api/term/library/add', outsider.token, { name: 'Outsider terms', ownership: 'custom', users: [{ userId: outsider.userId, use: true, edit: true }] });
    const refused = await call('POST', '/api/transText/translate', owner.token, { text: 'The red car.', source: 'en', target: 'es', resources: { termBases: [foreign.body.data.id] } });
    expect(refused.status).toBe(403);
    // Someone who may not use the term base gets no term warnings.
    const other = await call('POST', '/api/transText/translate', outsider.token, { text: 'The red car is fast.', source: 'en', target: 'es' });
    expect(other.body.data.segments[0].issues).toEqual([]);
  });

  it('applies terms so the words around them agree, with the case of the source and no double spaces', async () => {
    const made = await call('POST', '/api/term/library/add', owner.token, { name: 'Grammar terms', ownership: 'all', users: [] });
    const grammar = made.body.data.id;
    for (const [source, target] of [['printer', 'impresora'], ['computer', 'computadora'], ['screen', 'monitor'], ['hard disk', 'unidad de disco']]) {
      expect((await call('POST', '/api/term/entry/add', owner.token, { libraryId: grammar, sourceLang: 'en', targetLang: 'es', source, target })).status).toBe(200);
    }
    const run = async (text: string) => {
      const res = await call('POST', '/api/transText/translate', owner.token, { text, source: 'en', target: 'es', resources: { termBases: [grammar] } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { text: string; segments: Array<{ issues: Array<{ code: string }> }> };
    };
    // The article agrees with the term's noun (a placeholder made it "El impresora").
    expect((await run('The printer is new.')).text).toMatch(/^La impresora es nueva\./);
    // The term's gender differs from the engine's word (ordenador, m): article and adjectives follow the term.
    expect((await run('The new computer is broken.')).text).toBe('La computadora nueva está rota.');
    expect((await run('Check the screen of the old computer.')).text).toBe('Control el monitor de la computadora vieja.');
    // Across a complement of the noun to its predicate: 'roto' for the engine's ordenador becomes 'rota'.
    expect((await run('The computer of the office is broken.')).text).toBe('La computadora de la oficina está rota.');
    expect((await run('The hard disk is full.')).text).toBe('La unidad de disco es llena.');
    // Case follows the source: a cell opening with the term keeps its capital, capitals stay capitals.
    expect((await run('Printer')).text).toBe('Impresora');
    expect((await run('PRINTER')).text).toBe('IMPRESORA');
    const several = await run('The printer and the computer. Printer, screen and hard disk are new.');
    expect(several.text).not.toMatch(/ {2}/);
    expect(several.text).toMatch(/^La impresora y la computadora\. /);
    expect(several.segments.flatMap((s) => s.issues)).toEqual([]);
  });

  it('deletes a term base with its terms and history', async () => {
    const made = await call('POST', '/api/term/library/add', owner.token, { name: 'Short-lived', ownership: 'all', users: [] });
    baseId = made.body.data.id;
    await add(owner.token, { source: 'disk', target: 'disco' });
    expect((await call('DELETE', `/api/term/library/delete?id=${baseId}`, owner.token)).body.data).toEqual({ deleted: 1 });
    expect(await k.database.db.selectFrom('term_entries' as never).selectAll().where('library_id' as never, '=', baseId as never).execute()).toEqual([]);
    expect((await call('GET', `/api/term/entry/list?libraryId=${baseId}`, owner.token)).status).toBe(404);
  });
});
