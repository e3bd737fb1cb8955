// The kit's implementations, loaded on first use by ./index.ts (keeps Blueprint off the login path).
export { PagedTable } from './PagedTable.js';
export { DataGrid } from './DataGrid.js';
export { SearchBar } from './SearchBar.js';
export { FormDialog } from './FormDialog.js';
export { ConfirmDialog } from './ConfirmDialog.js';
export { UploadButton } from './UploadButton.js';
export { StatusTag } from './StatusTag.js';
export { EmptyState } from './EmptyState.js';
export { PageHeader } from './PageHeader.js';
export { LanguageVariantPicker, LibraryUserRights, ResourceExportDialog, ResourceImportCard, ResourcePickers } from './resources.js';
export { TagEditor, TaggedText } from './TagEditor.js';
export { ConfirmDelete, ResourceEntries, ResourceHistory, ResourceLibraryScreen } from './library.js';
export { MediaDropZone, MediaJobScreen } from './MediaJobs.js';
