import type { ReactNode } from 'react';
import type { ZodType } from 'zod';

/**
 * Props of the shared UI kit. Kept free of runtime imports: the console SDK module is on the
 * host's login path, while the components themselves (and Blueprint under them) load on first use.
 */

export type SortOrder = 'asc' | 'desc';

export interface PageQuery {
  /** 1-based. */
  page: number;
  pageSize: number;
  sortBy?: string;
  sortOrder?: SortOrder;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
}

export interface PagedColumn<T> {
  key: string;
  title: ReactNode;
  /** Defaults to the row's value under `key`. */
  render?: (row: T, index: number) => ReactNode;
  /** The header toggles ascending, descending, none and the query carries `sortBy = key`. */
  sortable?: boolean;
  width?: number | string;
}

export interface PagedTableProps<T> {
  columns: PagedColumn<T>[];
  rowKey: (row: T) => string | number;
  /** Loads one page from the server; rejecting shows the load error in the table. */
  load: (query: PageQuery) => Promise<PageResult<T>>;
  /** Changing it goes back to page 1 and reloads (new search filters). */
  reloadKey?: unknown;
  /** Changing it reloads the current page (after an edit or a delete). */
  refreshKey?: unknown;
  defaultPageSize?: number;
  pageSizes?: number[];
  /** Adds a checkbox column; the callback gets the selected keys and rows of the current page. */
  selectable?: boolean;
  onSelectionChange?: (keys: Array<string | number>, rows: T[]) => void;
  emptyText?: ReactNode;
  /** Prefix of the per-row `data-testid` (`<prefix>-<rowKey>`); default `row`. */
  testId?: string;
}

/**
 * A virtualised grid for lists of any length: only the visible rows are in the page, and they load
 * page by page (`pageSize` rows a call, the kernel's `pageNum`/`pageSize`) as the window scrolls.
 */
export interface DataGridProps<T> {
  /** Widths are numbers of pixels here (default 180); the user can resize them. */
  columns: PagedColumn<T>[];
  rowKey: (row: T) => string | number;
  /** Loads one page; called for the pages the window scrolls to. A rejection shows the error with a retry. */
  load: (query: PageQuery) => Promise<PageResult<T>>;
  /** Changing it starts again from the top (new search filters). */
  reloadKey?: unknown;
  /** Changing it reads the rows again where the window is (after an edit or a delete). */
  refreshKey?: unknown;
  /** Rows a call (default 100; the kernel allows at most 200). */
  pageSize?: number;
  /** Loaded pages kept (default 20); the oldest go first, never the visible ones. */
  maxCachedPages?: number;
  /** Height of the grid in pixels (default 480); row height (default 28). */
  height?: number;
  rowHeight?: number;
  /** Clicks, shift/ctrl-clicks and the keyboard select rows; the callback gets the loaded ones among them. */
  onSelectionChange?: (keys: Array<string | number>, rows: T[]) => void;
  /** Enter or a double click on a row (open it for editing, say). */
  onRowActivate?: (row: T, index: number) => void;
  emptyText?: ReactNode;
  /** `data-testid` prefix: `<prefix>-table`, `<prefix>-total`, `<prefix>-empty`, `<prefix>-sort-<key>`; default `row`. */
  testId?: string;
}

export interface SearchField {
  name: string;
  label: ReactNode;
  type?: 'text' | 'select' | 'date' | 'datetime';
  options?: Array<{ value: string; label: string }>;
  placeholder?: string;
}

export interface SearchBarProps {
  fields: SearchField[];
  onSearch: (values: Record<string, string>) => void;
  /** Called after the fields are cleared; defaults to onSearch with empty values. */
  onReset?: () => void;
  initialValues?: Record<string, string>;
  /** Extra buttons on the same line (add, import, export). */
  actions?: ReactNode;
}

export type FormValues = Record<string, unknown>;

export interface FormField {
  name: string;
  label: ReactNode;
  type?: 'text' | 'password' | 'textarea' | 'number' | 'select' | 'multiselect' | 'date' | 'datetime' | 'checkbox' | 'custom';
  options?: Array<{ value: string | number; label: string }>;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  helperText?: ReactNode;
  /** For `custom`: renders the control. */
  render?: (value: unknown, setValue: (value: unknown) => void, values: FormValues) => ReactNode;
  /** A live check on blur (for example a unique-name call); resolves to an error text or null. */
  check?: (value: unknown, values: FormValues) => Promise<string | null>;
}

