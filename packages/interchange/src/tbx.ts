import { escapeXml, XmlError, XmlTokenizer, xmlText, type XmlToken } from '@linguaport/sdk/interchange';
import { platformLanguage } from '@linguaport/sdk/shared';

/**
 * TBX term bases, read and written streaming (constant memory: a concept at a time).
 *
 * Reads TBX v2 (ISO 30042:2008, `martif`: termEntry / langSet / tig or ntig) and TBX v3 (ISO
 * 30042:2019, `tbx`: conceptEntry / langSec / termSec, data categories as attributes (`dca`) or as
 * elements (`dct`)) of any dialect, keeping what the platform's term base holds: subject field,
 * definition and note of a concept; part of speech, administrative status, term type, context and
 * note of a term. Writes TBX-Basic in either version.
 *
 * Languages are read as the platform names them (`en-US` is `en`, `zh-Hans-CN` is `zh-CN`); two
 * langSets that name the same platform language become one language of the concept.
 */

export interface TbxTerm {
  term: string;
  partOfSpeech?: string;
  /** TBX-Basic's picklist: `preferredTerm-admn-sts`, `admittedTerm-admn-sts`, `deprecatedTerm-admn-sts`, `supersededTerm-admn-sts`. */
  administrativeStatus?: string;
  /** Deprecated or superseded: a term translators must not use. */
  forbidden: boolean;
  termType?: string;
  context?: string;
  note?: string;
}

export interface TbxLanguage {
  /** Platform code (`en`, `zh-CN`). */
  lang: string;
  terms: TbxTerm[];
}

export interface TbxConcept {
  id?: string;
  subjectField?: string;
  definition?: string;
  note?: string;
  languages: TbxLanguage[];
}

export interface TbxHeader {
  version: 2 | 3;
  /** The root's `type`: `TBX-Basic`, `TBX`, `TBX-Min`... */
  dialect: string;
  title?: string;
  /** The platform code of the root's `xml:lang`, or null when the file names none. */
  sourceLanguage: string | null;
  /** The root's `xml:lang` as written. */
  xmlLang?: string;
}

export interface ReadTbxOptions {
  /** Called once, when the header is complete (before the first concept). */
  onHeader?(header: TbxHeader): void;
  /** Something read but not kept (a concept without terms, a langSet without a language), with its line. */
  onWarning?(message: string, line: number): void;
}

/** Malformed XML or a document that is no TBX, with the line where reading stopped. */
export class TbxError extends XmlError {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'TbxError';
  }
}

const ADMIN_STATUSES = ['preferred', 'admitted', 'deprecated', 'superseded'] as const;
const FORBIDDEN = new Set(['deprecatedTerm-admn-sts', 'supersededTerm-admn-sts']);
const BASIC_STATUSES = new Set(ADMIN_STATUSES.map((s) => `${s}Term-admn-sts`));

/**
 * TBX-Basic's value of an administrative status as files write it: `deprecatedTerm-admn-sts`, and
 * also `deprecatedTerm` (the normativeAuthorization form of older files) or `deprecated`. Other values stay as written.
 */
export function administrativeStatus(value: string): string {
  const v = value.trim();
  const m = /^([a-z]+?)(?:Term)?(?:-admn-sts)?$/i.exec(v);
  const known = m && ADMIN_STATUSES.find((s) => s === m[1]!.toLowerCase());
  return known ? `${known}Term-admn-sts` : v;
}

export const isForbiddenStatus = (status: string | undefined) => status !== undefined && FORBIDDEN.has(status);

type TbxSource = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/**
 * Reads TBX text or bytes arriving in pieces (a Node stream, chunks): each concept is yielded as it
 * completes. Throws TbxError (an XmlError) on malformed XML or a document that is no TBX.
 */
