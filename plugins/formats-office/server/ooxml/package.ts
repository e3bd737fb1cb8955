import type { FileFormat, ParsedFile, TranslationUnit, UnitContext, WriteOptions } from '@linguaport/sdk/shared';
import { escapeXml, innerText, isZip, parseXml, readZip, serializeXml, writeZip, XmlBudgetError, XmlError, type BudgetText, type XDocument, type XElement, type XNode, type ZipEntry } from '@linguaport/sdk/interchange';
import { defineWorkerTask, DOCUMENT_BUDGETS, officeLanguage, WorkerTaskError, zipBudget, type DocumentBudgets, type OfficeLanguage } from '@linguaport/sdk/server';
import { readRunParagraph, type RunDialect } from './runs.js';

/**
 * Office documents as zip packages of XML parts (OOXML's docx, xlsx, pptx; ODF's odt, ods, odp): the
 * shared reading and writing. A format names the parts it reads and, for each, walks the part's tree
 * and hands its translatable pieces to a sink: run paragraphs (see runs.ts), elements that hold plain
 * text, or anything with a writer of its own. Writing replaces only what was translated: a part with
 * no changed unit is copied as it was (its compressed bytes too), a changed part is the original text
 * with the changed paragraphs replaced, so everything else in it stays byte for byte. Given a target
 * language, a translated package says it: the runs written carry it, and the format's `language` pass
 * sets it in the parts that state a document's language (styles, properties).
 */

export interface UnitWriter {
  node: XNode;
  write(target: string, render: (nodes: XNode[]) => string, language?: OfficeLanguage): string;
}

export interface Sink {
  /** A run paragraph (or rich string), with the paragraphs nested in it read after it by `nestedReader`. */
  runs(el: XElement, dialect: RunDialect, context: UnitContext, isParagraph: (el: XElement) => boolean, nestedReader?: (el: XElement) => void): void;
  /** An element holding plain text (a title, a chart label): its whole content is the unit. */
  plain(el: XElement, context: UnitContext): void;
  /** Any other piece with its own writer; answers the unit's id (null when there is no text). */
  custom(source: string, context: UnitContext, writer: UnitWriter, tags?: TranslationUnit['tags']): string | null;
}

export interface PartReader {
  (doc: XDocument, sink: Sink, part: string, extra: Record<string, unknown>): void;
}

export interface PackageOptions {
  id: string;
  name: string;
  extensions: string[];
  mimeTypes: string[];
  /** Whether the package's parts make it this format (its main part is there). */
  isPackage(names: Set<string>): boolean;
  /** A quicker check of the bytes alone, where the format has one (ODF's leading mimetype entry). */
  sniffBytes?(bytes: Uint8Array): boolean;
  /** Where a part's units come in reading order (lower first; parts of one rank by their number). */
  rank?(part: string): number;
  /** The reader of a part, or null for parts that hold nothing to translate. */
  readerFor(part: string, names: Set<string>): PartReader | null;
  /** A last pass over a written part (references to renamed sheets). */
  transform?(part: string, xml: string, targets: Map<string, string>, skeleton: PackageSkeleton): string;
  /** A part with the target language set where the document states its language (styles, core properties). */
  language?(part: string, xml: string, language: OfficeLanguage): string;
}

interface PartState {
  doc: XDocument;
  writers: Array<{ id: string; writer: UnitWriter }>;
}

export interface PackageSkeleton {
  entries: ZipEntry[];
  parts: Map<string, PartState>;
  /** Anything a format keeps for its `transform` (sheet names by unit id). */
  extra: Record<string, unknown>;
}

export class PackageError extends Error {
  constructor(
    message: string,
    /** Set when a budget refused the file: the reason to show the user. */
    readonly localized?: BudgetText,
  ) {
    super(message);
    this.name = 'PackageError';
  }
}

const decoder = new TextDecoder('utf-8');

function xmlOf(data: Buffer, part: string, maxNodes: number): XDocument {
  let text = decoder.decode(data);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return parseXml(text, { maxNodes, part });
  } catch (err) {
    if (err instanceof XmlBudgetError) throw new PackageError(err.message, err.localized);
    if (err instanceof XmlError) throw new PackageError(`${part} is not well-formed XML: ${err.message}`);
    throw err;
  }
}

/** The names in a zip's central directory without unpacking anything (for `sniff`). */
export function entryNames(bytes: Uint8Array): Set<string> | null {
  if (!isZip(bytes)) return null;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) return null;
    const length = buf.readUInt16LE(at + 28);
    names.add(buf.subarray(at + 46, at + 46 + length).toString('utf8'));
    at += 46 + length + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return names;
}

/**
 * Reads a package within its budgets: unpacked bytes (zip reader) and XML nodes (parser), for the
 * document and for each part. Runs in a parsing worker (see `officePackage`).
 */
