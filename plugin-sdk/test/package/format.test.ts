import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  generatePublisherKey,
  isSafePath,
  keyIdOf,
  PackageError,
  readTarGz,
  signFilesList,
  verifyFilesList,
  writeTarGz,
  type FilesList,
} from '../../src/package/index.js';

const limits = { maxUnpackedBytes: 1024 * 1024, maxFiles: 10 };

/** Rewrites the type flag of the first entry and fixes its header checksum. */
function withType(archive: Buffer, type: string): Buffer {
  const tar = Buffer.from(gunzipSync(archive));
  tar.write(type, 156);
  tar.write('        ', 148);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += tar[i];
  tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return gzipSync(tar);
}

describe('package archive', () => {
  it('reads back what it wrote, byte for byte', () => {
    const entries = [{ path: 'plugin.json', data: Buffer.from('{}') }, { path: 'bundle/a.js', data: Buffer.alloc(1500, 7) }];
    expect(readTarGz(writeTarGz(entries), limits)).toEqual(entries);
  });

  it('is reproducible: the same files give the same archive', () => {
    const entries = [{ path: 'a.txt', data: Buffer.from('x') }];
    expect(writeTarGz(entries).equals(writeTarGz(entries))).toBe(true);
  });

  it.each([
    ['1', 'a hard link'],
    ['2', 'a symbolic link'],
    ['x', 'a pax extended header'],
  ])('refuses type %s (%s)', (type, what) => {
    expect(() => readTarGz(withType(writeTarGz([{ path: 'a.txt', data: Buffer.from('x') }]), type), limits)).toThrow(`is ${what}`);
  });

  it.each(['../a', '/etc/passwd', 'a/../../b', 'a\\b', 'C:/x', 'a//b', './a'])('refuses the unsafe path %s', (path) => {
    expect(isSafePath(path)).toBe(false);
    expect(() => readTarGz(writeTarGz([{ path, data: Buffer.from('x') }]), limits)).toThrow(PackageError);
  });

  it('refuses more files than the limit, a file twice, and a corrupt header', () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ path: `f${i}`, data: Buffer.from('x') }));
    expect(() => readTarGz(writeTarGz(many), limits)).toThrow('more than 10 files');
    expect(() => readTarGz(writeTarGz([{ path: 'a', data: Buffer.from('1') }, { path: 'a', data: Buffer.from('2') }]), limits)).toThrow('holds a twice');
    const tar = Buffer.from(gunzipSync(writeTarGz([{ path: 'a', data: Buffer.from('1') }])));
    tar[0] = 'b'.charCodeAt(0);
    expect(() => readTarGz(gzipSync(tar), limits)).toThrow('checksum');
  });

  it('stops a compression bomb without inflating it whole', () => {
    const bomb = writeTarGz([{ path: 'zeros', data: Buffer.alloc(50 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(() => readTarGz(bomb, limits)).toThrow(`more than ${limits.maxUnpackedBytes} bytes`);
  });
});

describe('signature scheme', () => {
  const list: FilesList = {
    format: 1,
    id: 'p',
    version: '1.0.0',
    bundle: 'bundle/p.js',
    css: null,
    locales: { 'zh-CN': 'locales/zh-CN.json', 'en-US': 'locales/en-US.json' },
    logo: null,
    server: null,
    files: [{ path: 'bundle/p.js', size: 1, sha256: 'a'.repeat(64) }],
  };

  it('signs the canonical JSON: key order does not matter, values do', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }] })).toBe('{"a":[{"c":null,"d":"x"}],"b":1}');
    const key = generatePublisherKey();
    const sig = signFilesList(list, key.privateKeyPem);
    expect(sig.keyId).toBe(key.keyId);
    const { files, ...rest } = list;
    const reordered = JSON.parse(JSON.stringify({ files, ...rest })) as FilesList;
    expect(verifyFilesList(reordered, sig, key.publicKeyPem)).toBe(true);
    expect(verifyFilesList({ ...list, version: '1.0.1' }, sig, key.publicKeyPem)).toBe(false);
    expect(verifyFilesList(list, sig, generatePublisherKey().publicKeyPem)).toBe(false);
  });

  it('names a key by 16 hex digits of its SPKI hash, the same from PEM and from the key', () => {
    const key = generatePublisherKey();
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(keyIdOf(key.publicKeyPem)).toBe(key.keyId);
  });
});