export async function* readTbx(input: TbxSource, options: ReadTbxOptions = {}): AsyncGenerator<TbxConcept> {
  const reader = new TbxReader(options);
  const tokenizer = new XmlTokenizer((t) => reader.token(t));
  // Text goes to the tokenizer a line at a time, so a token (and an error) is known to end on the line being written.
  const feed = (text: string, final: boolean) => {
    try {
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        tokenizer.write(text.slice(from, nl + 1));
        from = nl + 1;
        reader.line++;
      }
      if (from < text.length || final) tokenizer.write(from ? text.slice(from) : text, final);
    } catch (err) {
      throw err instanceof XmlError && !(err instanceof TbxError) ? new TbxError(err.message, reader.line) : err;
    }
  };
  try {
    for await (const text of xmlText(input)) {
      feed(text, false);
      if (reader.concepts.length) yield* reader.take();
    }
  } catch (err) {
    throw err instanceof XmlError && !(err instanceof TbxError) ? new TbxError(err.message, reader.line) : err;
  }
  feed('', true);
  reader.end();
  yield* reader.take();
}

/** A concept while it is read: definitions wait for the end, to prefer the source language's. */
interface ConceptState {
  concept: TbxConcept;
  line: number;
  definitions: Array<{ lang: string; text: string }>;
}

interface LanguageState {
  /** Null: the langSet names no language and is skipped. */
  lang: string | null;
  terms: TbxTerm[];
}

/** Where a field belongs: the innermost of concept, language and term open. */
type Level = 'header' | 'concept' | 'language' | 'term';

interface FieldState {
  /** descrip, termNote, note, title, or a data category element (dct) by its name. */
  kind: string;
  type: string;
  level: Level;
  text: string;
  /** The open elements when it started, itself included: it ends when fewer are open. */
  depth: number;
}

const CONCEPT = new Set(['termEntry', 'conceptEntry']);
const LANGUAGE = new Set(['langSet', 'langSec']);
const TERM = new Set(['tig', 'ntig', 'termSec']);
/** Data categories a dct file writes as elements (`<basic:definition>`), with the element they stand for. */
const DCT: Record<string, 'descrip' | 'termNote'> = {
  subjectField: 'descrip',
  definition: 'descrip',
  context: 'descrip',
  partOfSpeech: 'termNote',
  administrativeStatus: 'termNote',
  normativeAuthorization: 'termNote',
  termType: 'termNote',
};

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

class TbxReader {
  concepts: TbxConcept[] = [];
  /** The line the tokenizer is reading (1-based). */
  line = 1;
  private sawRoot = false;
  private header: TbxHeader | null = null;
  private headerDone = false;
  /** Names of the open elements as written, root first: a close tag must name the last one. */
  private stack: string[] = [];
  private concept: ConceptState | null = null;
  private language: LanguageState | null = null;
  private term: { term: TbxTerm; text: string | null } | null = null;
  private field: FieldState | null = null;

  constructor(private readonly options: ReadTbxOptions) {}

  take(): TbxConcept[] {
    const out = this.concepts;
    this.concepts = [];
    return out;
  }

  end(): void {
    if (!this.sawRoot) throw new TbxError('not a TBX document: no <martif> or <tbx> element', this.line);
    this.endHeader();
  }

  token(t: XmlToken): void {
    if (!this.sawRoot) {
      if (t.type === 'open') this.openRoot(t);
      return;
    }
    if (t.type === 'text') {
      // A field's text is all the text inside it: inline elements (hi, foreign) are dropped, their text kept.
      if (this.field) this.field.text += t.text;
      return;
    }
    if (t.type === 'close') {
      const open = this.stack.pop();
      if (open !== t.name) throw new TbxError(`</${t.name}> closes <${open}>`, this.line);
      const field = this.field;
      if (!field) this.closeElement(localName(t.name));
      else if (this.stack.length < field.depth) {
        this.field = null;
        this.endField(field);
      }
      return;
    }
    if (this.field) {
      if (!t.selfClosing) this.stack.push(t.name);
      return;
    }
    const parent = localName(this.stack[this.stack.length - 1] ?? '');
    this.stack.push(t.name);
    this.openElement(t, localName(t.name), parent);
    if (!t.selfClosing) return;
    this.stack.pop();
    const field = this.field;
    if (field) {
      this.field = null;
      this.endField(field);
    } else this.closeElement(localName(t.name));
  }

