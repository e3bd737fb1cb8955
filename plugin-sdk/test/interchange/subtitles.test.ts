import { describe, expect, it } from 'vitest';
import { linesOf, readSubtitles, subtitleBlocks, subtitleSeconds, subtitleTiming, writeSrt, writeVtt } from '../../src/interchange/index.js';

// SRT and WebVTT, the one implementation (the text formats' srt/vtt modules build on its blocks):
// every variant the standards allow, read back to cues.

const VTT = [
  '\uFEFFWEBVTT - A short film',
  'Kind: captions',
  '',
  'STYLE',
  '::cue(.loud) { color: red; }',
  '',
  'REGION',
  'id:left width:40%',
  '',
  'NOTE a note with an arrow-like line',
  '00:00.000 --> 00:01.000 is not a cue here',
  '',
  'intro',
  '00:01.000 --> 00:04.000 align:start position:10%',
  '<v Roger>Fish &amp; chips &#x4e2d;&#25991; &lrm;ok',
  'second line',
  '',
  '01:00:05.000 --> 01:00:08.500',
  'with hours',
  '',
].join('\r\n');

describe('subtitles', () => {
  it('reads WebVTT with a BOM, CRLF, header metadata, STYLE, REGION, NOTE, identifiers, settings, references and optional hours', () => {
    expect(readSubtitles(VTT)).toEqual([
      { start: 1, end: 4, text: '<v Roger>Fish & chips 中文 \u200eok\nsecond line' },
      { start: 3605, end: 3608.5, text: 'with hours' },
    ]);
  });

  it('gives the blocks with identifiers and cue settings', () => {
    const blocks = subtitleBlocks(linesOf(VTT.replace(/^\uFEFF/, '')), 'vtt');
    expect(blocks.filter((b) => b.kind !== 'blank').map((b) => b.kind)).toEqual(['header', 'style', 'region', 'note', 'cue', 'cue']);
    const cue = blocks.find((b) => b.kind === 'cue')!;
    expect(cue).toMatchObject({ identifier: 'intro', start: '00:01.000', end: '00:04.000', settings: 'align:start position:10%' });
  });

  it('reads SubRip with CR line ends, coordinates, multi-line cues, no cue numbers and stamps without hours', () => {
    const srt = '1\r00:00:01,000 --> 00:00:02,500 X1:10 X2:20\r<i>one</i>\rtwo\r\r00:00:03.5 --> 00:00:04\r\r00:05,000 --> 00:06,000\rthree\r';
    expect(readSubtitles(srt)).toEqual([
      { start: 1, end: 2.5, text: '<i>one</i>\ntwo' },
      { start: 5, end: 6, text: 'three' },
    ]);
  });

  it('passes over blocks that are not cues', () => {
    expect(readSubtitles('hello\nworld\n\n2\n00:00:01,000 --> 00:00:02,000\nok\n')).toEqual([{ start: 1, end: 2, text: 'ok' }]);
    expect(readSubtitles('WEBVTT\n\n00:01,000 --> 00:02,000\nnot VTT timing\n')).toEqual([]);
  });

  it('knows a timing line per format', () => {
    expect(subtitleTiming('00:00:01,000 --> 00:00:02,000', 'srt')).toEqual({ start: '00:00:01,000', end: '00:00:02,000', settings: '' });
    expect(subtitleTiming('00:00:01,000 --> 00:00:02,000', 'vtt')).toBeNull();
    expect(subtitleTiming('100:00:01.000 --> 100:00:02.000 line:0', 'vtt')).toEqual({ start: '100:00:01.000', end: '100:00:02.000', settings: 'line:0' });
    expect(subtitleSeconds('02:03.450')).toBeCloseTo(123.45);
  });

  it('writes cues that read back, with special characters and no-break spaces escaped in VTT', () => {
    const cues = [
      { start: 0.5, end: 1.25, text: 'a < b & c > d' },
      { start: 3725.5, end: 3727, text: 'two\nlines\u00a0here' },
    ];
    expect(writeVtt(cues)).toContain('a &lt; b &amp; c &gt; d');
    expect(writeVtt(cues)).toContain('lines&nbsp;here');
    expect(readSubtitles(writeVtt(cues))).toEqual(cues);
    expect(readSubtitles(writeSrt(cues))).toEqual(cues);
  });
});
