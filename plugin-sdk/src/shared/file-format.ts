// The shape every file format follows (documents, memories, term bases, CAT files): read bytes into
// translatable units plus a skeleton, and write units back into bytes. One module per format,
// registered with the kernel's format registry; tested by the identity round trip (write what was read,
// with each unit's source as its translation, and get the same bytes back).

/**
 * A unit's text carries its inline formatting as numbered placeholders, so engines, memories and
 * translators see text and the writer puts the markup back: `<1>` … `</1>` around a span (bold, a
 * link), `<2/>` for a standalone mark (an image, a field, a line break). The markup each number
 * stands for is in `tags`; a translation may move placeholders but should keep each one.
 */
export interface InlineTag {
  /** What this placeholder stands for in the original file (opaque to everyone but the format). */
  original: string;
  /** `paired`: `<n>` … `</n>`; `standalone`: `<n/>`. */
  kind: 'paired' | 'standalone';
  /** For paired tags, the closing markup. */
  closing?: string;
}

export interface UnitContext {
  /** Where in the file: `word/document.xml`, `sheet:Prices`, `slide 3 notes`, `msgid` … */
  part?: string;
  /** A style, element or field name: `Heading1`, `title`, `alt`. */
  style?: string;
  /** Order of the unit in its part. */
  position?: number;
  /** A note from the file for the translator (PO comments, XLIFF notes, cell comments). */
  note?: string;
  /** A subtitle's timing or other data a translator should see but not change. */
  meta?: Record<string, string>;
}

/**
 * How far a target has come, in the same words for every bilingual format (PO, XLIFF 1.2 and 2.x, and
 * any later one), so a translation run can decide which existing targets to keep:
 * - `new`: no target, or one marked as not started (XLIFF 1.2 `new`/`needs-translation`);
 * - `draft`: a target that needs work or a look (PO `fuzzy`, XLIFF 1.2 `needs-*`, 2.x `initial` with a
 *   target, and our own unreviewed machine or fuzzy memory output);
 * - `translated`: a translator's target (PO translated, XLIFF 1.2 `translated` or no state, 2.x `translated`);
 * - `reviewed`: checked by a reviewer (XLIFF 1.2 `approved="yes"`, 2.x `reviewed`);
 * - `final`: signed off (XLIFF 1.2 `final`/`signed-off`, 2.x `final`).
 */
export type TargetStage = 'new' | 'draft' | 'translated' | 'reviewed' | 'final';

/** Stages whose target a translation run keeps by default: someone made them and nobody marked them as needing work. */
export const USABLE_STAGES: readonly TargetStage[] = ['translated', 'reviewed', 'final'];
/** Stages a reviewer has passed. */
export const APPROVED_STAGES: readonly TargetStage[] = ['reviewed', 'final'];

/**
 * A target's state: read from the file (bilingual formats set it on every unit, `new` when there is no
 * target) and, on a unit handed to `write`, the state of the target to write, which the format marks in
 * its own way (XLIFF 1.2 `state`/`state-qualifier`/`approved`, 2.x `state`/`subState`, PO `#, fuzzy`).
 * A unit written without a state, or with the one it was read with, is a translator's (`writtenState`).
 */
export interface TargetState {
  stage: TargetStage;
  /** Who or what made the target, when the file or the platform knows: a person, an MT engine, a memory match. */
  origin?: 'human' | 'mt' | 'tm';
  /** For `mt` the engine's name; for `tm` the match score (`100` is exact). */
  detail?: string;
  /** The file's own words for the state as read (`fuzzy`, `needs-review-translation`, `approved`, `initial`), for display. */
  native?: string;
}

/**
 * The state a writer marks a changed target with: the one the unit is handed with, unless that is the
 * very state it was read with (a unit spread from the parsed one with a new target) or absent; then
 * the target is a translator's.
 */
export function writtenState(given: TranslationUnit, read: TranslationUnit | undefined): TargetState {
  return given.state && !sameState(given.state, read?.state) ? given.state : { stage: 'translated', origin: 'human' };
}

/** The same state by value: units come back from storage or another process as copies, never the objects read. */
function sameState(a: TargetState, b: TargetState | undefined): boolean {
  return !!b && a.stage === b.stage && a.origin === b.origin && a.detail === b.detail && a.native === b.native;
}

