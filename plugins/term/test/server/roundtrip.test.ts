import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// A term base written as CSV or XLSX by the platform imports into a new base with the same terms and
// every field of each (issue 23 item 3): forbidden, part of speech, domain and note, formula-like and
// quoted text included.

let k: TestKernel;
let token: string;

async function call(method: string, url: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: token, cookie: 'locale=en-US' }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, raw: res };
}

async function upload(libraryId: number, name: string, content: Buffer) {
  const boundary = '----termroundtrip';
  const parts: Buffer[] = [];
  for (const [n, v] of Object.entries({ libraryId: String(libraryId), sourceLang: 'en', targetLang: 'es' })) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await k.app.inject({ method: 'POST', url: '/api/term/import', headers: { jwt: token, cookie: 'locale=en-US', 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) });
  return { status: res.statusCode, body: res.json() };
}

async function base(name: string): Promise<number> {
  const res = await call('POST', '/api/term/library/add', { name, ownership: 'all', kind: 'shared', users: [] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

type Term = { source: string; target: string; forbidden: boolean; partOfSpeech: string | null; note: string | null; domain: string | null };
const terms = async (libraryId: number) =>
  ((await call('GET', `/api/term/entry/list?libraryId=${libraryId}&pageSize=100`)).body.data.records as Term[])
    .map(({ source, target, forbidden, partOfSpeech, note, domain }) => ({ source, target, forbidden, partOfSpeech, note, domain }))
    .sort((a, b) => (`${a.source}|${a.target}` < `${b.source}|${b.target}` ? -1 : 1));

const TERMS = [
  { source: 'hard disk', target: 'disco duro', partOfSpeech: 'noun', domain: 'IT', note: 'the usual term' },
  { source: 'hard disk', target: 'disco rígido', forbidden: true, partOfSpeech: 'noun', domain: 'IT', note: 'Latin America, not for this client' },
  { source: 'log in', target: 'iniciar sesión', partOfSpeech: 'verb', note: 'not "loguearse", nor "logear"' },
  { source: 'router', target: 'enrutador', domain: 'Networks; hardware' },
  { source: 'backup', target: 'copia de seguridad' },
  { source: 'minus', target: '-menos', note: '=a formula-like note, kept as text', forbidden: true },
];

let original: number;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['term'] });
  await createUserWithRole(k, 'term-roundtrip', 'Roundtrip-Passw0rd!', 'term owners', ['term:view', 'term:library', 'term:add', 'term:edit', 'term:review', 'term:import', 'term:export']);
  token = await k.login('term-roundtrip', 'Roundtrip-Passw0rd!');
  original = await base('Original');
  for (const t of TERMS) {
    const res = await call('POST', '/api/term/entry/add', { libraryId: original, sourceLang: 'en', targetLang: 'es', ...t });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await k?.shutdown();
});

describe('term base files written by the platform import to the same base', () => {
  for (const format of ['csv', 'xlsx'] as const) {
    it(`exports every field as ${format.toUpperCase()} and reads it back: forbidden, part of speech, domain and note`, async () => {
      const res = await call('GET', `/api/term/export?libraryId=${original}&format=${format}&scope=all`);
      expect(res.status).toBe(200);
      const copy = await base(`Copy ${format}`);
      const imported = await upload(copy, `terms.${format}`, res.raw.rawPayload);
      expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ imported: TERMS.length, rejected: 0 });
      const want = await terms(original);
      expect(want.filter((t) => t.forbidden)).toHaveLength(2);
      expect(await terms(copy)).toEqual(want);
    });
  }
});
