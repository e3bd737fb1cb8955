/**
 * Language resources shared by the term-base and memory areas (and the CAT and corpus areas that use
 * them): libraries with ownership and per-user use and edit rights, entries with review, history and
 * imports. Server side; the console side is under `@linguaport/sdk/console`.
 */
export { OWNERSHIPS, LibraryAccess, libraryRoutes, libraryBody, librarySchema, userNameSchema, libraryTables, rightsOf, createLibraryTables, type Ownership, type LibraryRow, type LibraryRights, type LibraryNoun, type LibraryTableNames, type LibraryUsageCheck, type LibraryRouteOptions } from './libraries.js';
export { entryRoutes, entryTexts, entryLanguage, baseEntryView, baseEntrySchema, historyWriter, type EntryRow, type EntryKind, type EntryRouteOptions, type HistoryRecord } from './entries.js';
export { createLibraryKit, type LibraryKit, type LibraryKitOptions } from './kit.js';

export { defineResourceImport, IMPORT_TEXT_MAX_BYTES, IMPORT_STREAMED_MAX_BYTES, IMPORT_MAX_FILES, IMPORT_BATCH, IMPORT_MAX_REJECTIONS, IMPORT_DUPLICATE_MODES, type ImportDuplicates, type ImportDuplicateCounts, type ImportDuplicateRules, type ResourceImportOptions, type ImportRow, type ImportRejection, type ImportResult, type ImportSource, type ImportTarget, type ImportFormat, type ImportTaskView } from './imports.js';
export { commitInBatches, removeInBatches, yieldToEventLoop, IMPORT_WRITE_BATCH } from './import-writer.js';
export { spreadsheetPairs, readSpreadsheet, spreadsheetLimits, SPREADSHEET_DEFAULT_LIMITS, type SpreadsheetLimits } from './spreadsheet.js';
export { bilingualRows, BILINGUAL_FORMATS, type BilingualRow } from './bilingual.js';
