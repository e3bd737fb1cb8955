import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';
import { zipOfParts, type ZipPart } from '../interchange/zip.js';

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
  const parts: ZipPart[] = [];
  for (const e of entries) {
    const { packed, crc, size } = await deflated(e);
    parts.push({ name: e.name, method: 8, crc, body: packed, size: e.declaredSize ?? size });
  }
  return zipOfParts(parts);
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
