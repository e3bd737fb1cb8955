import type { FileFormat, TranslationUnit } from '../shared/file-format.js';
import { placeholdersOf } from '../shared/file-format.js';
import { seededRandom } from '@linguaport/speaker-model';

// A repeatable generator (mulberry32), so a failing seed can be replayed: the speaker model's, which has no dependencies.
export { seededRandom };

/**
 * The round-trip checks every file format passes (translate-toolkit's storage tests are the model):
 *  - identity: writing the units as read (each translated by its own source) gives back the same bytes;
 *  - stability: reading what was written gives the same units;
 *  - translation: a changed target lands in the file and reads back as that unit's text, the others unchanged.
 * Each throws an Error saying what differs; any test runner can call them.
 */
export async function checkIdentityRoundTrip(format: FileFormat, bytes: Uint8Array, label = 'sample'): Promise<TranslationUnit[]> {
  const parsed = await format.parse(bytes);
  const written = await format.write(parsed, parsed.units);
  if (!sameBytes(bytes, written)) {
    throw new Error(`${format.id} ${label}: identity write differs from the original at byte ${firstDifference(bytes, written)} (${describe(bytes, written)})`);
  }
  const again = await format.parse(written);
  const a = JSON.stringify(parsed.units.map(strip));
  const b = JSON.stringify(again.units.map(strip));
  if (a !== b) throw new Error(`${format.id} ${label}: reading the written file gives other units`);
  return parsed.units;
}

/** Translates every unit with `translate(source)` (placeholders kept) and checks the file reads back with those texts. */
export async function checkTranslatedRoundTrip(format: FileFormat, bytes: Uint8Array, translate: (source: string, unit: TranslationUnit) => string, label = 'sample'): Promise<Uint8Array> {
  const parsed = await format.parse(bytes);
  const units = parsed.units.map((u) => ({ ...u, target: translate(u.source, u) }));
  const written = await format.write(parsed, units);
  const back = await format.parse(written);
  if (back.units.length !== units.length) throw new Error(`${format.id} ${label}: ${units.length} units written, ${back.units.length} read back`);
  back.units.forEach((u, i) => {
    const want = units[i]!.target!;
    if (normalise(u.source) !== normalise(want)) throw new Error(`${format.id} ${label}: unit ${u.id} reads back as ${JSON.stringify(u.source)}, wrote ${JSON.stringify(want)}`);
  });
  return written;
}

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789',
  '.,;:!?()[]{}"\'-*#@&%/\\|<>=+_~^$',
  'äöüßéèêñçøå',
  '中文翻译平台术语记忆库文件',
  'русскийтекст',
  '😀🌍✓',
];

/** Text of the kinds real files hold: words, punctuation, markup-like characters, CJK, emoji, odd spacing and line ends. */
export function randomText(random: () => number, maxLength = 200): string {
  const length = Math.floor(random() * maxLength);
  let out = '';
  while (out.length < length) {
    const r = random();
    if (r < 0.15) out += ' ';
    else if (r < 0.19) out += ['\n', '\r\n', '\n\n', '\t', '  ', '\r'][Math.floor(random() * 6)];
    // Text that looks like markup or like the platform's own placeholders must survive as text.
    else if (r < 0.22) out += ['<1>', '</1>', '<2/>', '<12>', '&amp;', '&lt;', '<b>', '{0}', '%s'][Math.floor(random() * 9)];
    else {
      const alphabet = ALPHABETS[Math.floor(random() * ALPHABETS.length)]!;
      const chars = [...alphabet];
      out += chars[Math.floor(random() * chars.length)];
    }
  }
  return out;
}

const strip = (u: TranslationUnit) => ({ id: u.id, source: u.source, tags: u.tags, context: u.context });
const normalise = (s: string) => s;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function describe(a: Uint8Array, b: Uint8Array): string {
  const at = firstDifference(a, b);
  const show = (x: Uint8Array) => JSON.stringify(Buffer.from(x.subarray(Math.max(0, at - 10), at + 20)).toString('utf8'));
  return `original ${a.length} bytes ${show(a)}, written ${b.length} bytes ${show(b)}`;
}

export { placeholdersOf };
