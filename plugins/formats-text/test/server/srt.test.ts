// Database: none
import { placeholdersOf } from '@linguaport/sdk/shared';
import { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { srtFormat } from '../../server/formats/srt.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const SAMPLE = [
  '1',
  '00:00:01,000 --> 00:00:04,074',
  'Where are you going?',
  '',
  '2',
  '00:00:04,500 --> 00:00:07,250 X1:100 X2:600 Y1:50 Y2:80',
  '<i>Home.</i> It is late,',
  '  and <font color="#ffff00">the <b>last</b> bus</font> leaves soon.',
  '',
  '3',
  '00:00:08,000 --> 00:00:09,000',
  '{\\an8}<u>Wait!</u>',
  '',
  '',
  '4',
  '00:01:10,100 --> 00:01:12,900',
  '<i>A line in italics',
  'that goes on.</i>',
  '',
].join('\n');

describe('SubRip format', () => {
  it('reads cues as units with line breaks and markup as placeholders, the timing as meta', async () => {
    const file = await srtFormat.parse(utf8(SAMPLE));
    expect(file.units.map((u) => u.source)).toEqual(['Where are you going?', '<1>Home.</1> It is late,<2/>and <3>the <4>last</4> bus</3> leaves soon.', '<1/><2>Wait!</2>', '<1>A line in italics<2/>that goes on.</1>']);
    expect(file.units[1]!.tags['2']).toEqual({ kind: 'standalone', original: '\n  ' });
    expect(file.units[1]!.tags['3']).toEqual({ kind: 'paired', original: '<font color="#ffff00">', closing: '</font>' });
    expect(file.units[1]!.context.meta).toEqual({ start: '00:00:04,500', end: '00:00:07,250' });
    expect(file.units[0]!.context.part).toBe('cue 1');
  });

  it('gives back the same bytes with LF, CRLF and a byte-order mark', async () => {
    await checkIdentityRoundTrip(srtFormat, utf8(SAMPLE), 'LF');
    await checkIdentityRoundTrip(srtFormat, utf8(SAMPLE.replace(/\n/g, '\r\n')), 'CRLF');
    await checkIdentityRoundTrip(srtFormat, utf8('\uFEFF' + SAMPLE.replace(/\n/g, '\r\n')), 'BOM');
    await checkIdentityRoundTrip(srtFormat, utf8(SAMPLE.trimEnd()), 'no final line end');
  });

  it('writes translations in place with the markup and the line ends of the original', async () => {
    const crlf = utf8('\uFEFF' + SAMPLE.replace(/\n/g, '\r\n'));
    const written = await checkTranslatedRoundTrip(srtFormat, crlf, upper);
    const out = text(written);
    expect(out.startsWith('\uFEFF1\r\n00:00:01,000 --> 00:00:04,074\r\nWHERE ARE YOU GOING?\r\n')).toBe(true);
    expect(out).toContain('<i>HOME.</i> IT IS LATE,\r\n  AND <font color="#ffff00">THE <b>LAST</b> BUS</font> LEAVES SOON.\r\n');
    expect(out).toContain('{\\an8}<u>WAIT!</u>');
    expect(out).not.toMatch(/[^\r]\n/);
  });

  it('keeps a translation that brings blank lines from ending its cue', async () => {
    const file = await srtFormat.parse(utf8(SAMPLE));
    const out = text(await srtFormat.write(file, [{ ...file.units[0]!, target: 'Wohin\n\n  gehst du?' }]));
    expect(out).toContain('Wohin\ngehst du?\n\n2\n');
    expect((await srtFormat.parse(utf8(out))).units).toHaveLength(4);
  });

  it('keeps every placeholder when a translation moves them', async () => {
    const file = await srtFormat.parse(utf8(SAMPLE));
    const unit = file.units[1]!;
    expect(placeholdersOf(unit.source)).toEqual(['<1>', '</1>', '<2/>', '<3>', '<4>', '</4>', '</3>']);
    const out = text(await srtFormat.write(file, [{ ...unit, target: 'Es ist spät,<2/><3>der <4>letzte</4> Bus</3> fährt <1>heim.</1>' }]));
    expect(out).toContain('Es ist spät,\n  <font color="#ffff00">der <b>letzte</b> Bus</font> fährt <i>heim.</i>\n');
  });

  it('round-trips 200 seeded random cue texts', async () => {
    const random = seededRandom(2026);
    for (let i = 0; i < 200; i++) {
      const eol = i % 2 ? '\r\n' : '\n';
      const cue = () => randomText(random, 120).split(/\r\n|\r|\n/).filter((l) => l.trim()).join(eol) || 'x';
      const sample = [`1`, `00:00:01,000 --> 00:00:02,000`, cue(), '', '2', '00:00:03,000 --> 00:00:04,000', `<i>${cue()}</i>`, ''].join(eol);
      await checkIdentityRoundTrip(srtFormat, utf8(sample), `seed 2026 #${i}`);
      await checkTranslatedRoundTrip(srtFormat, utf8(sample), (s) => 'Ü ' + upper(s), `seed 2026 #${i}`);
    }
  });

  it('reads cues without cue numbers and stamps without hours or with a dot, as the SDK reader does', async () => {
    const file = await srtFormat.parse(utf8('00:01,000 --> 00:02.5\nShort stamps\n\n7\n00:00:03.250 --> 00:00:04,000\nDot\n'));
    expect(file.units.map((u) => [u.source, u.context.meta])).toEqual([
      ['Short stamps', { start: '00:01,000', end: '00:02.5' }],
      ['Dot', { start: '00:00:03.250', end: '00:00:04,000' }],
    ]);
    expect(srtFormat.sniff!(utf8('00:01,000 --> 00:02,000\nx'))).toBe(true);
  });

  it('refuses text that is not SubRip, a truncated file and binary data with a clear message', async () => {
    await expect(srtFormat.parse(utf8('Hello there\nGeneral Kenobi\n'))).rejects.toThrow(/srt: line 1 is neither a cue number nor a timing line/);
    await expect(srtFormat.parse(utf8('1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:0'))).rejects.toThrow(/srt: cue 2 has no timing line/);
    await expect(srtFormat.parse(utf8('1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n'))).rejects.toThrow(/srt: the file ends after cue number 2/);
    await expect(srtFormat.parse(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff]))).rejects.toThrow(/srt: the file is not text/);
    expect((await srtFormat.parse(utf8(''))).units).toEqual([]);
  });

  it('sniffs SubRip and refuses a renamed binary or another text', () => {
    expect(srtFormat.sniff!(utf8(SAMPLE))).toBe(true);
    expect(srtFormat.sniff!(utf8('\uFEFF\r\n1\r\n00:00:01,000 --> 00:00:02,000\r\nx'))).toBe(true);
    expect(srtFormat.sniff!(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0xff, 0xfe]))).toBe(false);
    expect(srtFormat.sniff!(utf8('WEBVTT\n\n00:01.000 --> 00:02.000\nx'))).toBe(false);
  });
});
