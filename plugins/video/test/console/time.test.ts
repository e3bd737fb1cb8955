import { describe, expect, it } from 'vitest';
import { formatSeconds } from '../../shared/schemas.js';
import { parseTime } from '../../console/index.js';

describe('times as the /video page reads and writes them', () => {
  it.each([
    ['75', 75],
    ['0.5', 0.5],
    ['1:15', 75],
    ['1:15.5', 75.5],
    ['1:00:05', 3605],
    ['  2 ', 2],
  ])('reads %j as %s seconds', (text, seconds) => expect(parseTime(text)).toBe(seconds));

  it.each(['', 'abc', '1:2:3:4', '-5', '1,5', '1:'])('refuses %j', (text) => expect(parseTime(text)).toBeNull());

  it.each([
    [0, '0:00'],
    [0.5, '0:00.5'],
    [62.5, '1:02.5'],
    [3605, '1:00:05'],
    [59.96, '1:00'],
  ])('writes %s seconds as %s', (seconds, text) => expect(formatSeconds(seconds)).toBe(text));

  it('reads back what it writes', () => {
    for (let s = 0; s < 4000; s += 7.3) expect(parseTime(formatSeconds(s))).toBeCloseTo(Math.round(s * 10) / 10, 5);
  });
});
