// Database: none
import { checkIdentityRoundTrip, checkTranslatedRoundTrip, randomText, seededRandom } from '@linguaport/sdk/testing';
import { describe, expect, it } from 'vitest';
import { jsonFormat } from '../../server/formats/json.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const upper = (source: string) => source.replace(/[a-z]+/g, (w) => w.toUpperCase());

const SAMPLE = `{
    "app": {
        "title": "Linguaport",
        "greeting": "Hello, {name}!",
        "count": "You have %d new messages",
        "escaped": "Line one\\nLine \\"two\\" \\u00e9t\\u00e9 \\/ slash",
        "empty": "",
        "enabled": true,
        "ratio": -1.5e3,
        "nothing": null
    },
    "menu": [ "Open", "Save as…", { "a/b~c": "Quit {{appName}}" } ],
    "icu": "{count, plural, one {# file} other {# files}}"
}
`;

describe('JSON format', () => {
  it('reads every string value with text as a unit, keyed by its JSON pointer, placeholders as tags', async () => {
    const file = await jsonFormat.parse(utf8(SAMPLE));
    expect(file.units.map((u) => [u.id, u.source])).toEqual([
      ['/app/title', 'Linguaport'],
      ['/app/greeting', 'Hello, <1/>!'],
      ['/app/count', 'You have <1/> new messages'],
      ['/app/escaped', 'Line one\nLine "two" été / slash'],
      ['/menu/0', 'Open'],
      ['/menu/1', 'Save as…'],
      ['/menu/2/a~1b~0c', 'Quit <1/>'],
      ['/icu', '{count, plural, one {# file} other {# files}}'],
    ]);
    expect(file.units[1]!.tags).toEqual({ 1: { kind: 'standalone', original: '{name}' } });
    expect(file.units[6]!.tags).toEqual({ 1: { kind: 'standalone', original: '{{appName}}' } });
    expect(file.units[6]!.context.part).toBe('/menu/2/a~1b~0c');
  });

  it('gives back the same bytes: compact, tabs, CRLF, a byte-order mark', async () => {
    await checkIdentityRoundTrip(jsonFormat, utf8(SAMPLE), 'indented');
    await checkIdentityRoundTrip(jsonFormat, utf8(JSON.stringify(JSON.parse(SAMPLE))), 'compact');
    await checkIdentityRoundTrip(jsonFormat, utf8('\uFEFF' + JSON.stringify(JSON.parse(SAMPLE), null, '\t').replace(/\n/g, '\r\n')), 'BOM tabs CRLF');
    await checkIdentityRoundTrip(jsonFormat, utf8('"just a string"'), 'a string alone');
  });

  it('writes translations escaped over their own spans and leaves the rest as it was', async () => {
    const written = text(await checkTranslatedRoundTrip(jsonFormat, utf8(SAMPLE), upper));
    expect(written).toBe(
      SAMPLE.replace('"Linguaport"', '"LINGUAPORT"')
        .replace('"Hello, {name}!"', '"HELLO, {name}!"')
        .replace('"You have %d new messages"', '"YOU HAVE %d NEW MESSAGES"')
        .replace('"Line one\\nLine \\"two\\" \\u00e9t\\u00e9 \\/ slash"', '"LINE ONE\\nLINE \\"TWO\\" éTé / SLASH"')
        .replace('[ "Open", "Save as…", { "a/b~c": "Quit {{appName}}" } ]', '[ "OPEN", "SAVE AS…", { "a/b~c": "QUIT {{appName}}" } ]')
        .replace('"{count, plural, one {# file} other {# files}}"', '"{COUNT, PLURAL, ONE {# FILE} OTHER {# FILES}}"'),
    );
  });

  it('keeps a file written in ASCII in ASCII', async () => {
    const file = await jsonFormat.parse(utf8('{"a": "caf\\u00e9"}'));
    expect(text(await jsonFormat.write(file, [{ ...file.units[0]!, target: 'Café 😀 "x"' }]))).toBe('{"a": "Caf\\u00e9 \\ud83d\\ude00 \\"x\\""}');
  });

  it('gives a key written twice two ids', async () => {
    const file = await jsonFormat.parse(utf8('{"a": "one", "a": "two"}'));
    expect(file.units.map((u) => u.id)).toEqual(['/a', '/a#2']);
    expect(text(await jsonFormat.write(file, [{ ...file.units[1]!, target: 'zwei' }]))).toBe('{"a": "one", "a": "zwei"}');
  });

  it('round-trips 200 seeded random strings and keys', async () => {
    const random = seededRandom(31337);
    for (let i = 0; i < 200; i++) {
      const value: Record<string, unknown> = {};
      for (let k = 0; k < 4; k++) value[randomText(random, 20)] = k === 2 ? [randomText(random, 100), 42, { x: randomText(random, 100) }] : randomText(random, 100);
      let sample = JSON.stringify(value, null, [0, 2, '\t'][i % 3]);
      if (i % 5 === 0) sample = sample.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      await checkIdentityRoundTrip(jsonFormat, utf8(sample), `seed 31337 #${i}`);
      await checkTranslatedRoundTrip(jsonFormat, utf8(sample), (s) => 'Ü ' + upper(s), `seed 31337 #${i}`);
    }
  });

  it('refuses invalid or truncated JSON and binary data with the place it broke', async () => {
    await expect(jsonFormat.parse(utf8('{"a": "b",\n "c": }'))).rejects.toThrow(/json: invalid JSON at line 2 column 7: expected a value, found "}"/);
    await expect(jsonFormat.parse(utf8('{"a": ["b", "c'))).rejects.toThrow(/json: invalid JSON at line 1 column 13: expected a complete string/);
    await expect(jsonFormat.parse(utf8('{"a": 1} x'))).rejects.toThrow(/expected the end of the file/);
    await expect(jsonFormat.parse(utf8('{"a": 1, // comment\n}'))).rejects.toThrow(/json: invalid JSON/);
    await expect(jsonFormat.parse(utf8('['.repeat(100_000)))).rejects.toThrow(/json: nesting deeper than 512 levels/);
    await expect(jsonFormat.parse(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0xfe]))).rejects.toThrow(/json: the file is not text/);
  });

  it('sniffs JSON and refuses other files', () => {
    expect(jsonFormat.sniff!(utf8(SAMPLE))).toBe(true);
    expect(jsonFormat.sniff!(utf8('{"a": '))).toBe(false);
    expect(jsonFormat.sniff!(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]))).toBe(false);
  });
});