  private warn(message: string): void {
    this.options.onWarning?.(message, this.line);
  }

  private openRoot(t: Extract<XmlToken, { type: 'open' }>): void {
    const name = localName(t.name);
    if (name !== 'martif' && name !== 'tbx') throw new TbxError(`not a TBX document: the root element is <${t.name}>`, this.line);
    this.sawRoot = true;
    const xmlLang = t.attrs['xml:lang'] ?? t.attrs.lang;
    this.header = { version: name === 'martif' ? 2 : 3, dialect: t.attrs.type ?? '', sourceLanguage: xmlLang ? platformLanguage(xmlLang) : null };
    if (xmlLang !== undefined) this.header.xmlLang = xmlLang;
    this.stack.push(t.name);
    if (t.selfClosing) this.stack.pop();
  }

  private endHeader(): void {
    if (this.headerDone || !this.header) return;
    this.headerDone = true;
    this.options.onHeader?.(this.header);
  }

  private openElement(t: Extract<XmlToken, { type: 'open' }>, name: string, parent: string): void {
    if (name === 'text' || name === 'body') return this.endHeader();
    if (CONCEPT.has(name)) {
      this.endHeader();
      this.concept = { concept: { languages: [] }, line: this.line, definitions: [] };
      if (t.attrs.id !== undefined) this.concept.concept.id = t.attrs.id;
      return;
    }
    if (!this.concept) {
      if (name === 'title' && !this.headerDone && parent === 'titleStmt') this.startField('title', '', 'header');
      return;
    }
    if (LANGUAGE.has(name)) {
      const written = t.attrs['xml:lang'] ?? t.attrs.lang;
      if (!written) this.warn(`a <${t.name}> without xml:lang is skipped`);
      this.language = { lang: written ? platformLanguage(written) : null, terms: [] };
      return;
    }
    if (!this.language) return this.openField(t, name, parent, 'concept');
    if (TERM.has(name)) {
      this.term = { term: { term: '', forbidden: false }, text: null };
      return;
    }
    if (!this.term) return this.openField(t, name, parent, 'language');
    if (name === 'term' && (parent === 'tig' || parent === 'termGrp' || parent === 'termSec')) return this.startField('term', '', 'term');
    this.openField(t, name, parent, 'term');
  }

  /** A descrip, termNote or note directly in a level (or in its descripGrp/termNoteGrp), or a dct data category. */
  private openField(t: Extract<XmlToken, { type: 'open' }>, name: string, parent: string, level: Level): void {
    const inLevel = CONCEPT.has(parent) || LANGUAGE.has(parent) || TERM.has(parent) || parent === 'termGrp';
    if ((name === 'descrip' && (inLevel || parent === 'descripGrp')) || (name === 'termNote' && (inLevel || parent === 'termNoteGrp'))) {
      return this.startField(name, t.attrs.type ?? '', level);
    }
    if (name === 'note' && inLevel) return this.startField('note', '', level);
    const dct = DCT[name];
    if (dct && t.name.includes(':') && (inLevel || parent === 'descripGrp' || parent === 'termNoteGrp')) this.startField(dct, name, level);
  }

  private startField(kind: string, type: string, level: Level): void {
    this.field = { kind, type, level, text: '', depth: this.stack.length };
  }

