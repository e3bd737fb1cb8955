import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isUploadedFile, NotAnUploadError, optionalUploadedFilesSchema, registerUploadedFile, uploadedFileSchema, uploadedFilesSchema, uploadPath } from '../../src/server/uploads.js';

const root = mkdtempSync(join(tmpdir(), 'uploads-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function upload(name = 'a.upload', content = 'hello') {
  const folder = mkdtempSync(join(root, 'call-'));
  const path = join(folder, name);
  writeFileSync(path, content);
  return { folder, path, file: registerUploadedFile({ filename: 'a.txt', mimetype: 'text/plain', size: content.length, path, folder }, (p) => readFileSync(p)) };
}

describe('uploaded files', () => {
  it('are only those the kernel registered: a look-alike object is none', () => {
    const { file, path } = upload();
    expect(isUploadedFile(file)).toBe(true);
    const lookAlike = { filename: 'a.txt', mimetype: 'text/plain', size: 5, path };
    expect(isUploadedFile(lookAlike)).toBe(false);
    expect(isUploadedFile(JSON.parse(JSON.stringify(file)))).toBe(false);
    expect(uploadedFileSchema.safeParse(lookAlike).success).toBe(false);
    expect(uploadedFileSchema.safeParse(file).success).toBe(true);
    expect(() => uploadPath(lookAlike)).toThrow(NotAnUploadError);
  });

  it('lists: one or many become a list; absent is empty only where optional; a look-alike anywhere is refused', () => {
    const { file } = upload();
    expect(uploadedFilesSchema.parse(file)).toEqual([file]);
    expect(uploadedFilesSchema.parse([file, file])).toHaveLength(2);
    expect(uploadedFilesSchema.safeParse(undefined).success).toBe(false);
    expect(optionalUploadedFilesSchema.parse(undefined)).toEqual([]);
    const r = uploadedFilesSchema.safeParse([file, { ...file, path: '/etc/passwd' }]);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe('validation.uploadedFile');
  });

  it('cannot be pointed elsewhere: frozen, and registering a path outside its folder fails', () => {
    const { file, folder } = upload();
    expect(() => {
      (file as { path: string }).path = '/etc/passwd';
    }).toThrow();
    expect(file.path.startsWith(folder)).toBe(true);
    expect(() => registerUploadedFile({ filename: 'x', mimetype: 'x', size: 1, path: '/etc/passwd', folder }, readFileSync)).toThrow(NotAnUploadError);
    expect(() => registerUploadedFile({ filename: 'x', mimetype: 'x', size: 1, path: join(folder, '..', 'elsewhere'), folder }, readFileSync)).toThrow(NotAnUploadError);
  });

  it('are checked again when read: a link swapped in for the file is not followed', () => {
    const { file, path } = upload('b.upload', 'mine');
    expect(file.data.toString()).toBe('mine');
    const again = upload('c.upload', 'second');
    rmSync(again.path);
    const secret = join(root, 'secret.key');
    writeFileSync(secret, 'top secret');
    symlinkSync(secret, again.path);
    expect(() => again.file.path).toThrow(NotAnUploadError);
    expect(() => again.file.data).toThrow(NotAnUploadError);
    expect(() => uploadPath(again.file)).toThrow(/not a plain file/);
    // A file removed (the call ended) is gone, not an error elsewhere.
    rmSync(path);
    expect(() => uploadPath(file)).toThrow(/gone/);
  });

  it('keep the bytes off the enumerable fields (walks over a body do not read files)', () => {
    const { file } = upload();
    expect(Object.keys(file).sort()).toEqual(['filename', 'mimetype', 'path', 'size']);
  });
});
