import { describe, expect, it } from 'vitest';
import {
  abbreviateNumber,
  formatCount,
  formatDate,
  formatDuration,
  formatRelativeTime,
  formatSize,
  formatTimeAgo,
  summarize,
  toDate,
  toThousands,
} from '../../src/shared/format.js';

// Built in local time, like the formatter reads it, so the tests hold in any time zone.
const local = new Date(2024, 0, 2, 3, 4, 5, 67);

describe('formatDate', () => {
  it('uses YYYY-MM-DD HH:mm:ss by default', () => {
    expect(formatDate(local)).toBe('2024-01-02 03:04:05');
  });

  it('follows a custom pattern with unpadded tokens, milliseconds and bracketed text', () => {
    expect(formatDate(local, 'YYYY/M/D H:m:s.SSS')).toBe('2024/1/2 3:4:5.067');
    expect(formatDate(local, 'YY-MM-DD [at] HH:mm')).toBe('24-01-02 at 03:04');
  });

  it('reads ten-digit numbers as seconds and thirteen-digit numbers as milliseconds', () => {
    const seconds = Math.floor(local.getTime() / 1000);
    expect(String(seconds)).toHaveLength(10);
    expect(formatDate(seconds)).toBe('2024-01-02 03:04:05');
    expect(String(local.getTime())).toHaveLength(13);
    expect(formatDate(local.getTime())).toBe('2024-01-02 03:04:05');
    expect(formatDate(String(seconds))).toBe('2024-01-02 03:04:05');
  });

  it('reads ISO strings with a zone as that instant', () => {
    const iso = '2024-01-02T03:04:05.000Z';
    expect(formatDate(iso)).toBe(formatDate(new Date(Date.UTC(2024, 0, 2, 3, 4, 5))));
  });

  it('reads zone-less date and date-time text as local time', () => {
    expect(formatDate('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(formatDate('2024-01-02')).toBe('2024-01-02 00:00:00');
    expect(formatDate('2024/1/2 3:04')).toBe('2024-01-02 03:04:00');
  });

  it('gives an empty string for nothing or for no date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(toDate(new Date(NaN))).toBeNull();
  });
});

describe('formatRelativeTime', () => {
  const now = new Date(2024, 5, 15, 12, 0, 0).getTime();
  const ago = (s: number) => now - s * 1000;

  it('says just now under 30 seconds and minutes from 30 seconds', () => {
    expect(formatRelativeTime(ago(29), 'en-US', { now })).toBe('just now');
    expect(formatRelativeTime(ago(30), 'en-US', { now })).toBe('1 minute ago');
    expect(formatRelativeTime(ago(29), 'zh-CN', { now })).toBe('刚刚');
    expect(formatRelativeTime(ago(30), 'zh-CN', { now })).toBe('1分钟前');
  });

  it('counts minutes under an hour and hours from an hour', () => {
    expect(formatRelativeTime(ago(150), 'en-US', { now })).toBe('2 minutes ago');
    expect(formatRelativeTime(ago(3599), 'en-US', { now })).toBe('59 minutes ago');
    expect(formatRelativeTime(ago(3600), 'en-US', { now })).toBe('1 hour ago');
    expect(formatRelativeTime(ago(7200), 'zh-CN', { now })).toBe('2小时前');
  });

  it('says 1 day ago from a day to under two days, then shows the date', () => {
    expect(formatRelativeTime(ago(86399), 'en-US', { now })).toBe('23 hours ago');
    expect(formatRelativeTime(ago(86400), 'en-US', { now })).toBe('1 day ago');
    expect(formatRelativeTime(ago(2 * 86400 - 1), 'zh-CN', { now })).toBe('1天前');
    expect(formatRelativeTime(ago(2 * 86400), 'en-US', { now })).toBe('2024-06-13 12:00:00');
    expect(formatRelativeTime(ago(2 * 86400), 'en-US', { now, pattern: 'MM-DD' })).toBe('06-13');
  });

  it('reads a ten-digit value as seconds', () => {
    expect(formatRelativeTime(Math.floor(ago(120) / 1000), 'en-US', { now })).toBe('2 minutes ago');
  });

  it('says just now for a time slightly in the future', () => {
    expect(formatRelativeTime(now + 5000, 'en-US', { now })).toBe('just now');
  });
});

describe('formatTimeAgo', () => {
  const now = new Date(2024, 5, 15, 12, 0, 0).getTime();
  const ago = (s: number) => now - s * 1000;

  it('gives minutes under 3600 s, hours under 86400 s, days after', () => {
    expect(formatTimeAgo(ago(10), 'en-US', { now })).toBe('0 minutes ago');
    expect(formatTimeAgo(ago(3599), 'en-US', { now })).toBe('59 minutes ago');
    expect(formatTimeAgo(ago(3600), 'en-US', { now })).toBe('1 hour ago');
    expect(formatTimeAgo(ago(86399), 'zh-CN', { now })).toBe('23小时前');
    expect(formatTimeAgo(ago(86400), 'en-US', { now })).toBe('1 day ago');
    expect(formatTimeAgo(ago(40 * 86400), 'zh-CN', { now })).toBe('40天前');
  });
});

describe('formatSize', () => {
  it('keeps bytes up to 99999 and steps up from 100000', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(99999)).toBe('99999 B');
    expect(formatSize(100000)).toBe('97.66 KB');
  });

  it('steps by 1024 while the value exceeds 99999', () => {
    expect(formatSize(1024 * 99999)).toBe('99999 KB');
    expect(formatSize(1024 * 100000)).toBe('97.66 MB');
    expect(formatSize(5 * 1024 ** 3 * 1024)).toBe('5120 GB');
    expect(formatSize(200000 * 1024 ** 3)).toBe('195.31 TB');
  });

  it('stops at TB', () => {
    expect(formatSize(1024 ** 5 * 200)).toBe('204800 TB');
  });

  it('gives an empty string for no number', () => expect(formatSize(NaN)).toBe(''));
});

