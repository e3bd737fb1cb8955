// Database: none
import { placeholdersOf, type FileFormat } from '@linguaport/sdk/shared';
import { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { createFormatRegistry } from '../../src/formats/registry.js';
import { txtFormat, UnsupportedEncodingError } from '../../src/formats/txt.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('plain text format', () => {
  it('reads paragraphs as units, a wrapped line break as a placeholder, and keeps indentation out of the text', async () => {
    const file = await txtFormat.parse(utf8('  Title line\n\nFirst paragraph\n   wraps here.  \r\n\r\n\nLast one'));
    expect(file.units.map((u) => u.source)).toEqual(['Title line', 'First paragraph<1/>wraps here.', 'Last one']);
    expect(file.units[1]!.tags).toEqual({ 1: { kind: 'standalone', original: '\n   ' } });
  });

  it('reads megabytes of short paragraphs in linear time, in slices that let the server answer meanwhile', async () => {
    // About 2 MB: 8,000 paragraphs of three wrapped lines. Each paragraph once scanned the whole file.
    const paragraph = (i: number) => `Paragraph ${i} starts with a line of ordinary words here,\nwraps onto a second line of the same kind of words,\nand ends on a third one <${i % 7}/> with a literal tag.`;
    const text = Array.from({ length: 8_000 }, (_, i) => paragraph(i)).join('\n\n');
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const t0 = performance.now();
    const file = await txtFormat.parse(utf8(text));
    const ms = performance.now() - t0;
    clearInterval(timer);
    expect(file.units).toHaveLength(8_000);
    // The literal <n/> of a paragraph is skipped by its own placeholder numbers.
    expect(file.units[3]!.source).toBe('Paragraph 3 starts with a line of ordinary words here,<1/>wraps onto a second line of the same kind of words,<2/>and ends on a third one <3/> with a literal tag.');
    expect(Object.keys(file.units[3]!.tags)).toEqual(['1', '2']);
    expect(Object.keys(file.units[2]!.tags)).toEqual(['1', '3']);
    expect(ms).toBeLessThan(5_000);
    expect(turns).toBeGreaterThan(0);
  });

  it('writes translations in place of the sources, with the layout of the original', async () => {
    const original = utf8('  Hello world.\n\nThe red\ncar.\n');
    const file = await txtFormat.parse(original);
    const out = await txtFormat.write(file, [
      { ...file.units[0]!, target: 'Hola mundo.' },
      { ...file.units[1]!, target: 'El coche<1/>rojo.' },
    ]);
    expect(Buffer.from(out).toString('utf8')).toBe('  Hola mundo.\n\nEl coche\nrojo.\n');
  });

  it.each([
    ['UTF-8', (s: string) => utf8(s)],
    ['UTF-8 with a byte-order mark', (s: string) => new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s, 'utf8')]))],
    ['UTF-16LE with a mark', (s: string) => new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]))],
    [
      'UTF-16BE with a mark',
      (s: string) => {
        const b = Buffer.from(s, 'utf16le');
        b.swap16();
        return new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), b]));
      },
    ],
  ])('gives back the same bytes for 300 seeded texts in %s', async (_name, encode) => {
    const random = seededRandom(20261123);
    for (let i = 0; i < 300; i++) await checkIdentityRoundTrip(txtFormat, encode(randomText(random, 300)), `seed 20261123 #${i}`);
  });

  it('carries 300 seeded translations into the file and reads them back', async () => {
    const random = seededRandom(7);
    for (let i = 0; i < 300; i++) {
      // A translation that changes every word but keeps the placeholders where they were.
      await checkTranslatedRoundTrip(txtFormat, utf8(randomText(random, 300)), (source) => source.replace(/[a-z]+/g, (w) => w.toUpperCase()), `seed 7 #${i}`);
    }
  });

  it('refuses text in an encoding it cannot write back', async () => {
    const gbk = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4]); // 中文 in GBK: not UTF-8
    await expect(txtFormat.parse(gbk)).rejects.toBeInstanceOf(UnsupportedEncodingError);
    expect(txtFormat.sniff!(gbk)).toBe(false);
  });

  it('the harness notices a writer that loses a byte', async () => {
    const broken: FileFormat = { ...txtFormat, write: async (f, u) => (await txtFormat.write(f, u)).subarray(1) };
    await expect(checkIdentityRoundTrip(broken, utf8('abc\n'))).rejects.toThrow(/differs from the original at byte 0/);
    expect(placeholdersOf('a<1>b</1><2/>')).toEqual(['<1>', '</1>', '<2/>']);
  });
});

describe('format registry', () => {
  it('finds a format by extension, confirmed by its sniff', () => {
    const registry = createFormatRegistry();
    registry.register(txtFormat);
    expect(registry.forFile('Notes.TXT')?.id).toBe('txt');
    expect(registry.forFile('notes.txt', utf8('plain'))?.id).toBe('txt');
    expect(registry.forFile('image.txt', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))).toBeNull();
    expect(registry.forFile('report.docx')).toBeNull();
    expect(registry.list().map((f) => f.id)).toEqual(['txt']);
  });

  it('refuses a second claim on an id or an extension, naming the holder', () => {
    const registry = createFormatRegistry();
    registry.register(txtFormat);
    expect(() => registry.registerFor('partner', { ...txtFormat, extensions: ['text'] })).toThrow(/already registered by core/);
    expect(() => registry.registerFor('partner', { ...txtFormat, id: 'text2' })).toThrow(/\.txt .*already claimed by format txt/);
    expect(() => registry.registerFor('partner', { ...txtFormat, id: 'Bad Id' })).toThrow(/lower-case/);
  });
});

describe('plain text that looks like placeholders', () => {
  it('keeps a literal <1/> as text and numbers its own placeholders around it', async () => {
    const original = utf8('a<1/>b\nc <2> d');
    const file = await txtFormat.parse(original);
    expect(file.units).toHaveLength(1);
    expect(file.units[0]!.source).toBe('a<1/>b<3/>c <2> d');
    expect(Buffer.from(await txtFormat.write(file, file.units)).toString('utf8')).toBe('a<1/>b\nc <2> d');
  });
});
