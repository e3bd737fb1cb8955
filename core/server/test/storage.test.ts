// Database: none
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage } from '../src/storage/files.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'linguaport-files-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describe('file storage', () => {
  it('round-trips a buffer under <root>/<plugin>/ and reports size and sha256', async () => {
    const files = createFileStorage(root, 'term');
    const data = Buffer.from('术语 terminology');
    const stored = await files.put('imports/2024/terms.xlsx', data);
    expect(stored).toEqual({ key: 'imports/2024/terms.xlsx', size: data.length, sha256: sha256(data) });
    expect(files.path('imports/2024/terms.xlsx')).toBe(join(root, 'term', 'imports/2024/terms.xlsx'));
    expect(await readFile(join(root, 'term', 'imports/2024/terms.xlsx'))).toEqual(data);
    expect(await files.get('imports/2024/terms.xlsx')).toEqual(data);
    expect(await text(files.stream('imports/2024/terms.xlsx') as Readable)).toBe('术语 terminology');
  });

  it('stores a stream and leaves no temp files behind', async () => {
    const files = createFileStorage(root, 'docs');
    const chunks = ['one ', 'two ', 'three'];
    const stored = await files.put('big.txt', Readable.from(chunks.map((c) => Buffer.from(c))));
    expect(stored.size).toBe(13);
    expect(stored.sha256).toBe(sha256('one two three'));
    expect(await readdir(join(root, 'docs'))).toEqual(['big.txt']);
  });

  it('replaces a file on a second put and removes it on remove', async () => {
    const files = createFileStorage(root, 'docs');
    await files.put('note.txt', Buffer.from('first'));
    await files.put('note.txt', Buffer.from('second'));
    expect((await files.get('note.txt')).toString()).toBe('second');
    expect(await files.exists('note.txt')).toBe(true);
    await files.remove('note.txt');
    expect(await files.exists('note.txt')).toBe(false);
    await files.remove('note.txt');
  });

  it('cleans up and rethrows when the source stream fails', async () => {
    const files = createFileStorage(root, 'broken');
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('upload cut off'));
      },
    });
    await expect(files.put('cut.bin', failing)).rejects.toThrow('upload cut off');
    expect(await files.exists('cut.bin')).toBe(false);
    expect(await readdir(join(root, 'broken'))).toEqual([]);
  });

  it('keeps plugins apart', async () => {
    await createFileStorage(root, 'a').put('same.txt', Buffer.from('from a'));
    expect(await createFileStorage(root, 'b').exists('same.txt')).toBe(false);
  });

  it.each([
    ['../escape.txt', 'it leaves the folder'],
    ['nested/../../escape.txt', 'it leaves the folder'],
    ['..', 'it leaves the folder'],
    ['/etc/passwd', 'it is absolute'],
    ['C:/windows', 'it is absolute'],
    ['bad\0name', 'it contains NUL'],
    ['a\\..\\b', 'it contains a backslash'],
    ['', 'it is empty'],
    ['.', 'it names the folder itself'],
  ])('refuses the key %j (%s) on every operation', async (key, why) => {
    const files = createFileStorage(root, 'term');
    const message = `file key ${JSON.stringify(key)} is not allowed: ${why}`;
    await expect(files.put(key, Buffer.from('x'))).rejects.toThrow(message);
    await expect(files.get(key)).rejects.toThrow(message);
    await expect(files.exists(key)).rejects.toThrow(message);
    await expect(files.remove(key)).rejects.toThrow(message);
    expect(() => files.path(key)).toThrow(message);
    expect(() => files.stream(key)).toThrow(message);
  });

  it('refuses a plugin id that is not a plain name', () => {
    expect(() => createFileStorage(root, '../other')).toThrow('cannot name a storage folder');
    expect(() => createFileStorage(root, '')).toThrow('cannot name a storage folder');
  });
});
