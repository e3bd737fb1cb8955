/**
 * Standard interchange formats of language resources, read streaming and written streaming:
 * TMX 1.4b (memories, corpora) and TBX-Basic (term bases).
 */
export { readTmx, writeTmx, segmentXml, platformLanguage, variantIn, type TmxUnit, type TmxVariant, type TmxHeader, type TmxWriteOptions } from './tmx.js';
export { xmlTokens, escapeXml, decodeEntities, XmlError, type XmlToken } from './xml-stream.js';
