// Database: none
import { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { vttFormat } from '../../server/formats/vtt.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const SAMPLE = [
  'WEBVTT - A short film',
  'Kind: captions',
  'Language: en',
  '',
  'STYLE',
  '::cue(.loud) { color: red; }',
  '',
  'REGION',
  'id:left width:40%',
  '',
  'NOTE This note',
  'spans two lines and is kept.',
  '',
  'intro',
  '00:01.000 --> 00:04.000 align:start position:10%',
  '<v Roger Bingham>We are in New York City',
  '',
  '00:00:05.000 --> 00:00:08.500',
  '<c.loud>Fish &amp; chips</c> are <i>not</i> <b>free</b>',
  '  &lt;really&gt;',
  '',
  '3',
  '00:09.000 --> 00:12.000',
  '<00:09.000>Never <00:10.000>drink <u>liquid</u> nitrogen.',
  '',
].join('\n');

describe('WebVTT format', () => {
  it('reads cue texts as units, keeps header, NOTE, STYLE and REGION blocks out of them', async () => {
    const file = await vttFormat.parse(utf8(SAMPLE));
    expect(file.units.map((u) => u.source)).toEqual(['<1/>We are in New York City', '<1>Fish & chips</1> are <2>not</2> <3>free</3><4/><really>', '<1/>Never <2/>drink <3>liquid</3> nitrogen.']);
    expect(file.units[0]!.tags['1']).toEqual({ kind: 'standalone', original: '<v Roger Bingham>' });
    expect(file.units[1]!.tags['1']).toEqual({ kind: 'paired', original: '<c.loud>', closing: '</c>' });
    expect(file.units[0]!.context).toMatchObject({ part: 'intro', meta: { start: '00:01.000', end: '00:04.000', settings: 'align:start position:10%' } });
    expect(file.units[1]!.context.part).toBe('cue 2');
  });

  it('gives back the same bytes with LF, CRLF and a byte-order mark', async () => {
    await checkIdentityRoundTrip(vttFormat, utf8(SAMPLE), 'LF');
    await checkIdentityRoundTrip(vttFormat, utf8('\uFEFF' + SAMPLE.replace(/\n/g, '\r\n')), 'BOM CRLF');
    await checkIdentityRoundTrip(vttFormat, utf8('WEBVTT\n'), 'header only');
  });

  it('writes translations with markup restored and special characters escaped', async () => {
    const written = await checkTranslatedRoundTrip(vttFormat, utf8(SAMPLE), upper);
    const out = text(written);
    expect(out).toContain('STYLE\n::cue(.loud) { color: red; }\n\nREGION\nid:left width:40%\n\nNOTE This note\nspans two lines and is kept.\n');
    expect(out).toContain('intro\n00:01.000 --> 00:04.000 align:start position:10%\n<v Roger Bingham>WE ARE IN NEW YORK CITY\n');
    expect(out).toContain('<c.loud>FISH &amp; CHIPS</c> ARE <i>NOT</i> <b>FREE</b>\n  &lt;REALLY&gt;\n');
    expect(out).toContain('<00:09.000>NEVER <00:10.000>DRINK <u>LIQUID</u> NITROGEN.');
  });

  it('escapes an arrow a translation brings so it cannot start a cue', async () => {
    const file = await vttFormat.parse(utf8(SAMPLE));
    const out = text(await vttFormat.write(file, [{ ...file.units[2]!, target: '<1/>a --> b\n\nc' }]));
    expect(out).toContain('<00:09.000>a --&gt; b\nc\n');
    expect((await vttFormat.parse(utf8(out))).units[2]!.source).toBe('<1/>a --> b<2/>c');
  });

  it('writes a no-break space as a reference so it stays text at a line edge', async () => {
    const file = await vttFormat.parse(utf8('WEBVTT\n\n00:01.000 --> 00:02.000\n&nbsp;Hi&nbsp;\n'));
    expect(file.units[0]!.source).toBe('\u00a0Hi\u00a0');
    const out = text(await vttFormat.write(file, [{ ...file.units[0]!, target: '\u00a0Hallo\u00a0' }]));
    expect(out).toBe('WEBVTT\n\n00:01.000 --> 00:02.000\n&nbsp;Hallo&nbsp;\n');
  });

  it('round-trips 200 seeded random cue texts', async () => {
    const random = seededRandom(99);
    for (let i = 0; i < 200; i++) {
      const eol = i % 2 ? '\r\n' : '\n';
      const cue = () => randomText(random, 120).split(/\r\n|\r|\n/).filter((l) => l.trim()).join(eol) || 'x';
      const sample = ['WEBVTT', '', 'NOTE ' + cue(), '', 'a', '00:01.000 --> 00:02.000 line:0', cue(), '', '00:03.000 --> 00:04.000', `<v Ann>${cue()}`, ''].join(eol);
      await checkIdentityRoundTrip(vttFormat, utf8(sample), `seed 99 #${i}`);
      await checkTranslatedRoundTrip(vttFormat, utf8(sample), (s) => 'Ü ' + upper(s), `seed 99 #${i}`);
    }
  });

  it('refuses a file without the header, a cue without timing, a truncated file and binary data', async () => {
    await expect(vttFormat.parse(utf8('1\n00:00:01,000 --> 00:00:02,000\nHi\n'))).rejects.toThrow(/vtt: the file does not start with WEBVTT/);
    await expect(vttFormat.parse(utf8('WEBVTT\n\nhello\nworld\n'))).rejects.toThrow(/vtt: the block at line 3 is not a cue/);
    await expect(vttFormat.parse(utf8('WEBVTT\n\n00:01.000 --> 00:0'))).rejects.toThrow(/vtt: the block at line 3 is not a cue: no timing line/);
    await expect(vttFormat.parse(utf8('WEBVTT\n\nintro'))).rejects.toThrow(/vtt: the file ends after cue identifier "intro"/);
    await expect(vttFormat.parse(new Uint8Array([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0xff, 0xfe, 0xfd]))).rejects.toThrow(/vtt: the file is not text/);
  });

  it('sniffs the WEBVTT signature, after a byte-order mark too', () => {
    expect(vttFormat.sniff!(utf8(SAMPLE))).toBe(true);
    expect(vttFormat.sniff!(utf8('\uFEFFWEBVTT\r\n'))).toBe(true);
    expect(vttFormat.sniff!(utf8('WEBVTTX\n'))).toBe(false);
    expect(vttFormat.sniff!(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0xe2, 0xe3, 0xcf, 0xd3]))).toBe(false);
  });
});
