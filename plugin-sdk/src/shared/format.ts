import { resolveLocale } from './locale.js';
import type { Locale } from './manifest.js';

/**
 * The display formatters of spec 01 section 9 (dates, relative time, sizes, counts, numbers,
 * durations, summaries), shared by the console's tables and the server's exports. They never
 * throw on bad input: a formatter in a table cell shows '' rather than breaking the page.
 * Dates are read and written in the local time zone of the process that formats them.
 */

export type DateInput = Date | number | string;

export const DEFAULT_DATE_PATTERN = 'YYYY-MM-DD HH:mm:ss';

// A bare date or date-time without a zone. ECMAScript reads a bare `YYYY-MM-DD` as UTC but a
// date-time as local; the server means local for both, so both are parsed here by hand.
const LOCAL_DATE_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

function fromNumber(n: number): Date {
  // Spec 01 section 9: a ten-digit timestamp is seconds; thirteen digits (and anything else) ms.
  const seconds = Number.isInteger(n) && String(Math.abs(n)).length === 10;
  return new Date(seconds ? n * 1000 : n);
}

/** The Date a formatter input stands for, or null when it stands for none. */
export function toDate(value: DateInput | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  let date: Date;
  if (value instanceof Date) date = new Date(value.getTime());
  else if (typeof value === 'number') date = fromNumber(value);
  else {
    const text = value.trim();
    if (text === '') return null;
    const local = LOCAL_DATE_TIME.exec(text);
    if (/^-?\d+$/.test(text)) date = fromNumber(Number(text));
    else if (local) {
      const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = local;
      date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
    } else date = new Date(text);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Format a date with tokens YYYY YY MM M DD D HH H mm m ss s SSS; text inside [brackets] is
 * copied as is. '' for an input that is no date.
 */
export function formatDate(value: DateInput | null | undefined, pattern: string = DEFAULT_DATE_PATTERN): string {
  const d = toDate(value);
  if (!d) return '';
  const parts: Record<string, string> = {
    YYYY: String(d.getFullYear()),
    YY: pad(d.getFullYear() % 100),
    MM: pad(d.getMonth() + 1),
    M: String(d.getMonth() + 1),
    DD: pad(d.getDate()),
    D: String(d.getDate()),
    HH: pad(d.getHours()),
    H: String(d.getHours()),
    mm: pad(d.getMinutes()),
    m: String(d.getMinutes()),
    ss: pad(d.getSeconds()),
    s: String(d.getSeconds()),
    SSS: pad(d.getMilliseconds(), 3),
  };
  return pattern.replace(/\[([^\]]*)\]|YYYY|YY|SSS|MM|M|DD|D|HH|H|mm|m|ss|s/g, (token, literal: string | undefined) =>
    literal !== undefined ? literal : parts[token],
  );
}

interface AgoLabels {
  justNow: string;
  minutes: (n: number) => string;
  hours: (n: number) => string;
  days: (n: number) => string;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

const AGO: Record<Locale, AgoLabels> = {
  'zh-CN': { justNow: '刚刚', minutes: (n) => `${n}分钟前`, hours: (n) => `${n}小时前`, days: (n) => `${n}天前` },
  'en-US': {
    justNow: 'just now',
    minutes: (n) => plural(n, 'minute'),
    hours: (n) => plural(n, 'hour'),
    days: (n) => plural(n, 'day'),
  },
};

export interface RelativeTimeOptions {
  /** The moment to measure from; defaults to the current time. */
  now?: DateInput;
  /** Pattern for times two days old or more (formatRelativeTime only). */
  pattern?: string;
}

function secondsSince(value: DateInput, now: DateInput | undefined): number | null {
  const then = toDate(value);
  const ref = now === undefined ? new Date() : toDate(now);
  return then && ref ? (ref.getTime() - then.getTime()) / 1000 : null;
}

/**
 * Under 30 s 'just now'; under an hour N minutes ago; under a day N hours ago; under two days
 * '1 day ago'; older: the date. Counts are whole units rounded down but at least 1, so 30 s
 * reads '1 minute ago'. A time slightly in the future (clock skew) reads 'just now'.
 */
export function formatRelativeTime(value: DateInput | null | undefined, locale: string, options: RelativeTimeOptions = {}): string {
  if (value === null || value === undefined) return '';
  const diff = secondsSince(value, options.now);
  if (diff === null) return '';
  const labels = AGO[resolveLocale(locale)];
  if (diff < 30) return labels.justNow;
  if (diff < 3600) return labels.minutes(Math.max(1, Math.floor(diff / 60)));
  if (diff < 86400) return labels.hours(Math.max(1, Math.floor(diff / 3600)));
  if (diff < 2 * 86400) return labels.days(1);
  return formatDate(value, options.pattern);
}

/**
 * The second time-ago helper: under 3600 s whole minutes (0 included), under 86400 s whole
 * hours, otherwise whole days, always with "ago".
 */
export function formatTimeAgo(value: DateInput | null | undefined, locale: string, options: Pick<RelativeTimeOptions, 'now'> = {}): string {
  if (value === null || value === undefined) return '';
  const diff = secondsSince(value, options.now);
  if (diff === null) return '';
  const labels = AGO[resolveLocale(locale)];
  const between = Math.max(0, diff);
  if (between < 3600) return labels.minutes(Math.floor(between / 60));
  if (between < 86400) return labels.hours(Math.floor(between / 3600));
  return labels.days(Math.floor(between / 86400));
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
/** Values up to this many of a unit are shown in that unit (spec 01 section 9). */
const SIZE_STEP_ABOVE = 99999;

/** Trim a fixed-decimal text: 97.60 -> 97.6, 100.00 -> 100. */
function trimDecimals(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}

/**
 * Bytes as text: up to 99999 in bytes ('99999 B'); above that divided by 1024 until the value is
 * 99999 or less (or TB is reached), with at most two decimals ('97.66 KB').
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes)) return '';
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) > SIZE_STEP_ABOVE && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${trimDecimals(value, 2)} ${SIZE_UNITS[unit]}`;
}

interface Step {
  value: number;
  label: string;
}

/**
 * Count units, smallest first. zh-CN counts in 万 (10^4) and 亿 (10^8) as the spec's steps of
 * 10000 read in Chinese. English has no word for 10^4, so en-US counts in k (10^3), M (10^6) and
 * B (10^9), switching at the same point (above 9999) so both locales abbreviate the same counts.
 */
const COUNT_STEPS: Record<Locale, Step[]> = {
  'zh-CN': [
    { value: 1e4, label: '万' },
    { value: 1e8, label: '亿' },
  ],
  'en-US': [
    { value: 1e3, label: 'k' },
    { value: 1e6, label: 'M' },
    { value: 1e9, label: 'B' },
  ],
};

const COUNT_ABBREVIATE_ABOVE = 9999;

/** Pick the largest step not above abs, round, and move up a step when rounding reaches it. */
function scale(abs: number, steps: Step[], round: (n: number) => number): { scaled: number; step: Step } {
  let i = steps.length - 1;
  while (i > 0 && abs < steps[i].value) i--;
  let scaled = round(abs / steps[i].value);
  if (i + 1 < steps.length && scaled * steps[i].value >= steps[i + 1].value) {
    i++;
    scaled = round(abs / steps[i].value);
  }
  return { scaled, step: steps[i] };
}

/** A count for lists and badges: as is up to 9999, then one decimal and a unit ('1.2万', '12.3k'). */
export function formatCount(count: number, locale: string): string {
  if (!Number.isFinite(count)) return '';
  const abs = Math.abs(count);
  if (abs <= COUNT_ABBREVIATE_ABOVE) return String(count);
  const { scaled, step } = scale(abs, COUNT_STEPS[resolveLocale(locale)], (n) => Number(n.toFixed(1)));
  return `${count < 0 ? '-' : ''}${scaled.toFixed(1)}${step.label}`;
}

const SI_STEPS: Step[] = [
  { value: 1e3, label: 'k' },
  { value: 1e6, label: 'M' },
  { value: 1e9, label: 'G' },
  { value: 1e12, label: 'T' },
  { value: 1e15, label: 'P' },
  { value: 1e18, label: 'E' },
];

/** 1234 -> '1.2k', 1500000 -> '1.5M', up to E; below 1000 unchanged; trailing zeros dropped. */
export function abbreviateNumber(num: number, digits = 1): string {
  if (!Number.isFinite(num)) return '';
  const abs = Math.abs(num);
  if (abs < 1e3) return String(num);
  const { scaled, step } = scale(abs, SI_STEPS, (n) => Number(n.toFixed(digits)));
  return `${num < 0 ? '-' : ''}${scaled}${step.label}`;
}

/**
 * 1234567.891 -> '1,234,567.891'. The integer part gets separators; decimals stay as written, so
 * '1234.50' keeps its zero. Text that is no plain number comes back unchanged.
 */
export function toThousands(value: number | string): string {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2].replace(/\B(?=(\d{3})+$)/g, ',')}${m[3] ?? ''}`;
}

/** A media time as players show it: `1:02.5` for 62.5 seconds, `1:00:05` for an hour and five seconds (video, trans-video). */
export function formatMediaTime(total: number): string {
  const s = Math.round(Math.max(0, total) * 10) / 10;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s - h * 3600 - m * 60;
  const secText = (sec < 10 ? '0' : '') + (Math.abs(sec - Math.round(sec)) < 1e-6 ? String(Math.round(sec)) : sec.toFixed(1));
  return h ? `${h}:${String(m).padStart(2, '0')}:${secText}` : `${m}:${secText}`;
}

/** Seconds as hh:mm:ss; hours keep counting past 24 (90000 -> '25:00:00'). */
export function formatDuration(totalSeconds: number): string {
  const s = Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0;
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export const SUMMARY_LENGTH = 35;

/**
 * Text cut to 35 characters plus '...' when longer. Characters are code points, so an emoji or
 * a CJK character is never split in half; the text is walked, not spread, so long text is cheap.
 */
export function summarize(text: string | null | undefined, max: number = SUMMARY_LENGTH, ellipsis = '...'): string {
  if (!text) return '';
  let kept = '';
  let n = 0;
  for (const ch of text) {
    if (n === max) return kept + ellipsis;
    kept += ch;
    n++;
  }
  return kept;
}
