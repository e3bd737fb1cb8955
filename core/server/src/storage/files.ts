import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage, StoredFile } from '@linguaport/sdk/server';

const PLUGIN_ID = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * A key is a relative path inside the plugin's folder. Anything that could point elsewhere
 * (`..`, absolute paths, NUL, backslashes that Windows tools would read as separators) is refused
 * outright rather than "cleaned", so a caller never writes somewhere it did not mean to.
 */
export function normalizeKey(key: string): string {
  const refuse = (why: string): never => {
    throw new Error(`file key ${JSON.stringify(key)} is not allowed: ${why}`);
  };
  if (typeof key !== 'string' || key.length === 0) refuse('it is empty');
  if (key.includes('\0')) refuse('it contains NUL');
  if (key.includes('\\')) refuse('it contains a backslash');
  if (key.startsWith('/') || /^[a-z]:/i.test(key)) refuse('it is absolute');
  if (key.split('/').some((part) => part === '..')) refuse('it leaves the folder');
  const normal = posix.normalize(key).replace(/\/+$/, '');
  if (normal === '' || normal === '.') refuse('it names the folder itself');
  return normal;
}

/** Hashes and counts bytes as they pass. */
function measuring() {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) };
}

/** Files of one plugin under `<root>/<pluginId>/`. */
export function createFileStorage(root: string, pluginId: string): FileStorage {
  if (!PLUGIN_ID.test(pluginId) || pluginId.includes('..')) {
    throw new Error(`plugin id ${JSON.stringify(pluginId)} cannot name a storage folder`);
  }
  const folder = resolve(root, pluginId);

  const pathOf = (key: string) => {
    const full = join(folder, normalizeKey(key));
    // Belt and braces: normalizeKey already refuses every escape this could catch.
    if (!full.startsWith(folder + sep)) throw new Error(`file key ${JSON.stringify(key)} is not allowed: it leaves the folder`);
    return full;
  };

  return {
    async put(key: string, data: Buffer | NodeJS.ReadableStream): Promise<StoredFile> {
      const normal = normalizeKey(key);
      const target = pathOf(normal);
      await mkdir(dirname(target), { recursive: true });
      // Readers never see half a file: write beside it, then rename over it in one step.
      const temp = join(dirname(target), `.${basename(target)}.${randomUUID()}.tmp`);
      const measure = measuring();
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : (data as NodeJS.ReadableStream);
      try {
        await pipeline(source, measure.stream, createWriteStream(temp, { flags: 'wx' }));
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return { key: normal, ...measure.result() };
    },

    // async so a refused key rejects like any other failure instead of throwing synchronously.
    get: async (key) => readFile(pathOf(key)),

    stream: (key) => createReadStream(pathOf(key)),

    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
        throw err;
      }
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },

    path: (key) => pathOf(key),
  };
}
