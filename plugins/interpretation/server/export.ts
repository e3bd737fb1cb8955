import { subtitleTime, writeSrt, writeZip } from '@linguaport/sdk/interchange';
import type { FormatRegistry } from '@linguaport/sdk/shared';
import type { SessionView, UtteranceView } from '../shared/schemas.js';

/** A session's transcript as files: TXT and SRT written here, DOCX through the format registry's Word writer. */

export type Track = 'source' | 'target' | 'bilingual';

const lineOf = (u: UtteranceView, track: Track) => (track === 'source' ? u.text : track === 'target' ? u.translation || u.text : [u.text, u.translation].filter(Boolean).join('\n'));

export function sessionTxt(session: SessionView, utterances: UtteranceView[], track: Track): string {
  const head = [`# ${session.source} -> ${session.target}`, `# ${session.startedAt ?? ''} - ${session.endedAt ?? ''}`, ...(session.speakers.length ? [`# ${session.speakers.join(', ')}`] : []), ''];
  const body = utterances.map((u) => {
    const who = u.speaker ? ` ${u.speaker}:` : '';
    const lines = lineOf(u, track).split('\n');
    return [`[${subtitleTime(u.start).slice(0, 8)}]${who} ${lines[0]}`, ...lines.slice(1).map((l) => `    ${l}`)].join('\n');
  });
  return `${[...head, ...body].join('\n')}\n`;
}

export function sessionSrt(utterances: UtteranceView[], track: Track): string {
  return writeSrt(utterances.map((u) => ({ start: u.start, end: u.end, text: `${u.speaker ? `${u.speaker}: ` : ''}${lineOf(u, track)}` })));
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A plain WordprocessingML package, one paragraph per line (what the docx format then writes). */
function docxPackage(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`).join('');
  return writeZip([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>') },
    { name: '_rels/.rels', data: Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>') },
    { name: 'word/document.xml', data: Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}<w:sectPr/></w:body></w:document>`) },
  ]);
}

/**
 * DOCX: the transcript's paragraphs go into a Word package, the translation paragraphs as markers; the
 * registry's docx format reads it into units and writes it back with each marker's unit given its
 * translation (so the file is the Word writer's own, as documents are). Null when no docx format is on.
 */
export async function sessionDocx(formats: FormatRegistry, session: SessionView, utterances: UtteranceView[], track: Track): Promise<Uint8Array | null> {
  const docx = formats.byId('docx');
  if (!docx) return null;
  const paragraphs: string[] = [`${session.source} → ${session.target}   ${session.startedAt ?? ''} – ${session.endedAt ?? ''}`];
  // Translation paragraphs hold a marker (the unit's source) that the writer's units are matched by.
  const translations: string[] = [];
  for (const u of utterances) {
    paragraphs.push(`[${subtitleTime(u.start).slice(0, 8)}]${u.speaker ? ` ${u.speaker}` : ''}`);
    if (track !== 'target') paragraphs.push(u.text);
    if (track !== 'source') {
      paragraphs.push(`TRANSLATION-${translations.length}`);
      translations.push(u.translation || u.text);
    }
  }
  const parsed = await docx.parse(docxPackage(paragraphs), { fileName: 'transcript.docx' });
  const units = parsed.units.map((unit) => {
    const marker = /^TRANSLATION-(\d+)$/.exec(unit.source.trim());
    return { ...unit, target: marker ? escapeUnit(translations[Number(marker[1])] ?? '') : unit.source };
  });
  return docx.write(parsed, units, { targetLanguage: session.target, mode: 'translated' });
}

/** Unit text holds placeholders as `<n>`: a literal `<` in a translation must not read as one. */
const escapeUnit = (s: string) => s.replace(/<(\/?\d+\/?)>/g, '‹$1›');