describe('formatCount', () => {
  it('keeps counts up to 9999 and abbreviates from 10000', () => {
    expect(formatCount(9999, 'zh-CN')).toBe('9999');
    expect(formatCount(10000, 'zh-CN')).toBe('1.0万');
    expect(formatCount(9999, 'en-US')).toBe('9999');
    expect(formatCount(10000, 'en-US')).toBe('10.0k');
  });

  it('counts in 万 and 亿 in zh-CN with one decimal', () => {
    expect(formatCount(123456, 'zh-CN')).toBe('12.3万');
    expect(formatCount(99999999, 'zh-CN')).toBe('1.0亿');
    expect(formatCount(1234567890, 'zh-CN')).toBe('12.3亿');
  });

  it('counts in k, M and B in en-US with one decimal', () => {
    expect(formatCount(123456, 'en-US')).toBe('123.5k');
    expect(formatCount(999999, 'en-US')).toBe('1.0M');
    expect(formatCount(1234567890, 'en-US')).toBe('1.2B');
  });

  it('keeps the sign of negative counts', () => expect(formatCount(-25000, 'zh-CN')).toBe('-2.5万'));
});

describe('abbreviateNumber', () => {
  it('leaves numbers under 1000 and abbreviates with k, M, G, T, P, E', () => {
    expect(abbreviateNumber(999)).toBe('999');
    expect(abbreviateNumber(1000)).toBe('1k');
    expect(abbreviateNumber(1250)).toBe('1.3k');
    expect(abbreviateNumber(1.5e6)).toBe('1.5M');
    expect(abbreviateNumber(2e9)).toBe('2G');
    expect(abbreviateNumber(3.25e12, 2)).toBe('3.25T');
    expect(abbreviateNumber(4e15)).toBe('4P');
    expect(abbreviateNumber(5e18)).toBe('5E');
  });

  it('moves to the next unit when rounding reaches it', () => {
    expect(abbreviateNumber(999999)).toBe('1M');
  });
});

describe('toThousands', () => {
  it('separates the integer part and keeps the decimals as written', () => {
    expect(toThousands(1234567.891)).toBe('1,234,567.891');
    expect(toThousands('1234.50')).toBe('1,234.50');
    expect(toThousands(-1000)).toBe('-1,000');
    expect(toThousands(999)).toBe('999');
  });

  it('returns text that is no number unchanged', () => expect(toThousands('n/a')).toBe('n/a'));
});

describe('formatDuration', () => {
  it('turns seconds into hh:mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59)).toBe('00:00:59');
    expect(formatDuration(3661)).toBe('01:01:01');
    expect(formatDuration(61.9)).toBe('00:01:01');
  });

  it('keeps counting hours past a day', () => {
    expect(formatDuration(86399)).toBe('23:59:59');
    expect(formatDuration(90000)).toBe('25:00:00');
    expect(formatDuration(100 * 3600 + 5)).toBe('100:00:05');
  });

  it('shows zero for negative or no number', () => {
    expect(formatDuration(-5)).toBe('00:00:00');
    expect(formatDuration(NaN)).toBe('00:00:00');
  });
});

describe('summarize', () => {
  it('keeps text of 35 characters and cuts text of 36 to 35 plus an ellipsis', () => {
    const t35 = 'a'.repeat(35);
    expect(summarize(t35)).toBe(t35);
    expect(summarize(t35 + 'b')).toBe(t35 + '...');
  });

  it('counts emoji and CJK characters once and never splits them', () => {
    const emoji = '😀'.repeat(36);
    expect(summarize(emoji)).toBe('😀'.repeat(35) + '...');
    const cjk = '翻译'.repeat(18);
    expect(summarize(cjk)).toBe(cjk.slice(0, 35) + '...');
  });

  it('gives an empty string for no text', () => {
    expect(summarize(null)).toBe('');
    expect(summarize('')).toBe('');
  });
});