export interface TranslationUnit {
  /** Stable within the file: the writer finds the unit's place by it. */
  id: string;
  /** The text to translate, with inline placeholders. */
  source: string;
  /**
   * A translation already in the file (bilingual formats), or the one to write. A bilingual format
   * writes a unit whose target is absent or equal to the one read exactly as it was.
   */
  target?: string;
  /** The state of `target` (see TargetState); set on every unit by formats that hold targets. */
  state?: TargetState;
  tags: Record<string, InlineTag>;
  context: UnitContext;
}

export interface ParsedFile {
  format: string;
  units: TranslationUnit[];
  /** What the writer needs besides the units to rebuild the file (the original bytes, a template…). */
  skeleton: unknown;
  /** Languages the file declares itself (XLIFF, TMX, PO headers), when it does. */
  sourceLanguage?: string;
  targetLanguage?: string;
}

export interface WriteOptions {
  /** The target language code, for formats that record it (`lang` attributes, headers). */
  targetLanguage?: string;
  /** `translated` (default): targets replace sources; `bilingual`: both, where the format can hold both. */
  mode?: 'translated' | 'bilingual';
}

export interface FileFormat {
  /** Short and unique: `txt`, `docx`, `tmx`. */
  id: string;
  /** Shown to users: `Plain text`. */
  name: string;
  /** Lower-case, without the dot. */
  extensions: string[];
  mimeTypes: string[];
  /**
   * The extension (without the dot) of what `write` gives, when it is not the original's: a PDF is
   * written as an editable docx, a legacy file may come back in its modern form.
   */
  outputExtension?: string;
  /**
   * Checks that the bytes are well-formed for this format before the platform accepts the file: throws
   * an Error whose message says what is wrong and where (`xliff: not well-formed XML: … (line 3)`).
   * Cheap formats may simply parse; absent when a format has nothing to check beyond `sniff`.
   */
  validate?(bytes: Uint8Array): Promise<void>;
  /** Whether these bytes are this format (magic numbers, a root element); by extension alone when absent. */
  sniff?(bytes: Uint8Array): boolean;
  /**
   * `sourceLanguage` (a platform code such as `en`, `zh-CN`), when known, lets a format that reads
   * pictures choose its OCR languages.
   */
  parse(bytes: Uint8Array, options?: { fileName?: string; sourceLanguage?: string }): Promise<ParsedFile>;
  /** Units missing a target are written with their source. */
  write(file: ParsedFile, units: TranslationUnit[], options?: WriteOptions): Promise<Uint8Array>;
}

/** The registry as a plugin sees it (`ctx.formats`). */
export interface FormatRegistry {
  register(format: FileFormat): void;
  byId(id: string): FileFormat | null;
  /** The format for a file: by extension, confirmed by `sniff` where the format has one. */
  forFile(fileName: string, bytes?: Uint8Array): FileFormat | null;
  list(): FileFormat[];
}

const PLACEHOLDER = /<(\/?)(\d+)(\/?)>/g;

/** The placeholders in a unit's text, in order (`<1>`, `</1>`, `<2/>`). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[0]);
}

/**
 * Rebuilds the original markup of a unit's text: each placeholder becomes the markup its tag stands
 * for; text between them is escaped by `escape` (the format's own rule, e.g. XML entities).
 * A placeholder the translation dropped is lost; one it invented (not in `tags`) is kept as text.
 */
export function restoreTags(text: string, tags: Record<string, InlineTag>, escape: (plain: string) => string = (s) => s): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const tag = tags[m[2]!];
    if (!tag) continue;
    out += escape(text.slice(last, m.index));
    out += m[1] ? (tag.closing ?? '') : tag.original;
    last = m.index! + m[0].length;
  }
  return out + escape(text.slice(last));
}

/**
 * Numbers for a unit's placeholders that cannot be mistaken for text: a file may itself contain
 * `<1>` or `<2/>` as characters, and those numbers are skipped, so `restoreTags` (which only replaces
 * numbers in `tags`) leaves such text alone.
 */
export function placeholderNumbers(text: string): () => number {
  const taken = new Set([...text.matchAll(PLACEHOLDER)].map((m) => Number(m[2])));
  let n = 0;
  return () => {
    do n++;
    while (taken.has(n));
    return n;
  };
}

/** Whether a translation keeps every placeholder of its source (QA and the round-trip harness use it). */
export function sameTags(source: string, target: string): boolean {
  const a = placeholdersOf(source).sort();
  const b = placeholdersOf(target).sort();
  return a.length === b.length && a.every((p, i) => p === b[i]);
}