function readPackage(options: PackageOptions, bytes: Uint8Array, budgets: DocumentBudgets): { units: TranslationUnit[]; skeleton: PackageSkeleton } {
  let entries: ZipEntry[];
  try {
    entries = readZip(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), zipBudget(budgets));
  } catch (err) {
    const localized = (err as { localized?: BudgetText }).localized;
    if (localized) throw new PackageError(`the ${options.name} is too large to read: ${(err as Error).message}`, localized);
    throw new PackageError(`the file is not a readable ${options.name} package: ${(err as Error).message}`);
  }
  const names = new Set(entries.map((e) => e.name));
  if (!options.isPackage(names)) throw new PackageError(`the package holds no ${options.name} document`);
  const units: TranslationUnit[] = [];
  const parts = new Map<string, PartState>();
  const extra: Record<string, unknown> = {};
  let nodesLeft = budgets.maxDocumentNodes;
  // Units in reading order (the body before its headers, slide 2 before slide 10), whatever the zip's order.
  const numberIn = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  const ordered = [...entries].sort((a, b) => (options.rank?.(a.name) ?? 0) - (options.rank?.(b.name) ?? 0) || numberIn(a.name) - numberIn(b.name));
  for (const entry of ordered) {
    const reader = options.readerFor(entry.name, names);
    if (!reader) continue;
    const byPart = nodesLeft >= budgets.maxPartNodes;
    let doc: XDocument;
    try {
      doc = xmlOf(entry.data, entry.name, Math.min(budgets.maxPartNodes, nodesLeft));
    } catch (err) {
      if (err instanceof PackageError && err.localized && !byPart) {
        const n = budgets.maxDocumentNodes;
        throw new PackageError(`the ${options.name} holds more than ${n} XML nodes`, { 'zh-CN': `文档的 XML 节点超过 ${n} 个，超出处理上限`, 'en-US': `the document holds more than ${n} XML nodes, over the processing limit` });
      }
      throw err;
    }
    nodesLeft -= countNodes(doc.children);
    const state: PartState = { doc, writers: [] };
    const add = (source: string, tags: TranslationUnit['tags'], context: UnitContext, writer: UnitWriter) => {
      const id = String(units.length + 1);
      units.push({ id, source, tags, context: { position: units.length + 1, ...context } });
      state.writers.push({ id, writer });
      return id;
    };
    const sink: Sink = {
      runs(el, dialect, context, isParagraph, nestedReader) {
        const read = readRunParagraph(el, dialect, isParagraph);
        if (read.source !== null) add(read.source, read.tags, context, { node: el, write: read.write });
        // Paragraphs inside this one (a text box in a drawing) are units after it.
        for (const inner of read.nested) (nestedReader ?? ((p) => sink.runs(p, dialect, context, isParagraph)))(inner);
      },
      plain(el, context) {
        const text = innerText(el);
        if (!text.trim() || el.children.some((c) => c.type === 'element')) return;
        add(text, {}, context, { node: el, write: (target) => `${el.open}${escapeXml(target)}${el.close}` });
      },
      custom(source, context, writer, tags) {
        return source.trim() ? add(source, tags ?? {}, context, writer) : null;
      },
    };
    reader(doc, sink, entry.name, extra);
    if (state.writers.length) parts.set(entry.name, state);
  }
  return { units, skeleton: { entries, parts, extra } };
}

function countNodes(nodes: XNode[]): number {
  let n = 0;
  const stack = [nodes];
  while (stack.length) {
    for (const node of stack.pop()!) {
      n++;
      if (node.type === 'element' && node.children.length) stack.push(node.children);
    }
  }
  return n;
}

/** The package with `targets` (unit id -> translation) in place of their sources. */
function writePackage(options: PackageOptions, skeleton: PackageSkeleton, targets: Map<string, string>, language?: OfficeLanguage): Buffer {
  const out: ZipEntry[] = [];
  for (const entry of skeleton.entries) {
    const state = skeleton.parts.get(entry.name);
    const changed = state?.writers.some((w) => targets.has(w.id));
    let xml: string | null = null;
    if (state && changed) {
      const replacements = new Map<XNode, string>();
      const render = (nodes: XNode[]) => serializeXml(nodes, (n) => replacements.get(n));
      // Nested paragraphs come after their container: write from the last, so a container is
      // written with its text boxes already translated.
      for (let i = state.writers.length - 1; i >= 0; i--) {
        const { id, writer } = state.writers[i]!;
        const target = targets.get(id);
        if (target !== undefined) replacements.set(writer.node, writer.write(target, render, language));
      }
      xml = render(state.doc.children);
    }
    if (options.transform && /\.xml$/.test(entry.name)) {
      const text = xml ?? decoder.decode(entry.data);
      const after = options.transform(entry.name, text, targets, skeleton);
      if (after !== text) xml = after;
    }
    // A package with nothing translated stays the original, language and all.
    if (language && targets.size && options.language && /\.xml$/.test(entry.name)) {
      const text = xml ?? decoder.decode(entry.data);
      const after = options.language(entry.name, text, language);
      if (after !== text) xml = after;
    }
    if (xml === null) out.push(entry);
    else out.push({ name: entry.name, data: Buffer.from(xml, 'utf8'), store: entry.raw?.method === 0 });
  }
  return writeZip(out);
}

