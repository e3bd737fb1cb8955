// Database: none
import { describe, expect, it } from 'vitest';
import { xliffFormat } from '../../server/formats/xliff.js';
import { offWho, offXliff } from './fixtures/off-thread-formats.js';

// Text formats read a large file in a worker process with a heap limit (SDK formatsOffThread): the
// server's event loop is not held by megabytes of markup, and a file made to exhaust memory fails
// alone while the server goes on.

function xliff(units: number, filler = ''): Uint8Array {
  const body = Array.from({ length: units }, (_, i) => `<trans-unit id="u${i}"><source>Sentence ${i} of the file.${filler}</source></trans-unit>`).join('\n');
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a.txt" source-language="en" target-language="es" datatype="plaintext"><body>\n${body}\n</body></file></xliff>\n`);
}

describe('formats read off the thread', () => {
  it('read a small file in this process and a large one in a worker', async () => {
    const small = await offWho.parse(new Uint8Array(10));
    expect(small.units[0]!.source).toBe(String(process.pid));
    const large = await offWho.parse(new Uint8Array(5000));
    expect(large.units[0]!.source).toMatch(/^\d+$/);
    expect(large.units[0]!.source).not.toBe(String(process.pid));
    // Writing a large file happens in the worker too.
    const written = new TextDecoder().decode(await offWho.write(large, [{ ...large.units[0]!, target: 'x' }]));
    expect(written).toBe(`${large.units[0]!.source}:x`);
  }, 60_000);

  it('give the same units and the same written file as the format in process', async () => {
    const bytes = xliff(400);
    const here = await xliffFormat.parse(bytes);
    const there = await offXliff.parse(bytes);
    expect(there.units).toEqual(here.units);
    const translated = here.units.map((u) => ({ ...u, target: `T ${u.source}` }));
    expect(Buffer.from(await offXliff.write(there, translated, { targetLanguage: 'es' })).toString()).toBe(Buffer.from(await xliffFormat.write(here, translated, { targetLanguage: 'es' })).toString());
  }, 60_000);

  it('refuse a file that needs more memory than the budget, and the next file is read', async () => {
    // About 60 MB of markup: its tree outgrows a 96 MB worker heap.
    const huge = xliff(120_000, ' padding'.repeat(60));
    await expect(offXliff.parse(huge)).rejects.toMatchObject({ localized: { 'en-US': expect.stringContaining('memory'), 'zh-CN': expect.stringContaining('内存') } });
    expect((await offXliff.parse(xliff(50))).units).toHaveLength(50);
  }, 120_000);

  it('keep a malformed file\'s reason from the worker', async () => {
    const bad = new TextEncoder().encode(new TextDecoder().decode(xliff(100)).replace('<trans-unit id="u5">', '<trans-unit id="u5" id="again">'));
    const inProcess = await xliffFormat.validate!(bad).then(() => null, (e: Error) => e.message);
    expect(inProcess).toBeTruthy();
    await expect(offXliff.validate!(bad)).rejects.toThrow(inProcess!.split('\n')[0]!);
  }, 60_000);
});
