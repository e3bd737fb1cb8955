import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Audio/video translation uses the memories and term bases chosen at upload (issue 22 item 1): a line
// the chosen memory knows comes from it, not from the engine, also when a corrected line is translated
// again; a memory the caller may not use is refused before anything is stored.

let k: TestKernel;
let owner: string;
let outsider: string;
let dir: string;
let talk: Buffer;

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, cookie: 'locale=en-US' }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

async function upload(token: string, fields: Record<string, string>) {
  const boundary = '----tvresources';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="talk.wav"\r\nContent-Type: audio/wav\r\n\r\n`), talk, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/transVideo/upload', headers: { jwt: token, cookie: 'locale=en-US', 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function finished(token: string, id: number) {
  let last: any = null;
  await expect.poll(async () => ((last = (await call('GET', `/api/transVideo/get/${id}`, token)).body.data), ['completed', 'failed'].includes(last.job.status)), { timeout: 120_000, interval: 200 }).toBe(true);
  expect(last.job.status, last.job.error).toBe('completed');
  return last.cues as Array<{ index: number; source: string; target: string }>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tv-resources-'));
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', join(dir, 'talk.wav'), 'The children are playing in the park.']);
  talk = readFileSync(join(dir, 'talk.wav'));
  k = await startTestKernel({ plugins: ['trans-video', 'tm'] });
  const keys = ['transVideo:use', 'tm:view', 'tm:library', 'tm:add', 'tm:edit'];
  await createUserWithRole(k, 'tv-memory-owner', 'Owner-Passw0rd!', 'video translators with memories', keys);
  const other = await createUserWithRole(k, 'tv-memory-outsider', 'Outsider-Passw0rd!', 'translators elsewhere', keys);
  const department = await k.database.db.insertInto('departments').values({ name: 'Elsewhere', code: 'elsewhere' }).returning('id').executeTakeFirstOrThrow();
  await k.database.db.updateTable('user_department_roles').set({ department_id: department.id }).where('user_id', '=', other.userId).execute();
  owner = await k.login('tv-memory-owner', 'Owner-Passw0rd!');
  outsider = await k.login('tv-memory-outsider', 'Outsider-Passw0rd!');
}, 120_000);

afterAll(async () => {
  await k?.shutdown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('memories chosen for a recording', () => {
  it('translates a line the chosen memory knows from the memory, also when a corrected line is translated again', async () => {
    // What the engine makes of the recording, with no memory chosen and none by default.
    const plain = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es' });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const heard = await finished(owner, plain.body.data.id);
    expect(heard.length).toBeGreaterThan(0);
    const line = heard[0]!;
    expect(line.target).not.toBe('LÍNEA DE LA MEMORIA');

    const memory = await call('POST', '/api/TM/library/add', owner, { name: 'Subtitles EN-ES', ownership: 'department', kind: 'shared', users: [], isDefault: false });
    expect(memory.status, JSON.stringify(memory.body)).toBe(200);
    const memoryId = memory.body.data.id as number;
    for (const [source, target] of [[line.source, 'LÍNEA DE LA MEMORIA'], ['A corrected line.', 'UNA LÍNEA CORREGIDA DE LA MEMORIA']]) {
      const added = await call('POST', '/api/TM/entry/add', owner, { libraryId: memoryId, source, target, sourceLang: 'en', targetLang: 'es' });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }

    const chosen = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es', memories: JSON.stringify([memoryId]) });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    // The job says what it keeps, in the upload's answer and in its details.
    expect(chosen.body.data).toMatchObject({ memories: [memoryId], termBases: [] });
    const details = await call('GET', `/api/transVideo/get/${chosen.body.data.id}`, owner);
    expect(details.body.data?.job, JSON.stringify(details.body)).toMatchObject({ memories: [memoryId], termBases: [] });
    const cues = await finished(owner, chosen.body.data.id);
    expect(cues[0]).toMatchObject({ source: line.source, target: 'LÍNEA DE LA MEMORIA' });

    const corrected = await call('PUT', `/api/transVideo/cue/${chosen.body.data.id}/${cues[0]!.index}`, owner, { source: 'A corrected line.' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body.data.target).toBe('UNA LÍNEA CORREGIDA DE LA MEMORIA');
  }, 300_000);

  it("refuses a memory the caller may not use before anything is stored", async () => {
    const theirs = await call('POST', '/api/TM/library/add', outsider, { name: 'Not yours', ownership: 'department', kind: 'shared', users: [], isDefault: false });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    const count = async () => Number((await k.database.db.selectFrom('tv_jobs' as never).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const refused = await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es', memories: JSON.stringify([theirs.body.data.id]) });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await count()).toBe(before);
    expect((await upload(owner, { sourceLanguage: 'en', targetLanguage: 'es', memories: 'not-an-id' })).status).toBe(400);
    expect(await count()).toBe(before);
  }, 120_000);
});
