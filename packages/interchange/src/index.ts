/**
 * Interchange formats of language resources, read streaming and written streaming: TMX 1.4b (memories,
 * corpora), TBX-Basic v2/v3 (term bases) and term CSV. Built on the SDK's XML reader
 * (`@linguaport/sdk/interchange`) and language tags (`@linguaport/sdk/shared`).
 */
export { readTmx, writeTmx, unitXml, segmentXml, nativeCode, variantIn, variantsFor, sourceVariant, tmxDate, tmxProblemReason, codeDatatype, TmxDatatype, type TmxUnit, type TmxVariant, type TmxHeader, type TmxProp, type TmxSegmentProblem, type TmxWriteOptions, type ReadTmxOptions } from './tmx.js';
export { readTbx, writeTbx, conceptXml, administrativeStatus, isForbiddenStatus, TbxError, type TbxConcept, type TbxLanguage, type TbxTerm, type TbxHeader, type ReadTbxOptions, type TbxWriteOptions } from './tbx.js';
export { readTermCsv, writeTermCsv, termColumnRole, termHeaderColumns, forbiddenValue, TERM_POSITIONAL_COLUMNS, FORBIDDEN_YES, TermCsvError, type TermColumns, type TermColumnRole, type TermCsvRow, type TermCsvReading, type TermCsvRejection, type TermCsvOptions, type TermCsvWriteOptions } from './csv-terms.js';
