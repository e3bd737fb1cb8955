import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Zip archives, the subset documents and office formats need: write entries (deflated, UTF-8 names)
 * and read the entries of an uploaded archive through its central directory, refusing what would hurt
 * the server (names that climb out of the folder, more than `maxEntries`, more than `maxBytes` unpacked
 * in all or `maxEntryBytes` in one part: a zip bomb is refused on its declared sizes, and a header that
 * lies is stopped while inflating, never after filling memory). No zip64, encryption or multi-part.
 * Every reader of zip containers (office packages, archives of documents, spreadsheets) goes through
 * `listZip`/`readZip` with a budget.
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
  return zipOfParts(
    entries.map((e) => {
      const copy = e.raw && e.raw.of === e.data && !e.store ? e.raw : null;
      const packed = copy ? copy.packed : e.store ? e.data : deflateRawSync(e.data, { level: 6 });
      const stored = copy ? copy.method === 0 : e.store || packed.length >= e.data.length;
      return { name: e.name, method: stored ? 0 : 8, crc: copy ? copy.crc : crc32(e.data) >>> 0, body: stored ? e.data : packed, size: e.data.length };
    }),
    at,
  );
}

/** One entry as it goes into an archive: its bytes already packed by `method` (0 stored, 8 deflated). */
export interface ZipPart {
  name: string;
  method: number;
  crc: number;
  body: Buffer;
  /** The unpacked size the headers declare. */
  size: number;
}

/**
 * The archive around parts already packed: local headers, central directory, end record. `writeZip`
 * packs and calls it; test helpers that stream-deflate (or make headers lie) call it directly.
 * Without `at` the entries carry no date (zero).
 */
export function zipOfParts(parts: ZipPart[], at?: Date): Buffer {
  const { time, date } = at ? DOS_EPOCH(at) : { time: 0, date: 0 };
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(p.method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.body.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, p.body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(p.method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(p.crc, 16);
    central.writeUInt32LE(p.body.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + p.body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A refusal in both languages, for budgets a user's file went past (the job fails with it, a route answers it). */
export type BudgetText = Readonly<Record<'zh-CN' | 'en-US', string>>;

export class ZipError extends Error {
  constructor(
    message: string,
    readonly reason: 'notZip' | 'unsafe' | 'tooLarge' | 'tooMany' | 'unsupported',
    /** Set when a budget refused the archive: the reason to show the user. */
    readonly localized?: BudgetText,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

/**
 * What an archive may unpack to. Declared sizes are checked before anything is inflated (an early
 * refusal), and inflating counts the bytes as they come and stops past the smaller of the entry's
 * declared size and what the budgets leave, so a header that lies gets no further than its claim.
 */
export interface ZipBudget {
  maxEntries: number;
  /** All entries together, unpacked. */
  maxBytes: number;
  /** One entry, unpacked (defaults to `maxBytes`). */
  maxEntryBytes?: number;
}

/** An entry of the central directory: its declared sizes, nothing unpacked. */
export interface ZipListing {
  name: string;
  method: number;
  flags: number;
  crc: number;
  packedSize: number;
  /** As declared; `inflateEntry` does not trust it beyond using it as a cap. */
  size: number;
  localAt: number;
}

const mb = (n: number) => (n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${n} bytes`);

function tooLarge(what: string, limit: number, zhWhat: string): ZipError {
  return new ZipError(`${what} unpacks to more than ${mb(limit)}`, 'tooLarge', { 'zh-CN': `${zhWhat}解压后超过 ${mb(limit)}，超出处理上限`, 'en-US': `${what} unpacks to more than ${mb(limit)}, over the processing limit` });
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

/** The entries of an archive's central directory (folders left out), refused early on declared sizes. */
export function listZip(buf: Buffer, budget: ZipBudget): ZipListing[] {
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
  if (count > budget.maxEntries) {
    throw new ZipError(`the archive holds ${count} entries, more than ${budget.maxEntries}`, 'tooMany', { 'zh-CN': `压缩包含 ${count} 个条目，超过上限 ${budget.maxEntries}`, 'en-US': `the archive holds ${count} entries, more than the limit of ${budget.maxEntries}` });
  }
  const perEntry = Math.min(budget.maxEntryBytes ?? budget.maxBytes, budget.maxBytes);
  const out: ZipListing[] = [];
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new ZipError('the central directory is damaged', 'notZip');
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
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
    if (size > perEntry) throw tooLarge(`the part ${name}`, perEntry, `部件 ${name} `);
    declared += size;
    if (declared > budget.maxBytes) throw tooLarge('the archive', budget.maxBytes, '压缩包');
    out.push({ name, method, flags, crc, packedSize, size, localAt });
  }
  return out;
}

/**
 * One entry's bytes. Inflating counts what comes out and stops past `cap` (default: the declared
 * size), so the memory it takes is bounded whatever the compressed stream holds.
 */
export function inflateEntry(buf: Buffer, entry: ZipListing, cap: number = entry.size): { data: Buffer; packed: Buffer } {
  const { name, localAt, method } = entry;
  if (localAt + 30 > buf.length || buf.readUInt32LE(localAt) !== 0x04034b50) throw new ZipError(`the entry ${name} is damaged`, 'notZip');
  const start = localAt + 30 + buf.readUInt16LE(localAt + 26) + buf.readUInt16LE(localAt + 28);
  const packed = buf.subarray(start, start + entry.packedSize);
  let data: Buffer;
  if (method === 0) data = Buffer.from(packed);
  else {
    const limit = Math.min(cap, entry.size);
    try {
      // zlib inflates chunk by chunk and gives up as soon as the running total passes the limit.
      data = inflateRawSync(packed, { maxOutputLength: Math.max(limit, 1) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        if (limit < entry.size) throw tooLarge(`the part ${name}`, limit, `部件 ${name} `);
        throw new ZipError(`the entry ${name} unpacks to more than its declared ${entry.size} bytes`, 'tooLarge', { 'zh-CN': `部件 ${name} 解压后超过其声明的大小（${entry.size} 字节），文件已损坏或被篡改`, 'en-US': `the part ${name} unpacks to more than its declared size (${entry.size} bytes): the file is damaged or forged` });
      }
      throw new ZipError(`the entry ${name} cannot be unpacked: ${(err as Error).message}`, 'notZip');
    }
  }
  if (data.length !== entry.size) throw new ZipError(`the entry ${name} does not unpack to its declared size`, 'notZip');
  if ((crc32(data) >>> 0) !== entry.crc) throw new ZipError(`the entry ${name} fails its checksum`, 'notZip');
  return { data, packed };
}

/** The files of an archive (folders left out), in the order the archive lists them, within `budget`. */
export function readZip(buf: Buffer, budget: ZipBudget): ZipEntry[] {
  const out: ZipEntry[] = [];
  for (const entry of listZip(buf, budget)) {
    const { data, packed } = inflateEntry(buf, entry);
    out.push({ name: entry.name, data, raw: { method: entry.method, crc: entry.crc, packed, of: data } });
  }
  return out;
}
