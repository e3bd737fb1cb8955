import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Zip archives, the subset documents and office formats need: write entries (deflated, UTF-8 names)
 * and read the entries of an uploaded archive through its central directory, refusing what would hurt
 * the server (names that climb out of the folder, more than `maxEntries`, more than `maxBytes` unpacked:
 * a zip bomb stops at the limit, not after filling the disk). No zip64, encryption or multi-part.
 * An entry read from an archive keeps its compressed bytes (`raw`), so writing it back unchanged copies
 * them instead of compressing again (office files are mostly pictures no format touches).
 */

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Written without compression (ODF's `mimetype` must be). */
  store?: boolean;
  /** The entry as the archive held it; used by `writeZip` as long as `data` is the same Buffer. */
  raw?: { method: number; crc: number; packed: Buffer; of: Buffer };
}

const DOS_EPOCH = (d: Date) => {
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
  const date = ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return { time, date };
};

export function writeZip(entries: ZipEntry[], at: Date = new Date()): Buffer {
  const { time, date } = DOS_EPOCH(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const copy = e.raw && e.raw.of === e.data && !e.store ? e.raw : null;
    const packed = copy ? copy.packed : e.store ? e.data : deflateRawSync(e.data, { level: 6 });
    const stored = copy ? copy.method === 0 : e.store || packed.length >= e.data.length;
    const body = stored ? e.data : packed;
    const crc = copy ? copy.crc : crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export class ZipError extends Error {
  constructor(
    message: string,
    readonly reason: 'notZip' | 'unsafe' | 'tooLarge' | 'tooMany' | 'unsupported',
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** A safe relative path inside the archive, or null for one to refuse (absolute, `..`, drive letters). */
export function safeEntryName(raw: string): string | null {
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.includes('\0')) return null;
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return null;
  return parts.join('/');
}

/** The files of an archive (folders left out), in the order the archive lists them. */
export function readZip(buf: Buffer, limits: { maxEntries: number; maxBytes: number }): ZipEntry[] {
  if (!isZip(buf)) throw new ZipError('not a zip archive', 'notZip');
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('the archive has no central directory', 'notZip');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count > limits.maxEntries) throw new ZipError(`the archive holds ${count} entries, more than ${limits.maxEntries}`, 'tooMany');
  const out: ZipEntry[] = [];
  let unpacked = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new ZipError('the central directory is damaged', 'notZip');
    const at0 = at;
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const packedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    const localAt = buf.readUInt32LE(at + 42);
    const rawName = buf.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x0800 ? 'utf8' : 'latin1');
    at += 46 + nameLength + extra + comment;
    if (rawName.endsWith('/')) continue;
    const name = safeEntryName(rawName);
    if (name === null) throw new ZipError(`the entry ${rawName} points outside the archive`, 'unsafe');
    if (flags & 0x0001) throw new ZipError(`the entry ${name} is encrypted`, 'unsupported');
    if (method !== 0 && method !== 8) throw new ZipError(`the entry ${name} uses compression method ${method}`, 'unsupported');
    unpacked += size;
    if (unpacked > limits.maxBytes) throw new ZipError(`the archive unpacks to more than ${limits.maxBytes} bytes`, 'tooLarge');
    if (localAt + 30 > buf.length || buf.readUInt32LE(localAt) !== 0x04034b50) throw new ZipError(`the entry ${name} is damaged`, 'notZip');
    const start = localAt + 30 + buf.readUInt16LE(localAt + 26) + buf.readUInt16LE(localAt + 28);
    const body = buf.subarray(start, start + packedSize);
    // The declared size bounds the output, so a lying header cannot unpack more than it claims.
    const data = method === 0 ? Buffer.from(body) : inflateRawSync(body, { maxOutputLength: Math.max(size, 1) });
    if (data.length !== size) throw new ZipError(`the entry ${name} does not unpack to its declared size`, 'notZip');
    const crc = buf.readUInt32LE(at0 + 16);
    if ((crc32(data) >>> 0) !== crc) throw new ZipError(`the entry ${name} fails its checksum`, 'notZip');
    out.push({ name, data, raw: { method, crc, packed: body, of: data } });
  }
  return out;
}
