import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

/**
 * Zip archives for tests of unpacking budgets: each entry is `head`, then `repeat` written `times`
 * times, then `tail`, deflated as a stream, so a part of hundreds of MB becomes a file of a few
 * hundred KB without the test ever holding the part. `declaredSize` makes the headers lie about it.
 */
export interface RepeatedEntry {
  name: string;
  head?: string;
  repeat?: string;
  times?: number;
  tail?: string;
  declaredSize?: number;
}

async function deflated(e: RepeatedEntry): Promise<{ packed: Buffer; crc: number; size: number }> {
  const z = createDeflateRaw({ level: 6 });
  const out: Buffer[] = [];
  z.on('data', (d: Buffer) => out.push(d));
  let crc = 0;
  let size = 0;
  const write = async (b: Buffer) => {
    crc = crc32(b, crc);
    size += b.length;
    if (!z.write(b)) await once(z, 'drain');
  };
  if (e.head) await write(Buffer.from(e.head, 'utf8'));
  if (e.repeat && e.times) {
    // Blocks of about 1 MB, so the stream sees few writes.
    const per = Math.max(1, Math.floor((1 << 20) / Buffer.byteLength(e.repeat)));
    const block = Buffer.from(e.repeat.repeat(per), 'utf8');
    let left = e.times;
    for (; left >= per; left -= per) await write(block);
    if (left) await write(Buffer.from(e.repeat.repeat(left), 'utf8'));
  }
  if (e.tail) await write(Buffer.from(e.tail, 'utf8'));
  z.end();
  await once(z, 'end');
  return { packed: Buffer.concat(out), crc: crc >>> 0, size };
}

export async function zipOfRepeats(entries: RepeatedEntry[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const { packed, crc, size } = await deflated(e);
    const declared = e.declaredSize ?? size;
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
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

/** The parts of a minimal docx, with `body` (WordprocessingML paragraphs) as the document's body. */
export const DOCX_FRAME = {
  contentTypes: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  rels: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  head: '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
  tail: '</w:body></w:document>',
};

/** A docx whose body is `paragraph` repeated `times` times (300 MB of paragraphs is a file of about 1 MB). */
export function docxOfRepeats(paragraph: string, times: number, declaredSize?: number): Promise<Buffer> {
  return zipOfRepeats([
    { name: '[Content_Types].xml', head: DOCX_FRAME.contentTypes },
    { name: '_rels/.rels', head: DOCX_FRAME.rels },
    { name: 'word/document.xml', head: DOCX_FRAME.head, repeat: paragraph, times, tail: DOCX_FRAME.tail, declaredSize },
  ]);
}
