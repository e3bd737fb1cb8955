import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, EN, peerEs, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel } from './support.js';

// Bilingual documents (PO, XLIFF) uploaded with translations already in them (issue 23 item 1): the
// upload's `existingTargets` choice decides which are kept; machine output is marked for review in
// the file's own way; a file that is not well-formed XML is refused before anything is stored.

let d: DocKernel;
let alice: { userId: number; token: string };

beforeAll(async () => {
  d = await startDocKernel({ plugins: ['formats-text'] });
  alice = await userWith(d.kernel, 'alice', ['transFile:use']);
});
afterAll(() => d?.close());

const PO = `msgid ""
msgstr ""
"Project-Id-Version: sample 1.0\\n"
"Language: es\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Open the file"
msgstr "Abrir el archivo"

#, fuzzy
msgid "Save the file"
msgstr "Guardar archivo"

msgid "Close the window"
msgstr ""

msgid "One red car"
msgid_plural "Many red cars"
msgstr[0] "Un coche rojo"
msgstr[1] ""

#~ msgid "Old string"
#~ msgstr "Cadena vieja"
`;

const XLIFF = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="es" datatype="plaintext">
    <body>
      <trans-unit id="approved" approved="yes">
        <source>Open the file</source>
        <target state="translated">Abrir el archivo</target>
      </trans-unit>
      <trans-unit id="translated">
        <source>Print the page</source>
        <target state="translated">Imprimir la página</target>
      </trans-unit>
      <trans-unit id="fuzzy">
        <source>Save the file</source>
        <target state="needs-review-translation">Guardar archivo</target>
      </trans-unit>
      <trans-unit id="empty">
        <source>Close the window</source>
      </trans-unit>
      <trans-unit id="code" translate="no">
        <source>Keep this text</source>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

async function translateWith(name: string, content: string, existingTargets?: string): Promise<string> {
  const fields: Record<string, string> = { sourceLang: 'en', targetLang: 'es', ...(existingTargets ? { existingTargets } : {}) };
  const res = await upload(d.kernel, alice.token, fields, [{ name, content }]);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data[0].id;
  await waitForFile(d.kernel, alice.token, id, (f) => f.status === 'completed', 60_000);
  const file = await call(d.kernel, 'GET', `/api/transFile/download/${id}`, alice.token);
  expect(file.status).toBe(200);
  return file.raw.toString('utf8');
}

const MT_PO = (msgid: string) => `#, fuzzy\nmsgid "${msgid}"\nmsgstr "${peerEs(msgid)}"\n`;

describe('documents with translations already in them', () => {
  it('PO, by default: keeps the human msgstr and the header, translates the fuzzy and empty ones and marks them fuzzy', async () => {
    const out = await translateWith('app.po', PO);
    expect(out.slice(0, out.indexOf('\n\n'))).toBe(PO.slice(0, PO.indexOf('\n\n')));
    expect(out).toContain('\nmsgid "Open the file"\nmsgstr "Abrir el archivo"\n');
    expect(out).toContain(MT_PO('Save the file'));
    expect(out).toContain(MT_PO('Close the window'));
    expect(out).toContain(`#, fuzzy\nmsgid "One red car"\nmsgid_plural "Many red cars"\nmsgstr[0] "Un coche rojo"\nmsgstr[1] "${peerEs('Many red cars')}"\n`);
    expect(out).toContain('#~ msgid "Old string"\n#~ msgstr "Cadena vieja"\n');
  });

  it('PO with keepAll keeps the fuzzy translation as it was; with retranslate every entry is machine output', async () => {
    const all = await translateWith('all.po', PO, 'keepAll');
    expect(all).toContain('#, fuzzy\nmsgid "Save the file"\nmsgstr "Guardar archivo"\n');
    expect(all).toContain('\nmsgid "Open the file"\nmsgstr "Abrir el archivo"\n');
    expect(all).toContain(MT_PO('Close the window'));
    const again = await translateWith('again.po', PO, 'retranslate');
    expect(again).toContain(MT_PO('Open the file'));
    expect(again).toContain(MT_PO('Save the file'));
  });

  it('XLIFF 1.2: keepUsable, keepApproved, keepAll and retranslate each keep what they say; machine output needs review and is not approved', async () => {
    const mt = (source: string) => `<target state="needs-review-translation" state-qualifier="mt-suggestion">${peerEs(source)}</target>`;
    const usable = await translateWith('app.xlf', XLIFF);
    expect(usable).toContain('<trans-unit id="approved" approved="yes">\n        <source>Open the file</source>\n        <target state="translated">Abrir el archivo</target>');
    expect(usable).toContain('<target state="translated">Imprimir la página</target>');
    expect(usable).toContain(mt('Save the file'));
    expect(usable).toContain(`<source>Close the window</source>\n        ${mt('Close the window')}`);
    expect(usable).toContain('<trans-unit id="code" translate="no">\n        <source>Keep this text</source>\n      </trans-unit>');

    const approved = await translateWith('approved.xlf', XLIFF, 'keepApproved');
    expect(approved).toContain('<target state="translated">Abrir el archivo</target>');
    expect(approved).toContain(mt('Print the page'));
    expect(approved).toContain(mt('Save the file'));

    const all = await translateWith('all.xlf', XLIFF, 'keepAll');
    expect(all).toContain('<target state="needs-review-translation">Guardar archivo</target>');
    expect(all).toContain(mt('Close the window'));

    const again = await translateWith('again.xlf', XLIFF, 'retranslate');
    expect(again).toContain(`<trans-unit id="approved" approved="no">\n        <source>Open the file</source>\n        ${mt('Open the file')}`);
    expect(again).toContain(mt('Print the page'));
  });

  it('shows kept translations as coming from the file in the paragraph view', async () => {
    const res = await upload(d.kernel, alice.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'view.xlf', content: XLIFF }]);
    const id = res.body.data[0].id;
    await waitForFile(d.kernel, alice.token, id, (f) => f.status === 'completed', 60_000);
    const units = (await call(d.kernel, 'GET', `/api/transFile/units/${id}?pageNum=1&pageSize=50`, alice.token)).body.data.records;
    expect(units.map((u: { target: string; origin: string }) => [u.target, u.origin.split(':')[0]])).toEqual([
      ['Abrir el archivo', 'file'],
      ['Imprimir la página', 'file'],
      [peerEs('Save the file'), 'engine'],
      [peerEs('Close the window'), 'engine'],
    ]);
  });

  it('refuses an XLIFF that is not well-formed with the reason and line, in both languages, storing nothing', async () => {
    const count = async () => Number((await d.kernel.database.db.selectFrom('trans_file_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const duplicated = XLIFF.replace('<trans-unit id="fuzzy">', '<trans-unit id="fuzzy" id="again">');
    const en = await upload(d.kernel, alice.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'dup.xlf', content: duplicated }], EN);
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/dup\.xlf: the file is not well-formed and cannot be read \(xliff: not well-formed XML: the attribute id is given twice on <trans-unit> \(line 13, column \d+\)\)/);
    expect(en.body.data).toEqual({ refused: [{ name: 'dup.xlf', reason: 'malformed' }] });
    const unclosed = XLIFF.replace('<target state="translated">Imprimir la página</target>', '<target state="translated">Imprimir la página');
    const zh = await upload(d.kernel, alice.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'open.xlf', content: unclosed }], ZH);
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/open\.xlf：文件格式不正确，无法读取（xliff: not well-formed XML: <\/trans-unit> closes <target> opened at line 11, column 9 \(line 12, column 7\)）/);
    expect(await count()).toBe(before);
  });
});