  private endField(f: FieldState): void {
    if (f.kind === 'title') {
      if (this.header && this.header.title === undefined) this.header.title = f.text;
      return;
    }
    if (f.kind === 'term') {
      if (this.term && this.term.text === null) this.term.text = f.text;
      return;
    }
    const concept = this.concept!.concept;
    const term = f.level === 'term' ? this.term!.term : null;
    if (f.kind === 'note') {
      if (term) term.note = term.note === undefined ? f.text : `${term.note}\n${f.text}`;
      // A langSet's note is about the concept in that language: the concept keeps it.
      else concept.note = concept.note === undefined ? f.text : `${concept.note}\n${f.text}`;
      return;
    }
    const value = f.text;
    switch (f.type) {
      case 'subjectField':
        if (f.level === 'concept') concept.subjectField ??= value;
        return;
      case 'definition':
        if (f.level === 'concept') concept.definition ??= value;
        else if (this.language?.lang) this.concept!.definitions.push({ lang: this.language.lang, text: value });
        return;
      case 'context':
        if (term) term.context ??= value;
        return;
      case 'partOfSpeech':
        if (term) term.partOfSpeech ??= value.trim();
        return;
      case 'termType':
        if (term) term.termType ??= value.trim();
        return;
      case 'administrativeStatus':
      case 'normativeAuthorization':
        if (term && term.administrativeStatus === undefined) {
          term.administrativeStatus = administrativeStatus(value);
          term.forbidden = isForbiddenStatus(term.administrativeStatus);
        }
        return;
    }
  }

