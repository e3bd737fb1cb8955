import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createUserWithRole, issueApiKey, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// The memory area in the real kernel with text translation and the real Apertium engine: memories
// and who may use them, entries and their review, TMX in and out (read back by translate-toolkit),
// matching, and exact matches filling every translation through the pipeline.

let k: TestKernel;
let admin: string;
const ALL = ['tm:view', 'tm:library', 'tm:add', 'tm:edit', 'tm:delete', 'tm:review', 'tm:import', 'tm:export', 'transText:use'];
let owner: { userId: number; token: string };
let colleague: { userId: number; token: string };
let outsider: { userId: number; token: string };
let memoryId: number;
const dir = mkdtempSync(join(tmpdir(), 'tm-test-'));
const en = { cookie: 'locale=en-US' };

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, ...en }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

async function upload(token: string, fields: Record<string, string>, files: Array<{ name: string; content: string | Buffer }>) {
  const boundary = '----tmtest';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/TM/import', headers: { jwt: token, ...en, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="x" adminlang="en" srclang="en-US" datatype="plaintext"/>
<body>
  <tu><tuv xml:lang="en-US"><seg>The contract is valid.</seg></tuv><tuv xml:lang="es-ES"><seg>El contrato es válido.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>Press <bpt i="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept>.</seg></tuv><tuv xml:lang="es"><seg>Pulse <bpt i="1">&lt;b&gt;</bpt>Guardar<ept i="1">&lt;/b&gt;</ept>.</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>12345</seg></tuv><tuv xml:lang="es"><seg>12345</seg></tuv></tu>
  <tu><tuv xml:lang="en"><seg>Only English here.</seg></tuv><tuv xml:lang="fr"><seg>Seulement en anglais.</seg></tuv></tu>
</body></tmx>`;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['tm', 'trans-text', 'service'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
  const db = k.database.db;
  const a = await createUserWithRole(k, 'tm-owner', 'Owner-Passw0rd!', 'memory owners', ALL);
  const b = await createUserWithRole(k, 'tm-colleague', 'Colleague-Passw0rd!', 'memory users', ['tm:view', 'tm:add', 'transText:use']);
  const c = await createUserWithRole(k, 'tm-outsider', 'Outsider-Passw0rd!', 'other users', ALL);
  // The outsider works in another department.
  const other = await db.insertInto('departments').values({ name: 'Other department', code: 'other' }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('user_department_roles').set({ department_id: other.id }).where('user_id', '=', c.userId).execute();
  owner = { userId: a.userId, token: await k.login('tm-owner', 'Owner-Passw0rd!') };
  colleague = { userId: b.userId, token: await k.login('tm-colleague', 'Colleague-Passw0rd!') };
  outsider = { userId: c.userId, token: await k.login('tm-outsider', 'Outsider-Passw0rd!') };
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe('memories and who may use them', () => {
  it('creates a department memory that its department sees and uses, and nobody else', async () => {
    const created = await call('POST', '/api/TM/library/add', owner.token, { name: 'Legal EN-ES', ownership: 'department', kind: 'shared', users: [], isDefault: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    memoryId = created.body.data.id;
    const mine = await call('GET', '/api/TM/library/list', owner.token);
    expect(mine.body.data.records).toEqual([expect.objectContaining({ id: memoryId, name: 'Legal EN-ES', ownership: 'department', isDefault: true, mayEdit: true })]);
    expect((await call('GET', '/api/TM/library/list', colleague.token)).body.data.records.map((r: { id: number }) => r.id)).toEqual([memoryId]);
    expect((await call('GET', '/api/TM/library/list', outsider.token)).body.data.records).toEqual([]);
    // A direct call from outside the department gets the insufficient-permission message.
    const direct = await call('GET', `/api/TM/entry/list?libraryId=${memoryId}`, outsider.token);
    expect(direct.status).toBe(403);
    expect(direct.body.msg).toBe('Insufficient permission: you may not use or edit this memory');
    expect((await call('GET', `/api/TM/export?libraryId=${memoryId}`, outsider.token)).status).toBe(403);
  });

  it("refuses sharing a memory with a department the caller does not belong to, in both languages; the super administrator may", async () => {
    const db = k.database.db;
    const ownersDepartment = Number((await db.selectFrom('user_department_roles').select('department_id').where('user_id', '=', owner.userId).executeTakeFirstOrThrow()).department_id);
    const count = async () => Number((await db.selectFrom('tm_libraries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const body = { name: 'Shared with them', ownership: 'department', departmentId: ownersDepartment, users: [] };
    const refused = await call('POST', '/api/TM/library/add', outsider.token, body);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe(`You cannot share a memory with department ${ownersDepartment}: you do not belong to it`);
    const zh = await k.app.inject({ method: 'POST', url: '/api/TM/library/add', headers: { jwt: outsider.token, cookie: 'locale=zh-CN' }, payload: body });
    expect(zh.json().msg).toBe(`不能将记忆库共享给部门 ${ownersDepartment}：您不属于该部门`);
    expect(await count()).toBe(before);
    // Its own department, then moved to another's: the move is refused and the memory stays where it was.
    const own = await call('POST', '/api/TM/library/add', outsider.token, { ...body, departmentId: undefined });
    expect(own.status).toBe(200);
    const moved = await call('PUT', '/api/TM/library/update', outsider.token, { ...body, id: own.body.data.id });
    expect(moved.status).toBe(403);
    const row = await db.selectFrom('tm_libraries').select('department_id').where('id', '=', own.body.data.id).executeTakeFirstOrThrow();
    expect(row.department_id).not.toBe(ownersDepartment);
    // Renaming it keeps its department: no new assignment.
    expect((await call('PUT', '/api/TM/library/update', outsider.token, { ...body, name: 'Renamed', departmentId: row.department_id, id: own.body.data.id })).status).toBe(200);
    const byAdmin = await call('POST', '/api/TM/library/add', admin, body);
    expect(byAdmin.status).toBe(200);
    await call('DELETE', `/api/TM/library/delete?id=${own.body.data.id}`, outsider.token);
    await call('DELETE', `/api/TM/library/delete?id=${byAdmin.body.data.id}`, admin);
  });

  it('refuses a memory without a name or with an unlisted custom ownership, and lets only editors add entries', async () => {
    expect((await call('POST', '/api/TM/library/add', owner.token, { name: ' ', ownership: 'all', users: [] })).status).toBe(400);
    const custom = await call('POST', '/api/TM/library/add', owner.token, { name: 'Nobody', ownership: 'custom', users: [] });
    expect(custom.status).toBe(400);
    expect(custom.body.msg).toContain('at least one user');
    const noRight = await call('POST', '/api/TM/library/add', owner.token, { name: 'X', ownership: 'custom', users: [{ userId: colleague.userId, use: false, edit: false }] });
    expect(noRight.status).toBe(400);
    const add = await call('POST', '/api/TM/entry/add', colleague.token, { libraryId: memoryId, source: 'Hello there.', target: 'Hola.', sourceLang: 'en', targetLang: 'es' });
    expect(add.status).toBe(403);
  });
});

describe('entries and review', () => {
  it('validates entries as the spec says and adds both ways on request', async () => {
    const bad = [
      [{ source: '123 456', target: 'x' }, 'The source cannot be only special characters, only digits, or a mix of the two'],
      [{ source: 'Good text', target: 'Un |||' }, 'The translation cannot contain the reserved markers'],
      [{ source: 'Good text', target: ' ' }, 'This field is required'],
    ] as const;
    for (const [over, msg] of bad) {
      const res = await call('POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, sourceLang: 'en', targetLang: 'es', ...over });
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain(msg);
    }
    const both = await call('POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, source: 'The red car is fast.', target: 'El automóvil rojo es veloz.', sourceLang: 'en', targetLang: 'es', bidirectional: true });
    expect(both.body.data.map((e: { sourceLang: string }) => e.sourceLang)).toEqual(['en', 'es']);
  });

  it('passes and rejects only unchecked entries, enables only checked ones, records each action and tells the creator', async () => {
    const list = (await call('GET', `/api/TM/entry/list?libraryId=${memoryId}&sourceLang=en`, owner.token)).body.data.records;
    const id = list.find((e: { source: string }) => e.source === 'The red car is fast.').id;
    const reverse = (await call('GET', `/api/TM/entry/list?libraryId=${memoryId}&sourceLang=es`, owner.token)).body.data.records[0].id;
    expect((await call('POST', '/api/TM/entry/review', owner.token, { ids: [id], action: 'enable' })).status).toBe(400);
    expect((await call('POST', '/api/TM/entry/review', owner.token, { ids: [id], action: 'pass' })).body.data[0]).toMatchObject({ status: 'checked' });
    // A batch with one entry the action does not fit changes nothing.
    const mixed = await call('POST', '/api/TM/entry/review', owner.token, { ids: [id, reverse], action: 'reject' });
    expect(mixed.status).toBe(400);
    expect(mixed.body.msg).toContain(String(id));
    expect((await call('GET', `/api/TM/entry/list?libraryId=${memoryId}&sourceLang=es`, owner.token)).body.data.records[0].status).toBe('unchecked');
    expect((await call('POST', '/api/TM/entry/review', owner.token, { ids: [reverse], action: 'reject' })).body.data[0].status).toBe('failed');
    expect((await call('POST', '/api/TM/entry/review', owner.token, { ids: [id], action: 'disable' })).body.data[0].enabled).toBe(false);
    expect((await call('POST', '/api/TM/entry/review', owner.token, { ids: [id], action: 'enable' })).body.data[0].enabled).toBe(true);
    const history = (await call('GET', `/api/TMHistory/list?libraryId=${memoryId}`, owner.token)).body.data.records;
    expect(history.slice(0, 4).map((h: { action: string }) => h.action)).toEqual(['enable', 'disable', 'reject', 'pass']);
    expect(history[3]).toMatchObject({ entryId: id, actorId: owner.userId, before: expect.objectContaining({ status: 'unchecked' }), after: expect.objectContaining({ status: 'checked' }) });
    expect((await call('GET', `/api/TMHistory/list?libraryId=${memoryId}`, outsider.token)).status).toBe(403);
  });

  it('sends the creator a check message when someone else reviews their entry', async () => {
    await k.database.db.insertInto('tm_library_users').values({ library_id: memoryId, user_id: colleague.userId, can_use: true, can_edit: true }).execute();
    const added = await call('POST', '/api/TM/entry/add', colleague.token, { libraryId: memoryId, source: 'Colleague sentence.', target: 'Frase del colega.', sourceLang: 'en', targetLang: 'es' });
    expect(added.status).toBe(200);
    await call('POST', '/api/TM/entry/review', owner.token, { ids: [added.body.data[0].id], action: 'pass' });
    const messages = await k.database.db.selectFrom('messages' as never).selectAll().where('user_id' as never, '=', colleague.userId as never).execute();
    expect(messages).toEqual([expect.objectContaining({ type: 'check' })]);
  });
});

describe('TMX in and out', () => {
  it('imports a TMX from another tool: language variants matched, tags kept, bad rows reported by number, nothing else lost', async () => {
    const res = await upload(owner.token, { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'omegat.tmx', content: TMX }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ imported: 2, rejected: 2 });
    expect(res.body.data.rejections).toEqual([
      { file: 'omegat.tmx', row: 3, reason: 'the source is only special characters, digits or a mix of the two' },
      { file: 'omegat.tmx', row: 4, reason: 'the unit has no es text' },
    ]);
    const entries = (await call('GET', `/api/TM/entry/list?libraryId=${memoryId}&text=Save`, owner.token)).body.data.records;
    expect(entries[0]).toMatchObject({ source: 'Press <1>Save</1>.', target: 'Pulse <1>Guardar</1>.' });
  });

  it('refuses a TXT with a BOM or not UTF-8, an empty file, and an unknown format, importing nothing', async () => {
    const before = (await call('GET', `/api/TM/entry/list?libraryId=${memoryId}`, owner.token)).body.data.total;
    const bom = await upload(owner.token, { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'a.txt', content: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Hello\tHola\n')]) }]);
    expect(bom.status).toBe(400);
    expect(bom.body.msg).toContain('byte-order mark');
    const latin1 = await upload(owner.token, { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'b.txt', content: Buffer.from('Caf\xe9\tCaf\xe9\n', 'latin1') }]);
    expect(latin1.body.msg).toContain('not UTF-8');
    expect((await upload(owner.token, { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'c.txt', content: '' }])).body.msg).toContain('empty file');
    expect((await upload(owner.token, { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'd.pdf', content: 'x' }])).body.msg).toContain('not a supported format');
    const txt = await upload(owner.token, { libraryId: String(memoryId), sourceLang: 'en', targetLang: 'es' }, [{ name: 'e.txt', content: 'Good morning.\tBuenos días.\nno tab here\n' }]);
    expect(txt.body.data).toMatchObject({ imported: 1, rejected: 1, rejections: [{ file: 'e.txt', row: 2, reason: 'no tab between the source and the translation' }] });
    expect((await call('GET', `/api/TM/entry/list?libraryId=${memoryId}`, owner.token)).body.data.total).toBe(before + 1);
  });

  it('exports only checked entries as TMX that validates against the DTD and translate-toolkit reads', async () => {
    const all = (await call('GET', `/api/TM/entry/list?libraryId=${memoryId}&status=unchecked&pageSize=100`, owner.token)).body.data.records;
    const toPass = all.filter((e: { source: string }) => e.source.startsWith('Press') || e.source.startsWith('The contract')).map((e: { id: number }) => e.id);
    await call('POST', '/api/TM/entry/review', owner.token, { ids: toPass, action: 'pass' });
    const res = await call('GET', `/api/TM/export?libraryId=${memoryId}&format=tmx`, owner.token);
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toContain('application/x-tmx+xml');
    const file = join(dir, 'export.tmx');
    writeFileSync(file, res.raw.body);
    execFileSync('xmllint', ['--noout', '--dtdvalid', join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'interchange', 'src', 'tmx14.dtd'), file]);
    const script = 'import json,sys\nfrom translate.storage import tmx\ns=tmx.tmxfile(open(sys.argv[1],"rb"),sourcelanguage="en",targetlanguage="es")\nprint(json.dumps(sorted([[u.source,u.target] for u in s.units if u.source])))';
    const read = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as string[][];
    // The checked entries: the red car (passed above), the colleague's sentence, the contract and Press Save; not the unchecked ones.
    expect(read.map((r) => r[0])).toEqual(['Colleague sentence.', 'Press <b>Save</b>.', 'The contract is valid.', 'The red car is fast.']);
    expect(read.find((r) => r[0] === 'The contract is valid.')![1]).toBe('El contrato es válido.');
  });
});

describe('matching and every translation', () => {
  it('finds fuzzy matches with a score, penalises a different number, and highlights a concordance', async () => {
    await call('POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, source: 'Close the window before you leave the office.', target: 'Cierre la ventana antes de salir de la oficina.', sourceLang: 'en', targetLang: 'es' });
    await call('POST', '/api/TM/entry/add', owner.token, { libraryId: memoryId, source: 'Pay 30 euros before Friday.', target: 'Pague 30 euros antes del viernes.', sourceLang: 'en', targetLang: 'es' });
    const m = await call('GET', `/api/TM/match?sourceLang=en&targetLang=es&text=${encodeURIComponent('Close the door before you leave the office.')}`, owner.token);
    expect(m.body.data.matches[0]).toMatchObject({ source: 'Close the window before you leave the office.', score: expect.any(Number) });
    expect(m.body.data.matches[0].score).toBeGreaterThanOrEqual(80);
    expect(m.body.data.matches[0].score).toBeLessThan(100);
    // The differences as spans of the texts (each token with the white space after it), the kept parts around them.
    expect(m.body.data.matches[0].diff).toEqual([{ op: 'equal', text: 'Close the ' }, { op: 'delete', text: 'window ' }, { op: 'insert', text: 'door ' }, { op: 'equal', text: 'before you leave the office.' }]);
    const number = await call('GET', `/api/TM/match?sourceLang=en&targetLang=es&text=${encodeURIComponent('Pay 40 euros before Friday.')}`, owner.token);
    const word = await call('GET', `/api/TM/match?sourceLang=en&targetLang=es&text=${encodeURIComponent('Pay 30 dollars before Friday.')}`, owner.token);
    expect(number.body.data.matches[0].score).toBeLessThan(word.body.data.matches[0].score);
    const c = await call('GET', `/api/TM/concordance?q=${encodeURIComponent('before you')}`, owner.token);
    expect(c.body.data.entries[0]).toMatchObject({ source: 'Close the window before you leave the office.', sourceHighlights: [[17, 27]] });
    expect((await call('GET', `/api/TM/match?libraryIds=${memoryId}&sourceLang=en&targetLang=es&text=x`, outsider.token)).status).toBe(403);
  });

  it('fills exact matches before the engine in text translation and the LibreTranslate API, and marks where they came from', async () => {
    const text = 'The red car is fast. The house is big.';
    const res = await call('POST', '/api/transText/translate', owner.token, { text, source: 'en', target: 'es' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const out = res.body.data;
    // The memory's own wording (not Apertium's) for the first sentence, the engine for the second.
    expect(out.text).toMatch(/^El automóvil rojo es veloz\. \S/);
    expect(out.segments.map((s: { origin: { kind: string; hook?: string } }) => s.origin.hook ?? s.origin.kind)).toEqual(['tm', 'engine']);
    expect(out.segments[0].origin).toMatchObject({ score: 100, ref: expect.stringMatching(new RegExp(`^tm:${memoryId}:`)) });
    // Named memories are checked: one the caller may not use is refused.
    const foreign = await call('POST', '/api/TM/library/add', outsider.token, { name: 'Outsider memory', ownership: 'custom', users: [{ userId: outsider.userId, use: true, edit: true }] });
    const refused = await call('POST', '/api/transText/translate', owner.token, { text, source: 'en', target: 'es', resources: { memories: [foreign.body.data.id] } });
    expect(refused.status).toBe(403);
    const key = await issueApiKey(k, owner.userId);
    const lt = await k.app.inject({ method: 'POST', url: '/api/lt/translate', headers: { 'content-type': 'application/json' }, payload: { q: 'The red car is fast.', source: 'en', target: 'es', api_key: key } });
    expect(lt.json().translatedText).toBe('El automóvil rojo es veloz.');
    // Someone who may not use the memory gets the engine's translation, not the memory's.
    const other = await call('POST', '/api/transText/translate', outsider.token, { text: 'The red car is fast.', source: 'en', target: 'es' });
    expect(JSON.stringify(other.body.data)).not.toContain('automóvil');
  });

  it('uses near matches without the engine from the auto-use score an administrator sets, and shows matches from the show score', async () => {
    expect((await call('GET', '/api/TM/settings', owner.token)).body.data).toEqual({ showThreshold: 50, autoUseThreshold: 100, variantPenalty: 2 });
    // Setting the thresholds takes its own key; the auto-use score cannot be below the show score.
    expect((await call('PUT', '/api/TM/settings', colleague.token, { showThreshold: 60, autoUseThreshold: 90 })).status).toBe(403);
    const below = await call('PUT', '/api/TM/settings', admin, { showThreshold: 95, autoUseThreshold: 90 });
    expect(below.status).toBe(400);
    expect(below.body.msg).toContain('cannot be below the score to show it');
    expect((await call('GET', '/api/TM/settings', owner.token)).body.data).toEqual({ showThreshold: 50, autoUseThreshold: 100, variantPenalty: 2 });

    // With exact matches only, the near sentence goes to the engine.
    const near = 'Close the door before you leave the office.';
    const before = await call('POST', '/api/transText/translate', owner.token, { text: near, source: 'en', target: 'es' });
    expect(before.body.data.segments[0].origin.kind).toBe('engine');
    expect((await call('PUT', '/api/TM/settings', admin, { showThreshold: 60, autoUseThreshold: 80 })).body.data).toEqual({ showThreshold: 60, autoUseThreshold: 80, variantPenalty: 2 });
    const after = await call('POST', '/api/transText/translate', owner.token, { text: near, source: 'en', target: 'es' });
    expect(after.body.data.text).toBe('Cierre la ventana antes de salir de la oficina.');
    expect(after.body.data.segments[0].origin).toMatchObject({ kind: 'hook', hook: 'tm', score: expect.any(Number) });
    expect(after.body.data.segments[0].origin.score).toBeLessThan(100);
    expect(after.body.data.segments[0].issues).toEqual([expect.objectContaining({ hook: 'tm', code: 'tm-fuzzy-used', params: expect.objectContaining({ source: 'Close the window before you leave the office.' }) })]);
    // A show score above the match's hides it from /TM/match.
    await call('PUT', '/api/TM/settings', admin, { showThreshold: 95, autoUseThreshold: 100 });
    const hidden = await call('GET', `/api/TM/match?sourceLang=en&targetLang=es&text=${encodeURIComponent(near)}`, owner.token);
    expect(hidden.body.data.matches).toEqual([]);
    await call('PUT', '/api/TM/settings', admin, { showThreshold: 50, autoUseThreshold: 100 });
  });
});
