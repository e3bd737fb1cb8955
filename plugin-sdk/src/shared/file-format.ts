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

export interface TranslationUnit {
  /** Stable within the file: the writer finds the unit's place by it. */
  id: string;
  /** The text to translate, with inline placeholders. */
  source: string;
  /** A translation already in the file (bilingual formats), or the one to write. */
  target?: string;
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