// The formats' definitions by id, for the parsing worker: it loads the module that defined a format
// (`module` below), which puts the format's options here, and reads or writes with them.
const DEFINED = new Map<string, PackageOptions>();

interface PackageJob {
  id: string;
  bytes: Uint8Array;
  budgets: DocumentBudgets;
}

const definedAs = (id: string) => {
  const options = DEFINED.get(id);
  if (!options) throw new Error(`no office package format ${id} in this worker`);
  return options;
};

const parseTask = defineWorkerTask('formats-office.parse', (job: PackageJob) => ({ units: readPackage(definedAs(job.id), job.bytes, job.budgets).units }));
const writeTask = defineWorkerTask('formats-office.write', (job: PackageJob & { targets: Array<[string, string]>; targetLanguage?: string }) => {
  const options = definedAs(job.id);
  const language = job.targetLanguage ? (officeLanguage(job.targetLanguage) ?? undefined) : undefined;
  const written = writePackage(options, readPackage(options, job.bytes, job.budgets).skeleton, new Map(job.targets), language);
  return new Uint8Array(written.buffer, written.byteOffset, written.byteLength);
});

/** The worker's failure as the format's own: a budget or heap refusal names its reason in both languages. */
function asPackageError(err: unknown, name: string, budgets: DocumentBudgets): unknown {
  if (err instanceof WorkerTaskError) return new PackageError(err.message, err.localized);
  const reason = (err as { reason?: string }).reason;
  if (reason === 'heap') {
    return new PackageError(`the ${name} needs more than ${budgets.maxHeapMb} MB of memory to read`, { 'zh-CN': `读取该文档需要超过 ${budgets.maxHeapMb} MB 内存，超出处理上限`, 'en-US': `reading the document needs more than ${budgets.maxHeapMb} MB of memory, over the processing limit` });
  }
  if (reason === 'timeout') {
    const s = Math.round(budgets.timeoutMs / 1000);
    return new PackageError(`the ${name} could not be read within ${s} s`, { 'zh-CN': `读取该文档超过 ${s} 秒，超出处理上限`, 'en-US': `reading the document took more than ${s} s, over the processing limit` });
  }
  return err;
}

/** The skeleton the server keeps: the file itself (the worker reads it again to write). */
interface WorkerSkeleton {
  bytes: Uint8Array;
}

export interface OfficeFormat extends FileFormat {
  /** The same format reading within other budgets (a plugin's configuration). */
  withBudgets(budgets: DocumentBudgets): OfficeFormat;
}

/**
 * A format of zip packages. Reading and writing run in a parsing worker with a heap limit, within the
 * document budgets: a file made to exhaust memory fails its own job and the server keeps going.
 * `module` is the URL of the module that calls this (its `import.meta.url`), which the worker loads.
 */
export function officePackage(options: PackageOptions & { module: string }, budgets: DocumentBudgets = DOCUMENT_BUDGETS): OfficeFormat {
  DEFINED.set(options.id, options);
  const run = { module: options.module, maxHeapMb: budgets.maxHeapMb, timeoutMs: budgets.timeoutMs };
  return {
    id: options.id,
    name: options.name,
    extensions: options.extensions,
    mimeTypes: options.mimeTypes,
    sniff(bytes) {
      if (options.sniffBytes) return isZip(bytes) && options.sniffBytes(bytes);
      const names = entryNames(bytes);
      return !!names && options.isPackage(names);
    },
    async parse(bytes): Promise<ParsedFile> {
      const { units } = await parseTask.run({ id: options.id, bytes, budgets }, run).catch((err: unknown) => {
        throw asPackageError(err, options.name, budgets);
      });
      return { format: options.id, units, skeleton: { bytes } satisfies WorkerSkeleton };
    },
    async write(file, units, writeOptions?: WriteOptions) {
      const { bytes } = file.skeleton as WorkerSkeleton;
      const targets: Array<[string, string]> = [];
      const sources = new Map(file.units.map((u) => [u.id, u.source]));
      for (const u of units) if (u.target !== undefined && u.target !== sources.get(u.id)) targets.push([u.id, u.target]);
      return writeTask.run({ id: options.id, bytes, budgets, targets, ...(writeOptions?.targetLanguage ? { targetLanguage: writeOptions.targetLanguage } : {}) }, run).catch((err: unknown) => {
        throw asPackageError(err, options.name, budgets);
      });
    },
    withBudgets: (next) => officePackage(options, next),
  };
}

/** Elements by local name under `root` (any prefix), in document order, not descending into matches. */
export function elementsNamed(root: XDocument | XElement, names: Set<string>): XElement[] {
  const out: XElement[] = [];
  const walk = (list: XNode[]) => {
    for (const c of list) {
      if (c.type !== 'element') continue;
      if (names.has(c.name)) out.push(c);
      else walk(c.children);
    }
  };
  walk(root.children);
  return out;
}
