/**
 * Language resources shared by the term-base and memory areas (and the CAT and corpus areas that use
 * them): libraries with ownership and per-user use and edit rights, entries with review, history and
 * imports. Server side; the console side is under `@linguaport/sdk/console`.
 */
export { OWNERSHIPS, LibraryAccess, libraryRoutes, libraryBody, libraryTables, rightsOf, createLibraryTables, type Ownership, type LibraryRow, type LibraryRights, type LibraryNoun, type LibraryTableNames, type LibraryUsageCheck, type LibraryRouteOptions } from './libraries.js';
export { entryRoutes, entryTexts, entryLanguage, baseEntryView, historyWriter, type EntryRow, type EntryKind, type EntryRouteOptions, type HistoryRecord } from './entries.js';
export { createLibraryKit, type LibraryKit, type LibraryKitOptions } from './kit.js';

