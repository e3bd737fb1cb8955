/**
 * What files of several formats share: XML read streaming and as a tree, zip archives within budgets,
 * text files' bytes, SRT/WebVTT, XLIFF 1.2/2.1 written (documents, memories). The memory and term-base
 * formats (TMX, TBX-Basic, term CSV) are the workspace package @linguaport/interchange.
 */
export { xmlTokens, xmlText, XmlTokenizer, XmlDecoder, escapeXml, decodeEntities, XmlError, type XmlToken } from './xml-stream.js';
export { readZip, listZip, inflateEntry, writeZip, isZip, safeEntryName, ZipError, type ZipEntry, type ZipBudget, type ZipListing, type BudgetText } from './zip.js';
export { parseXml, XmlBudgetError, serializeXml, textOf, innerText, attrsOf, attrOf, withAttr, elementsOf, findElements, localName, type XElement, type XText, type XOther, type XNode, type XDocument } from './xml-tree.js';
export { decodeTextBytes, encodeTextBytes, linesOf, TextEncodingError, type TextEncoding, type TextLine } from './text-bytes.js';
export { writeSrt, writeVtt, readSubtitles, subtitleTime, subtitleTiming, subtitleSeconds, subtitleBlocks, isCueNumber, decodeVttText, escapeVttText, type SubtitleCue, type SubtitleKind, type SubtitleBlock } from './subtitles.js';
export { writeXliff, xliffInline, xliff12Marks, xliff2Marks, type XliffUnit, type XliffWriteOptions } from './xliff.js';
