/**
 * Standard interchange formats of language resources, read streaming and written streaming:
 * TMX 1.4b (memories, corpora), TBX-Basic (term bases) and XLIFF 1.2/2.1 written (documents, memories).
 */
export { readTmx, writeTmx, unitXml, segmentXml, nativeCode, platformLanguage, variantIn, variantsFor, sourceVariant, tmxDate, tmxProblemReason, codeDatatype, TmxDatatype, type TmxUnit, type TmxVariant, type TmxHeader, type TmxProp, type TmxSegmentProblem, type TmxWriteOptions, type ReadTmxOptions } from './tmx.js';
export { xmlTokens, xmlText, XmlTokenizer, XmlDecoder, escapeXml, decodeEntities, XmlError, type XmlToken } from './xml-stream.js';
export { readZip, listZip, inflateEntry, writeZip, isZip, safeEntryName, ZipError, type ZipEntry, type ZipBudget, type ZipListing, type BudgetText } from './zip.js';
export { parseXml, XmlBudgetError, serializeXml, textOf, innerText, attrsOf, attrOf, withAttr, elementsOf, findElements, localName, type XElement, type XText, type XOther, type XNode, type XDocument } from './xml-tree.js';
export { readTbx, writeTbx, conceptXml, administrativeStatus, isForbiddenStatus, TbxError, type TbxConcept, type TbxLanguage, type TbxTerm, type TbxHeader, type ReadTbxOptions, type TbxWriteOptions } from './tbx.js';
export { readTermCsv, writeTermCsv, termColumnRole, termHeaderColumns, forbiddenValue, TERM_POSITIONAL_COLUMNS, FORBIDDEN_YES, TermCsvError, type TermColumns, type TermColumnRole, type TermCsvRow, type TermCsvReading, type TermCsvRejection, type TermCsvOptions, type TermCsvWriteOptions } from './csv-terms.js';
export { decodeTextBytes, encodeTextBytes, linesOf, TextEncodingError, type TextEncoding, type TextLine } from './text-bytes.js';
export { writeSrt, writeVtt, readSubtitles, subtitleTime, subtitleTiming, subtitleSeconds, subtitleBlocks, isCueNumber, decodeVttText, escapeVttText, type SubtitleCue, type SubtitleKind, type SubtitleBlock } from './subtitles.js';
export { writeXliff, xliffInline, xliff12Marks, xliff2Marks, type XliffUnit, type XliffWriteOptions } from './xliff.js';