  private closeElement(name: string): void {
    if (TERM.has(name) && this.term) {
      const { term, text } = this.term;
      this.term = null;
      if (!this.language) return;
      if (text === null || !text.trim()) this.warn('a term with no text is skipped');
      else {
        term.term = text;
        this.language.terms.push(term);
      }
    } else if (LANGUAGE.has(name) && this.language) {
      const { lang, terms } = this.language;
      this.language = null;
      if (!lang || !terms.length || !this.concept) return;
      const languages = this.concept.concept.languages;
      const same = languages.find((l) => l.lang === lang);
      if (same) same.terms.push(...terms);
      else languages.push({ lang, terms });
    } else if (CONCEPT.has(name) && this.concept) {
      const { concept, line, definitions } = this.concept;
      this.concept = null;
      if (concept.definition === undefined && definitions.length) {
        const source = this.header?.sourceLanguage;
        concept.definition = (definitions.find((d) => d.lang === source) ?? definitions[0]!).text;
      }
      if (!concept.languages.length) {
        this.warn(`the concept${concept.id !== undefined ? ` ${concept.id}` : ''} (from line ${line}) has no term and is skipped`);
        return;
      }
      this.concepts.push(concept);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Writing

export interface TbxWriteOptions {
  version: 2 | 3;
  title?: string;
  /** The root's `xml:lang`: the term base's source language. Its langSet carries the definition. */
  sourceLanguage: string;
  /** Shown in the header's source description. */
  tool?: string;
}

const attr = (v: string) => escapeXml(v, true);
const NAME = /^[A-Za-z_][\w.-]*$/;

/** One concept as TBX-Basic, or '' when it has no term to write. `id` is the one to write (an XML name). */
export function conceptXml(c: TbxConcept, version: 2 | 3, sourceLanguage: string, id?: string): string {
  const v2 = version === 2;
  const languages = c.languages.map((l) => ({ lang: l.lang, terms: l.terms.filter((t) => t.term.trim()) })).filter((l) => l.terms.length);
  if (!languages.length) return '';
  const [entry, lang, term] = v2 ? ['termEntry', 'langSet', 'tig'] : ['conceptEntry', 'langSec', 'termSec'];
  let xml = `    <${entry}${id !== undefined ? ` id="${attr(id)}"` : ''}>\n`;
  if (c.subjectField !== undefined) xml += `      <descrip type="subjectField">${escapeXml(c.subjectField)}</descrip>\n`;
  if (c.note !== undefined) xml += `      <note>${escapeXml(c.note)}</note>\n`;
  const source = platformLanguage(sourceLanguage);
  const definedIn = languages.find((l) => platformLanguage(l.lang) === source) ?? languages[0]!;
  for (const l of languages) {
    xml += `      <${lang} xml:lang="${attr(l.lang)}">\n`;
    if (l === definedIn && c.definition !== undefined) xml += `        <descrip type="definition">${escapeXml(c.definition)}</descrip>\n`;
    for (const t of l.terms) {
      xml += `        <${term}>\n          <term>${escapeXml(t.term)}</term>\n`;
      if (t.partOfSpeech !== undefined) xml += `          <termNote type="partOfSpeech">${escapeXml(t.partOfSpeech)}</termNote>\n`;
      if (t.termType !== undefined) xml += `          <termNote type="termType">${escapeXml(t.termType)}</termNote>\n`;
      const status = t.administrativeStatus !== undefined ? administrativeStatus(t.administrativeStatus) : undefined;
      // `forbidden` wins over a status that says otherwise: a forbidden term is never written as usable.
      // A status outside TBX-Basic's picklist (another dialect's) is left out.
      const written = t.forbidden && !isForbiddenStatus(status) ? 'deprecatedTerm-admn-sts' : status && BASIC_STATUSES.has(status) ? status : undefined;
      if (written !== undefined) xml += `          <termNote type="administrativeStatus">${escapeXml(written)}</termNote>\n`;
      if (t.context !== undefined) xml += `          <descrip type="context">${escapeXml(t.context)}</descrip>\n`;
      if (t.note !== undefined) xml += `          <note>${escapeXml(t.note)}</note>\n`;
      xml += `        </${term}>\n`;
    }
    xml += `      </${lang}>\n`;
  }
  return `${xml}    </${entry}>\n`;
}

/**
 * TBX-Basic as text pieces of about 64 KB: v2 (`martif`, valid against `tbx-basic/tbx-basic-v2.dtd`,
 * the part of TBX's core structure DTD it uses) or v3 (`tbx`, dca style, valid against
 * `tbx-basic/tbx-basic-v3.rng`). A concept without terms is skipped, and so is an administrative
 * status outside TBX-Basic's picklist. Ids that are no XML name, or
 * repeat an earlier one, are made into one (`17` is written `c17`); v3 needs an id on every concept,
 * so one without gets `c` and its position. Give it to `Readable.from` for a stream.
 */
export async function* writeTbx(concepts: AsyncIterable<TbxConcept> | Iterable<TbxConcept>, options: TbxWriteOptions): AsyncGenerator<string> {
  const v2 = options.version === 2;
  const lang = attr(options.sourceLanguage);
  const title = options.title !== undefined ? `<titleStmt><title>${escapeXml(options.title)}</title></titleStmt>` : '';
  const source = `<sourceDesc><p>${escapeXml(options.tool ?? 'Linguaport')}</p></sourceDesc>`;
  let out = v2
    ? '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">\n' +
      `<martif type="TBX-Basic" xml:lang="${lang}">\n  <martifHeader>\n    <fileDesc>${title}${source}</fileDesc>\n` +
      '    <encodingDesc><p type="XCSURI">TBXBasicXCSV02.xcs</p></encodingDesc>\n  </martifHeader>\n  <text>\n  <body>\n'
    : '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<tbx type="TBX-Basic" style="dca" xml:lang="${lang}" xmlns="urn:iso:std:iso:30042:ed-2">\n  <tbxHeader>\n    <fileDesc>${title}${source}</fileDesc>\n  </tbxHeader>\n  <text>\n  <body>\n`;
  // Ids are XML IDs: unique names. Remembering the written ones costs a few bytes a concept.
  const used = new Set<string>();
  let position = 0;
  for await (const c of concepts) {
    position++;
    let id = c.id;
    if (id !== undefined || !v2) {
      if (id === undefined) id = `c${position}`;
      else if (!NAME.test(id)) id = (/^[A-Za-z_]/.test(id) ? id : `c${id}`).replace(/[^\w.-]/g, '_');
      if (used.has(id)) {
        let n = 2;
        while (used.has(`${id}-${n}`)) n++;
        id = `${id}-${n}`;
      }
    }
    const xml = conceptXml(c, options.version, options.sourceLanguage, id);
    if (!xml) continue;
    if (id !== undefined) used.add(id);
    out += xml;
    if (out.length >= 65536) {
      yield out;
      out = '';
    }
  }
  yield `${out}  </body>\n  </text>\n</${v2 ? 'martif' : 'tbx'}>\n`;
}
