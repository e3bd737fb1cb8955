import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A minimal ustar reader and writer for plugin packages. Our own code rather than a streaming
 * library because the reader must refuse, not interpret, anything but plain files and folders:
 * links, devices, pax headers and paths leaving the package all fail with a message naming them.
 */

export interface TarEntry {
  path: string;
  data: Buffer;
}

export interface ReadLimits {
  /** Largest total of unpacked file bytes. */
  maxUnpackedBytes: number;
  maxFiles: number;
}

export class PackageError extends Error {
  override name = 'PackageError';
}

const BLOCK = 512;

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'ascii');
}

function header(path: string, size: number): Buffer {
  const name = Buffer.from(path, 'utf8');
  if (name.length > 100) throw new PackageError(`path ${path} is longer than 100 bytes`);
  const h = Buffer.alloc(BLOCK);
  name.copy(h, 0);
  writeOctal(h, 100, 8, 0o644);
  writeOctal(h, 108, 8, 0);
  writeOctal(h, 116, 8, 0);
  writeOctal(h, 124, 12, size);
  // A fixed time keeps the same inputs giving the same archive bytes.
  writeOctal(h, 136, 12, 0);
  h.write('        ', 148, 8, 'ascii');
  h.write('0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  writeOctal(h, 148, 7, sum);
  h[155] = 0x20;
  return h;
}

/** Packs files (in the given order) into a gzip'd ustar archive. */
export function writeTarGz(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e.path, e.data.length), e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

function readString(h: Buffer, offset: number, length: number): string {
  const end = h.indexOf(0, offset);
  return h.toString('utf8', offset, end === -1 || end > offset + length ? offset + length : end);
}

function readOctal(h: Buffer, offset: number, length: number): number {
  const text = h.toString('ascii', offset, offset + length).replace(/\0.*$/s, '').trim();
  if (!/^[0-7]*$/.test(text)) throw new PackageError('the archive has a corrupt header (size field)');
  return text ? parseInt(text, 8) : 0;
}

/**
 * A safe relative path inside the package: forward slashes, no `..`, no absolute path, no
 * drive letter, no backslash, no empty or dot segments, printable characters only.
 */
export function isSafePath(path: string): boolean {
  if (!path || path.length > 200 || path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path)) return false;
  if (/[\x00-\x1f\x7f]/.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

const TYPE_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a FIFO',
  x: 'a pax extended header',
  g: 'a pax global header',
  L: 'a GNU long name',
  K: 'a GNU long link',
};

/**
 * Unpacks a gzip'd ustar archive into memory, refusing links, special files, unsafe paths,
 * duplicate paths and archives past the limits. The gunzip itself is bounded, so a small bomb
 * cannot expand without limit.
 */
export function readTarGz(archive: Buffer, limits: ReadLimits): TarEntry[] {
  let tar: Buffer;
  // Headers and padding add at most one block per file plus the end blocks.
  const maxTar = limits.maxUnpackedBytes + (limits.maxFiles * 2 + 4) * BLOCK;
  try {
    tar = gunzipSync(archive, { maxOutputLength: maxTar });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || /maxOutputLength|larger than/i.test((err as Error).message)) {
      throw new PackageError(`the archive unpacks to more than ${limits.maxUnpackedBytes} bytes`);
    }
    throw new PackageError(`the file is not a gzip'd tar archive: ${(err as Error).message}`);
  }
  const entries: TarEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const h = tar.subarray(offset, offset + BLOCK);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
    if (sum !== readOctal(h, 148, 8)) throw new PackageError('the archive has a corrupt header (checksum)');
    const prefix = readString(h, 345, 155);
    const name = readString(h, 0, 100);
    const path = prefix ? `${prefix}/${name}` : name;
    const type = String.fromCharCode(h[156] || 0x30);
    const size = readOctal(h, 124, 12);
    offset += BLOCK;
    if (TYPE_NAMES[type]) throw new PackageError(`the archive entry ${path} is ${TYPE_NAMES[type]}; packages hold plain files only`);
    const isDir = type === '5';
    if (!isDir && type !== '0') throw new PackageError(`the archive entry ${path} has unsupported type ${JSON.stringify(type)}`);
    const clean = isDir ? path.replace(/\/+$/, '') : path;
    if (!isSafePath(clean)) throw new PackageError(`the archive entry ${path} points outside the package (unsafe path)`);
    if (offset + size > tar.length) throw new PackageError(`the archive is truncated inside ${path}`);
    if (!isDir) {
      if (seen.has(clean)) throw new PackageError(`the archive holds ${clean} twice`);
      seen.add(clean);
      total += size;
      if (total > limits.maxUnpackedBytes) throw new PackageError(`the archive unpacks to more than ${limits.maxUnpackedBytes} bytes`);
      if (entries.length + 1 > limits.maxFiles) throw new PackageError(`the archive holds more than ${limits.maxFiles} files`);
      entries.push({ path: clean, data: Buffer.from(tar.subarray(offset, offset + size)) });
    }
    offset += Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}