export interface FormDialogProps {
  isOpen: boolean;
  title: ReactNode;
  fields: FormField[];
  /** Validated before submit; issue messages are i18n keys (SDK validation keys or the plugin's own). */
  schema?: ZodType;
  initialValues?: FormValues;
  /** Rejecting with an API error keeps the dialog open and shows the server's message. */
  onSubmit: (values: FormValues) => Promise<void>;
  onClose: () => void;
  submitText?: ReactNode;
  /** Dialog width in px (default 600). Labels sit in one column left of the fields; below 480 px of form they stack above them. */
  width?: number;
}

export interface ConfirmDialogProps {
  isOpen: boolean;
  title: ReactNode;
  /** What will be removed or changed, in the user's words. */
  message: ReactNode;
  /** How many rows the action touches; stated in the dialog when given. */
  count?: number;
  /** Names of the rows (the first ten are listed). */
  items?: string[];
  confirmText?: ReactNode;
  intent?: 'danger' | 'warning' | 'primary';
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export interface UploadButtonProps {
  /** Accepted file name endings, lower case with the dot: ['.xls']. */
  accept: string[];
  maxSizeMb?: number;
  text?: ReactNode;
  disabled?: boolean;
  /** Upload the file; call `progress` with 0..1 (RequestOptions.onUploadProgress fits). */
  onUpload: (file: File, progress: (fraction: number) => void) => Promise<void>;
  /** A refused file (type or size): the text says why. */
  onReject?: (reason: string) => void;
}

export type StatusIntent = 'none' | 'primary' | 'success' | 'warning' | 'danger';

export interface StatusTagProps {
  value: string | number | boolean | null | undefined;
  /** Label and colour per value; unknown values show as they are. */
  states: Record<string, { label: ReactNode; intent?: StatusIntent }>;
}

/** The head of a screen: its name (the page's one heading), a line under it, and its actions on the right. */
export interface PageHeaderProps {
  /** The page's name, already in the console's language (the plugin's i18n). */
  title: ReactNode;
  /** A short line beside the name (a count, the record the page is about). */
  subtitle?: ReactNode;
  /** A sentence under the name saying what the page is for. */
  description?: ReactNode;
  /** Buttons on the right (add, import, ...). */
  actions?: ReactNode;
  /** Heading level: 2 (default, the host's shell has the site name) or 1. */
  level?: 1 | 2;
  /** `data-testid` of the header; the heading carries `<testId>-title`. Default `page-header`. */
  testId?: string;
}

export interface EmptyStateProps {
  title?: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
}

/** A user listed on a language-resource library with their rights. */
export interface LibraryUserRight {
  userId: number;
  username?: string;
  use: boolean;
  edit: boolean;
}

export interface LibraryUserRightsProps {
  value: LibraryUserRight[];
  onChange(value: LibraryUserRight[]): void;
  /** The area's user search (`/TM/users`, `/term/users`): `?q=` answers `{id, username}[]`. */
  usersUrl: string;
  testId?: string;
}

export interface ResourceImportReport {
  imported: number;
  rejected: number;
  rejections: { file: string; row: number; reason: string }[];
  /** Imported rows with something to say (a memory took another variant of the language asked). */
  notices?: { file: string; row: number; reason: string }[];
  /** How the rows landed when some were already in the library (same source and translation). */
  duplicates?: { mode: ResourceImportDuplicates; added: number; skipped: number; overwritten: number; keptBoth: number };
}

/** What an import does with an entry the library already holds: skip it (the default), overwrite it, or keep both. */
export type ResourceImportDuplicates = 'skip' | 'overwrite' | 'keepBoth';

/** The memories and term bases chosen for a piece of work (ids). */
export interface ChosenResources {
  memories: number[];
  termBases: number[];
}

export interface ResourcePickersProps {
  value: ChosenResources;
  onChange(value: ChosenResources): void;
  /**
   * Choose the user's default memories and term bases once the lists arrive, while nothing is chosen
   * (a new upload); off where a saved choice is shown.
   */
  preselectDefaults?: boolean;
  disabled?: boolean;
  /** Test ids of the two groups (default `memories` and `term-bases`). */
  testIds?: { memories: string; termBases: string };
}

export interface LanguageVariantPickerProps {
  /** A BCP 47 tag (`en-GB`, `zh-Hans-CN`). */
  value: string;
  /** Called with the tag case-normalised, or as typed when it is not a tag (the server then says why). */
  onChange(tag: string): void;
  /** The enabled languages (`useLanguageOptions`): the first part of the tag is chosen among them. */
  languages: { value: string; label: string }[];
  disabled?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
}

export interface ResourceImportCardProps {
  /** The area's import call (`/TM/import`): multipart `libraryId`, `sourceLang`, `targetLang`, `duplicates`, `files`. */
  url: string;
  libraryId: number;
  /** File name endings offered by the chooser: ['.tmx', '.txt']. */
  accept: string[];
  languages: { value: string; label: string }[];
  defaultLanguages: { sourceLang: string; targetLang: string };
  /** The languages are tags with their variant (memories: `en-GB`): a variant can be typed beside each language. */
  variants?: boolean;
  help?: ReactNode;
  /** The report's first line in the area's own words ("3 entries imported, 1 rejected"). */
  reportText(report: ResourceImportReport): ReactNode;
  /** Prefix of the card's test ids (`tm` gives `tm-import`, `tm-import-files`…). */
  testIdPrefix: string;
  onDone(): void;
}

/** Which entries an export holds: only the checked (reviewed and passed) ones, or all with their review state. */
export type ResourceExportScope = 'checked' | 'all';

export interface ResourceExportDialogProps {
  /** The area's export call (`/TM/export`): `GET url?libraryId&format&scope`; `GET url/count?libraryId` gives `{checked, all}`. */
  url: string;
  libraryId: number;
  /** The format asked for (`tmx`, `xlsx`…): sent as is, upper-cased in the title, and the file name's ending. */
  format: string;
  /** The format's name in the title and the file name's ending when they are not the format's id (`XLIFF 2.1`, `xliff2.xlf` for `xliff21`). */
  label?: string;
  extension?: string;
  /** The saved file's name without its ending (the library's name). */
  fileName: string;
  /** The choices and warnings in the area's own words ("Checked terms only (3 terms)"). */
  texts: {
    checked(count: number): string;
    all(count: number): string;
    /** No entry is checked but some exist. */
    noneChecked(all: number): string;
    /** The library holds nothing. */
    empty: string;
  };
  /** Prefix of the dialog's test ids (`tm` gives `tm-export-dialog`, `tm-export-checked`, `-all`, `-empty`, `-download`). */
  testIdPrefix: string;
  onClose(): void;
}

/**
 * A translation's editor with its inline tags (`<1>`…`</1>`, `<2/>`) as atomic chips: typing cannot
 * split one, Backspace and Delete take a chip whole, pasted text brings no tag of its own. Keys:
 * Ctrl+, inserts the source's next missing tag (wrapping the selection in a pair), Ctrl+Alt+digit
 * that tag; Enter a line break; the host's own keys (Ctrl+Enter to save…) reach `onKeyDown`.
 */
export interface TagEditorProps {
  /** The translation in the placeholder notation; `onChange` gives it back exactly so. */
  value: string;
  onChange: (value: string) => void;
  /** The source, whose tags may be inserted (and are listed under the editor, missing ones marked). */
  source?: string;
  onKeyDown?: (event: import('react').KeyboardEvent<HTMLDivElement>) => void;
  autoFocus?: boolean;
  ariaLabel?: string;
  testId?: string;
  disabled?: boolean;
  minHeight?: number;
}

/** A unit's text shown read-only with its tags as the editor's chips. */
export interface TaggedTextProps {
  text: string;
  style?: import('react').CSSProperties;
}

/**
 * A library of a resource area (a memory, a term base) as its `<base>/library/list` lists it. The
 * library screens below read their words from the area's own locale namespace, under the keys both
 * areas share (`name`, `ownership_*`, `kind_*`, `users`, `isDefault`, `makeDefault`, `historyTitle`,
 * `readOnlyShared`, `readOnlyRole`, `right_*`, `status_*`, `action_*`, `exportChecked`…).
 */
export interface ResourceLibrary {
  id: number;
  name: string;
  entries: number;
  isDefault: boolean;
  mayEdit: boolean;
  ownership?: 'all' | 'department' | 'custom';
  kind?: 'personal' | 'shared';
  users?: LibraryUserRight[];
}

/** An entry of a library (a memory's translation unit, a term) with its review state. */
export interface ResourceEntry {
  id: number;
  source: string;
  target: string;
  sourceLang: string;
  targetLang: string;
  status: 'unchecked' | 'checked' | 'failed';
  enabled: boolean;
  createdAt: string;
}

/** The area: its API base (`/TM`; history at `/TMHistory`) and its prefix of permissions and test ids (`tm`). */
export interface ResourceArea {
  base: string;
  area: string;
}

export interface ResourceLibraryScreenProps<L extends ResourceLibrary> extends ResourceArea {
  /** The word in the library test ids: `memory` gives `tm-memory-<id>` and `tm-add-memory`. */
  libraryTestWord: string;
  /** The library buttons' icon (a default library shows a star). */
  icon: 'database' | 'book';
  /** The area's words for its libraries. */
  texts: { add: string; edit: string; delete: string; deleteMessage(library: L): string; none: string; noneHelp: string; noneAsk: string };
  /** The chosen library's entries (a `ResourceEntries`): `onChanged` re-reads the counts, `outerRefresh` grows after an import. */
  entries(library: L, screen: { onChanged(): void; outerRefresh: number }): ReactNode;
  /** The import card's settings (shown to who may edit the library and import). */
  importCard: Omit<ResourceImportCardProps, 'url' | 'libraryId' | 'testIdPrefix' | 'onDone'>;
  /** More buttons at the end of the library bar (with their dialogs). */
  tools?: ReactNode;
  /** Below the import card (the area's own search of the library). */
  below?(library: L): ReactNode;
}

/** The columns every entry grid shows, for the area to place among its own. */
export interface ResourceEntryColumns<E> {
  direction: PagedColumn<E>;
  status: PagedColumn<E>;
  enabled: PagedColumn<E>;
  createdAt: PagedColumn<E>;
}

export interface ResourceEntriesProps<E extends ResourceEntry> extends ResourceArea {
  library: ResourceLibrary;
  onChanged(): void;
  outerRefresh: number;
  columns(standard: ResourceEntryColumns<E>): PagedColumn<E>[];
  /** The form's fields between source and target (textareas) and "both directions" (new entries only). */
  fields(isNew: boolean): FormField[];
  schema?: ZodType;
  /** A new entry's first values (its languages). */
  newEntry: Partial<E>;
  /** The area's own fields, sent on add and on update beside source and target. */
  entryBody?(values: Record<string, unknown>): Record<string, unknown>;
  /** Search fields after the text and the review state. */
  filters?: SearchField[];
  /** The export buttons: each opens the export dialog for its format. */
  exports: Array<{ format: string; text: string; testId?: string; title?: string; label?: string; extension?: string }>;
  /** Below the grid, for the selected entries (a memory unit's notes). */
  details?(selected: E[]): ReactNode;
}

export interface ResourceHistoryProps<E extends ResourceEntry> extends ResourceArea {
  /** The library select's label. */
  chooseLabel: string;
  /** Offer a filter by action (add, edit, delete, pass…). */
  actionFilter?: boolean;
  /** More of an entry's state in the before and after columns (`, forbidden`). */
  describeExtra?(entry: Partial<E>): string;
}

export interface ConfirmDeleteProps {
  isOpen: boolean;
  title: ReactNode;
  message: ReactNode;
  /** The names of the rows deleted (their number is stated). */
  items: string[];
  /** The area's delete call and its query (`{ids: '1,2'}`, `{id: 3}`). */
  url: string;
  params: Record<string, unknown>;
  onDeleted(): void;
  onClose(): void;
}
