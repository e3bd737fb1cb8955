import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

// Issue 23 item 5: a corpus imports XLIFF (1.2 and 2.x) and PO as well as TMX, read by the format
// registry's readers (the SDK's bilingualRows); a malformed XLIFF is refused with the reader's line and
// column in both languages and changes nothing.

let k: TestKernel;
let owner: string;

async function call(method: string, url: string, payload?: unknown) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { jwt: owner, cookie: 'locale=en-US' }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

async function importInto(corpusId: number, name: string, content: string, locale = 'en-US') {
  const boundary = '----corpusxliff';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="corpusId"\r\n\r\n${corpusId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  );
  const res = await k.app.inject({ method: 'POST', url: '/api/corpus/import', headers: { jwt: owner, cookie: `locale=${locale}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  return { status: res.statusCode, body: res.json() };
}

async function newCorpus(name: string) {
  const res = await call('POST', '/api/corpus/add', { name, sourceLang: 'en', targetLang: 'es', domain: 'legal' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as number;
}
const pairs = async (id: number) => ((await call('GET', `/api/corpus/pair/list?corpusId=${id}&pageSize=200`)).body.data.records as Array<{ source: string; target: string }>).map((p) => [p.source, p.target]);

const XLIFF12 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
    <trans-unit id="1"><source>The contract is valid.</source><target state="final">El contrato es válido.</target></trans-unit>
    <trans-unit id="2"><source>Sign <g id="1">here</g>.</source><target>Firme <g id="1">aquí</g>.</target></trans-unit>
    <trans-unit id="3"><source>Pending</source><target state="needs-review-translation">Pendiente</target></trans-unit>
  </body></file>
</xliff>`;
const XLIFF2 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en" trgLang="es">
  <file id="f1"><unit id="u1"><segment state="reviewed"><source>The court decides.</source><target>El tribunal decide.</target></segment></unit></file>
</xliff>`;
const PO = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "The parties agree."\nmsgstr "Las partes acuerdan."\n\n#, fuzzy\nmsgid "Draft"\nmsgstr "Borrador"\n`;

beforeAll(async () => {
  k = await startTestKernel({ plugins: ['corpus', 'formats-text'] });
  await createUserWithRole(k, 'cx-owner', 'Owner-Passw0rd!', 'cx owners', ['corpus:view', 'corpus:edit']);
  owner = await k.login('cx-owner', 'Owner-Passw0rd!');
}, 180_000);
afterAll(async () => {
  await k?.shutdown();
});

describe('bilingual files into a corpus', () => {
  it('imports XLIFF 1.2, XLIFF 2.1 and PO: finished translations in, drafts refused with their reason', async () => {
    const id = await newCorpus('Bilingual');
    const x1 = await importInto(id, 'a.xlf', XLIFF12);
    expect(x1.body.data, JSON.stringify(x1.body)).toMatchObject({ imported: 2, rejected: 1, rejections: [{ file: 'a.xlf', row: 3, reason: 'the translation is marked as needing work (needs-review-translation)' }] });
    const x2 = await importInto(id, 'b.xliff', XLIFF2);
    expect(x2.body.data).toMatchObject({ imported: 1, rejected: 0 });
    const po = await importInto(id, 'c.po', PO);
    expect(po.body.data).toMatchObject({ imported: 1, rejected: 1 });
    expect(await pairs(id)).toEqual([
      ['The contract is valid.', 'El contrato es válido.'],
      ['Sign <1>here</1>.', 'Firme <1>aquí</1>.'],
      ['The court decides.', 'El tribunal decide.'],
      ['The parties agree.', 'Las partes acuerdan.'],
    ]);
  });

  it('refuses a malformed XLIFF with line and column in both languages, changing nothing', async () => {
    const id = await newCorpus('Refused');
    const broken = XLIFF12.replace('<target state="final">El contrato es válido.</target>', '<target state="final">El contrato es válido.');
    const en = await importInto(id, 'bad.xlf', broken);
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/^bad\.xlf: not a valid XLIFF file \(xliff: not well-formed XML: .*\(line 4, column \d+\)\)$/);
    const zh = await importInto(id, 'bad.xlf', broken, 'zh-CN');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/^bad\.xlf：不是有效的 XLIFF 文件（xliff: not well-formed XML: .*\(line 4, column \d+\)）$/);
    expect(await pairs(id)).toEqual([]);
  });
});
