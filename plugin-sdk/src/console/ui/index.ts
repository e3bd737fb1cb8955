import { createElement, useEffect, useState, type ReactElement } from 'react';
import type {
  ConfirmDialogProps,
  ConfirmDeleteProps,
  EmptyStateProps,
  PageHeaderProps,
  FormDialogProps,
  PagedTableProps,
  DataGridProps,
  SearchBarProps,
  StatusTagProps,
  UploadButtonProps,
  LibraryUserRightsProps,
  ResourceImportCardProps,
  ResourceExportDialogProps,
  LanguageVariantPickerProps,
  ResourcePickersProps,
  ResourceEntriesProps,
  ResourceEntry,
  ResourceHistoryProps,
  ResourceLibrary,
  ResourceLibraryScreenProps,
  TagEditorProps,
  TaggedTextProps,
} from './types.js';
import type { MediaDropZoneProps, MediaJobListRow, MediaJobScreenProps } from './MediaJobs.js';

export type * from './types.js';
export type { MediaJobScreenProps, MediaJobListRow, MediaJobStatus, MediaDropZoneProps } from './MediaJobs.js';

// State, not components: loaded with the SDK module rather than with the kit's chunk.
export { useCrudScreen, recordsLoader, rowCalls, type CrudScreen, type CrudScreenOptions } from './useCrudScreen.js';

/**
 * The shared UI kit as seen by plugins. `@linguaport/sdk/console` is registered eagerly by the host
 * (it is on the login path), so these are thin wrappers that import the Blueprint-based
 * implementations on first render; the host builds them as one split chunk shared by every plugin.
 * Until the chunk arrives (once per page load) a wrapper renders nothing.
 */
type Kit = typeof import('./kit.js');
let kit: Kit | undefined;
let pending: Promise<Kit> | undefined;

/** Load the kit now (tests, or a view that wants it before its first render). */
export function preloadUiKit(): Promise<Kit> {
  pending ??= import('./kit.js').then((k) => (kit = k));
  return pending;
}

function useKit(): Kit | undefined {
  const [loaded, setLoaded] = useState(kit);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void preloadUiKit().then((k) => { if (live) setLoaded(k); });
    return () => { live = false; };
  }, [loaded]);
  return loaded;
}

function wrap<P extends object>(pick: (k: Kit) => (props: P) => unknown) {
  return function KitComponent(props: P): ReactElement | null {
    const k = useKit();
    return k ? createElement(pick(k) as (p: P) => ReactElement, props) : null;
  };
}

export const PagedTable = wrap((k) => k.PagedTable) as <T>(props: PagedTableProps<T>) => ReactElement | null;
export const DataGrid = wrap((k) => k.DataGrid) as <T>(props: DataGridProps<T>) => ReactElement | null;
export const SearchBar = wrap<SearchBarProps>((k) => k.SearchBar);
export const FormDialog = wrap<FormDialogProps>((k) => k.FormDialog);
export const ConfirmDialog = wrap<ConfirmDialogProps>((k) => k.ConfirmDialog);
export const UploadButton = wrap<UploadButtonProps>((k) => k.UploadButton);
export const StatusTag = wrap<StatusTagProps>((k) => k.StatusTag);
export const EmptyState = wrap<EmptyStateProps>((k) => k.EmptyState);
export const PageHeader = wrap<PageHeaderProps>((k) => k.PageHeader);
export const LibraryUserRights = wrap<LibraryUserRightsProps>((k) => k.LibraryUserRights);
export const ResourceImportCard = wrap<ResourceImportCardProps>((k) => k.ResourceImportCard);
export const LanguageVariantPicker = wrap<LanguageVariantPickerProps>((k) => k.LanguageVariantPicker);
export const ResourcePickers = wrap<ResourcePickersProps>((k) => k.ResourcePickers);
export const ResourceExportDialog = wrap<ResourceExportDialogProps>((k) => k.ResourceExportDialog);
export const TagEditor = wrap<TagEditorProps>((k) => k.TagEditor);
export const TaggedText = wrap<TaggedTextProps>((k) => k.TaggedText);
// The library screens of the resource areas (memories, term bases): see ./library.tsx.
export const ResourceLibraryScreen = wrap((k) => k.ResourceLibraryScreen) as <L extends ResourceLibrary>(props: ResourceLibraryScreenProps<L>) => ReactElement | null;
export const ResourceEntries = wrap((k) => k.ResourceEntries) as <E extends ResourceEntry>(props: ResourceEntriesProps<E>) => ReactElement | null;
export const ResourceHistory = wrap((k) => k.ResourceHistory) as <E extends ResourceEntry>(props: ResourceHistoryProps<E>) => ReactElement | null;
export const ConfirmDelete = wrap<ConfirmDeleteProps>((k) => k.ConfirmDelete);
// A media-job area's page (video, trans-video): see ./MediaJobs.tsx.
export const MediaJobScreen = wrap((k) => k.MediaJobScreen) as <Row extends MediaJobListRow, Setup extends { limits: object }>(props: MediaJobScreenProps<Row, Setup>) => ReactElement | null;
export const MediaDropZone = wrap<MediaDropZoneProps>((k) => k.MediaDropZone);
