import { describe, expect, it } from 'vitest';
import { listZip, parseXml, readZip, writeZip, XmlBudgetError, ZipError } from '../../src/interchange/index.js';
import { docxOfRepeats, zipOfRepeats } from '../../src/testing/zip-bombs.js';
import { zipOfParts } from '../../src/interchange/zip.js';

const MB = 1024 * 1024;
const PARAGRAPH = '<w:p><w:r><w:t>Hello there</w:t></w:r></w:p>';

const refusal = (fn: () => unknown): ZipError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ZipError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('the budgeted zip reader', () => {
  it('refuses a docx whose 300 MB of paragraphs pack into about 1 MB, on its declared size, before inflating', async () => {
    const bomb = await docxOfRepeats(PARAGRAPH, Math.ceil((300 * MB) / PARAGRAPH.length));
    expect(bomb.length).toBeLessThan(2 * MB);
    const before = process.memoryUsage().rss;
    const err = refusal(() => readZip(bomb, { maxEntries: 100, maxBytes: 100 * MB, maxEntryBytes: 40 * MB }));
    expect(err.reason).toBe('tooLarge');
    expect(err.localized!['en-US']).toMatch(/word\/document\.xml unpacks to more than 40 MB/);
    expect(err.localized!['zh-CN']).toMatch(/解压后超过 40 MB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
    // The whole archive's budget counts too.
    const two = await zipOfRepeats(['a.xml', 'b.xml'].map((name) => ({ name, repeat: PARAGRAPH, times: Math.ceil((60 * MB) / PARAGRAPH.length) })));
    expect(refusal(() => listZip(two, { maxEntries: 100, maxBytes: 100 * MB, maxEntryBytes: 80 * MB })).localized!['en-US']).toMatch(/the archive unpacks to more than 100 MB/);
  });

  it('stops a part whose header lies (declared small, inflates big) while inflating', async () => {
    const liar = await docxOfRepeats(PARAGRAPH, Math.ceil((300 * MB) / PARAGRAPH.length), 1000);
    const listed = listZip(liar, { maxEntries: 100, maxBytes: 10 * MB });
    expect(listed.find((e) => e.name === 'word/document.xml')!.size).toBe(1000);
    const started = Date.now();
    const before = process.memoryUsage().rss;
    const err = refusal(() => readZip(liar, { maxEntries: 100, maxBytes: 10 * MB }));
    expect(err.reason).toBe('tooLarge');
    expect(err.localized!['en-US']).toMatch(/word\/document\.xml unpacks to more than its declared size/);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MB);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses more entries than the budget', () => {
    const many = writeZip(Array.from({ length: 30 }, (_, i) => ({ name: `p${i}.xml`, data: Buffer.from('<a/>') })));
    expect(refusal(() => readZip(many, { maxEntries: 20, maxBytes: MB })).reason).toBe('tooMany');
  });

  it('reads an archive within its budgets as before', async () => {
    const ok = await zipOfRepeats([{ name: 'a.xml', head: '<a>', repeat: '<b/>', times: 1000, tail: '</a>' }]);
    const [entry] = readZip(ok, { maxEntries: 10, maxBytes: MB, maxEntryBytes: MB });
    expect(entry!.data.length).toBe(4007);
  });
});

describe('the XML node budget', () => {
  it('stops a parse as soon as the tree would pass maxNodes', () => {
    const xml = `<a>${'<b/>'.repeat(5000)}</a>`;
    expect(parseXml(xml, { maxNodes: 10_000 }).children).toHaveLength(1);
    const err = (() => {
      try {
        parseXml(xml, { maxNodes: 1000, part: 'word/document.xml' });
      } catch (e) {
        return e as XmlBudgetError;
      }
    })();
    expect(err).toBeInstanceOf(XmlBudgetError);
    expect(err!.localized['en-US']).toBe('the part word/document.xml holds more than 1000 nodes, over the processing limit');
  });
});

describe('one zip writer', () => {
  it('writes the same archive for writeZip and for its parts packed beforehand; the test archives come from it', async () => {
    const at = new Date(2026, 10, 28, 9, 30, 14);
    const data = Buffer.from('<a>'.repeat(1000));
    const written = writeZip([{ name: 'mimetype', data: Buffer.from('application/x'), store: true }, { name: 'a/ü.xml', data }], at);
    const [stored, deflated] = listZip(written, { maxEntries: 5, maxBytes: MB });
    const raw = readZip(written, { maxEntries: 5, maxBytes: MB });
    const parts = [stored!, deflated!].map((l, i) => ({ name: l.name, method: l.method, crc: l.crc, body: raw[i]!.raw!.packed, size: l.size }));
    expect(zipOfParts(parts, at).equals(written)).toBe(true);
    // The streamed archives of the budget tests: same headers, no date, the declared size as asked.
    const bomb = await zipOfRepeats([{ name: 'x.xml', head: '<r>', repeat: '<p/>', times: 1000, tail: '</r>', declaredSize: 10 }]);
    expect(bomb.readUInt16LE(10)).toBe(0);
    expect(listZip(bomb, { maxEntries: 5, maxBytes: MB })[0]).toMatchObject({ name: 'x.xml', method: 8, size: 10 });
  });
});
