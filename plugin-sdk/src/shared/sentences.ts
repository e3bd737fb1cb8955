/**
 * Sentence segmentation, one implementation for the whole platform: text translation cuts its text
 * with it (the kernel's pipeline), documents cut each paragraph with it (`sentencePieces`, inline
 * placeholders kept), and the console cuts an edited paragraph with it before writing a memory.
 * Intl.Segmenter finds the candidate breaks per language; SRX-style exceptions then take back the
 * breaks after abbreviations (`Dr.`, `e.g.`, `U.S.`, `z.B.`, `M.`), initials and ordinals. Numbers
 * such as `3.5` or `1,234.56` are never cut (Intl.Segmenter wants a space after the stop).
 */

export interface SentenceSpan {
  start: number;
  end: number;
  /** The sentence including its trailing whitespace, as Intl.Segmenter gives it. */
  text: string;
}

/**
 * Exceptions per language (by its base code), SRX style: `never` abbreviations never end a sentence;
 * `unlessNewSentence` ones end it only when what follows reads as a new sentence (a capital letter
 * that is not itself an abbreviation's continuation: `Jan. 5`, `etc. and`, `U.S. Army` continue;
 * `U.S. Then` ends). Every language gets `*` as well. Written without their final dot.
 */
const EXCEPTIONS: Record<string, { never?: string[]; unlessNewSentence?: string[]; ordinals?: boolean }> = {
  '*': { never: ['Dr', 'Prof', 'e.g', 'i.e', 'cf', 'vs', 'approx', 'No', 'Nr'], unlessNewSentence: ['etc', '[A-Z]'] },
  en: {
    never: ['Mr', 'Mrs', 'Ms', 'Sr', 'Jr', 'St', 'Mt', 'Messrs', 'Gen', 'Col', 'Capt', 'Lt', 'Sgt', 'Rev', 'Hon', 'fig', 'Fig', 'vol', 'Vol', 'pp', 'p', 'ch', 'Ch', 'Inc', 'Ltd', 'Co', 'Corp'],
    unlessNewSentence: ['Jan', 'Feb', 'Mar', 'Apr', 'Jun', 'Jul', 'Aug', 'Sep', 'Sept', 'Oct', 'Nov', 'Dec', 'U\\.S', 'U\\.K', 'U\\.N', 'E\\.U', 'a\\.m', 'p\\.m'],
  },
  de: { never: ['z\\.B', 'd\\.h', 'u\\.a', 'bzw', 'ca', 'Hr', 'Fr', 'vgl', 'S', 'Abs', 'Art', 'Str'], unlessNewSentence: ['usw', 'etc'], ordinals: true },
  fr: { never: ['M', 'MM', 'Mme', 'Mmes', 'Mlle', 'p\\.ex', 'av', 'env', 'St', 'Ste'], unlessNewSentence: ['etc'] },
  es: { never: ['Sr', 'Sra', 'Srta', 'Dra', 'Ud', 'Uds', 'D', 'Dña', 'p\\.ej', 'pág', 'núm', 'aprox'], unlessNewSentence: ['etc'] },
  pt: { never: ['Sr', 'Sra', 'Dra', 'p\\.ex', 'pág', 'núm'], unlessNewSentence: ['etc'] },
  it: { never: ['Sig', 'Sigg', 'Sig\\.ra', 'Dott', 'ecc', 'pag', 'es'], unlessNewSentence: ['ecc'] },
  ca: { never: ['Sr', 'Sra', 'Dr', 'Dra', 'p\\.ex', 'pàg', 'núm'], unlessNewSentence: ['etc'] },
  nl: { never: ['dhr', 'mevr', 'bijv', 'o\\.a', 'd\\.w\\.z', 'z\\.g\\.a'], unlessNewSentence: ['enz'], ordinals: true },
};

/** A capitalised word that starts a new sentence after `U.S.` or an initial rather than continuing a name. */
const SENTENCE_STARTERS = new Set(
  'The A An This That These Those Then There Thus It Its He She We They I You His Her Our Their But And Or So Yet If When While In On At For After Before Since As However Also Now Here What Who Why How'.split(' '),
);
// German and Dutch write ordinals as `3.`: `am 3. Mai` continues; `in 2020. Dann` ends (four digits are a year).
const ORDINAL = /(?:^|[\s(])\d{1,2}\.\s*$/;
const MONTHS_AFTER_ORDINAL = /^\s*(?:Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december|Jahrhundert|Platz|Stock|Klasse|Auflage)\b/;
const STARTS_LOWER = /^\s*[\p{Ll}\d]/u;
// Chinese clause stops Intl.Segmenter does not break on.
const EXTRA_BREAK = /[；]/g;

interface Rules {
  never: RegExp;
  unlessNewSentence: RegExp;
  ordinals: boolean;
}
const rulesByLanguage = new Map<string, Rules>();
function rulesFor(lang: string): Rules {
  const base = lang.split('-')[0]!.toLowerCase();
  let rules = rulesByLanguage.get(base);
  if (!rules) {
    const all = EXCEPTIONS['*']!;
    // Languages without rules of their own take English's (most documents quote English abbreviations).
    const own = EXCEPTIONS[base] ?? EXCEPTIONS.en!;
    const ending = (list: string[]) => new RegExp(`(?:^|[\\s(\\[“"'])(?:${list.join('|')})\\.\\s*$`, 'u');
    rules = {
      never: ending([...(all.never ?? []), ...(own.never ?? [])].map((a) => a.replace(/(?<!\\)\./g, '\\.'))),
      unlessNewSentence: ending([...(all.unlessNewSentence ?? []), ...(own.unlessNewSentence ?? [])]),
      ordinals: !!own.ordinals,
    };
    rulesByLanguage.set(base, rules);
  }
  return rules;
}

/** Whether the candidate break between `prev` and `next` (its first characters) is taken back. */
function continues(rules: Rules, prev: string, next: string): boolean {
  if (rules.never.test(prev)) return true;
  if (rules.unlessNewSentence.test(prev)) {
    if (STARTS_LOWER.test(next)) return true;
    const word = /^\s*([\p{Lu}][\p{L}]*)/u.exec(next)?.[1];
    // `U.S. Army`, `J. R. R. Tolkien`: a capital that is not a sentence's usual first word continues.
    if (word && !SENTENCE_STARTERS.has(word) && /(?:[A-Z]\.){1,}\s*$/.test(prev)) return true;
    return false;
  }
  return rules.ordinals && ORDINAL.test(prev) && (STARTS_LOWER.test(next) || MONTHS_AFTER_ORDINAL.test(next));
}

// One segmenter per language, kept: making one costs far more than segmenting a sentence (about
// 300 µs against 100 on Node 20), and a text is split line by line. Bounded, as `lang` may come from a request.
const segmenters = new Map<string, Intl.Segmenter>();
function segmenterFor(lang: string): Intl.Segmenter {
  let segmenter = segmenters.get(lang);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
    } catch {
      segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    if (segmenters.size >= 64) segmenters.clear();
    segmenters.set(lang, segmenter);
  }
  return segmenter;
}

/**
 * Sentence spans of `text`, lazily: nothing holds all sentences at once (FIELD-NOTES:
 * materialising them grew memory quadratically). The spans cover the text without gaps, so
 * joining their `text` gives the input back.
 */
export function* splitSentences(text: string, lang = 'en'): Generator<SentenceSpan> {
  const segmenter = segmenterFor(lang);
  const rules = rulesFor(lang);
  let pendingStart = -1;
  let pendingEnd = -1;
  for (const piece of splitExtra(windowedSentences(segmenter, text), text)) {
    if (pendingStart < 0) {
      pendingStart = piece.start;
      pendingEnd = piece.end;
      continue;
    }
    // Only the tail of the pending sentence decides (an abbreviation is short), so a long sentence costs no more.
    const prev = text.slice(Math.max(pendingStart, pendingEnd - 40), pendingEnd);
    const next = text.slice(piece.start, Math.min(piece.end, piece.start + 24));
    if (continues(rules, prev, next)) {
      pendingEnd = piece.end;
      continue;
    }
    yield { start: pendingStart, end: pendingEnd, text: text.slice(pendingStart, pendingEnd) };
    pendingStart = piece.start;
    pendingEnd = piece.end;
  }
  if (pendingStart >= 0) yield { start: pendingStart, end: pendingEnd, text: text.slice(pendingStart, pendingEnd) };
}

/**
 * Intl.Segmenter over one long string slows down superlinearly (measured on Node 20: 50 kB in
 * 0.1 s, 100 kB in 2.8 s, 200 kB in 7.7 s), so it only ever sees a window of the text. The
 * last sentence of a window may be cut short by the window's end: it is not yielded but
 * starts the next window.
 */
const WINDOW = 8192;
function* windowedSentences(segmenter: Intl.Segmenter, text: string): Generator<{ start: number; end: number }> {
  let start = 0;
  let size = WINDOW;
  while (start < text.length) {
    const end = Math.min(text.length, start + size);
    let lastStart = -1;
    let yielded = false;
    for (const s of segmenter.segment(text.slice(start, end))) {
      if (lastStart >= 0) {
        yield { start: start + lastStart, end: start + s.index };
        yielded = true;
      }
      lastStart = s.index;
    }
    if (end === text.length) {
      yield { start: start + lastStart, end };
      return;
    }
    if (yielded) {
      start += lastStart;
      size = WINDOW;
    } else {
      // One sentence fills the window: widen it (a sentence longer than 1 MB is cut there).
      if (size >= 1 << 20) {
        yield { start, end };
        start = end;
      } else size *= 2;
    }
  }
}

function* splitExtra(segments: Iterable<{ start: number; end: number }>, text: string): Generator<{ start: number; end: number }> {
  for (const { start, end } of segments) {
    const segment = text.slice(start, end);
    let from = start;
    EXTRA_BREAK.lastIndex = 0;
    for (const m of segment.matchAll(EXTRA_BREAK)) {
      let cut = start + m.index! + 1;
      while (cut < end && /\s/.test(text[cut]!)) cut++;
      if (cut < end) {
        yield { start: from, end: cut };
        from = cut;
      }
    }
    yield { start: from, end };
  }
}

// ---------- a unit's text with inline placeholders ----------

/** A piece of a paragraph: a sentence to translate, or what stays as it is between them (spaces, tags alone). */
export type SentencePiece = { raw: string } | { sentence: string };

const PLACEHOLDER = /<(\/?)(\d+)(\/?)>/g;
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * A unit's text (inline markup as the placeholders `<1>…</1>`, `<2/>`) cut into its sentences, with
 * the same rules as `splitSentences`. Joining every piece (`raw`, or `sentence`) gives the text back.
 * Tags travel inside their sentence: an opening tag right before a sentence belongs to it, and a
 * break that would leave a pair open (`<1>One. Two.</1>`) is not taken, so each sentence holds whole
 * pairs and the paragraph rejoined from translated sentences is as well formed as its source.
 * Spaces around a sentence and pieces without a letter or digit stay raw.
 */
export function sentencePieces(text: string, lang = 'en'): SentencePiece[] {
  const tags = [...text.matchAll(PLACEHOLDER)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, kind: m[3] ? 'void' : m[1] ? 'close' : 'open' }));
  // The visible text, and where each of its characters sits in the unit.
  let plain = '';
  const toText: number[] = [];
  let at = 0;
  for (const tag of [...tags, { start: text.length, end: text.length, kind: 'end' }]) {
    for (let i = at; i < tag.start; i++) {
      plain += text[i];
      toText.push(i);
    }
    // A standalone tag (a line break, an object) separates what is around it: `end.<1/>Next` is two sentences.
    if (tag.kind === 'void') {
      plain += ' ';
      toText.push(tag.start);
    }
    at = tag.end;
  }
  toText.push(text.length);
  const cuts: number[] = [];
  for (const span of splitSentences(plain, lang)) {
    if (span.start === 0) continue;
    let cut = toText[span.start]!;
    // Opening tags right before the next sentence belong to it.
    for (let t = tags.length - 1; t >= 0; t--) if (tags[t]!.end === cut && tags[t]!.kind === 'open') cut = tags[t]!.start;
    let depth = 0;
    for (const tag of tags) {
      if (tag.end > cut) break;
      depth += tag.kind === 'open' ? 1 : tag.kind === 'close' ? -1 : 0;
    }
    if (depth === 0) cuts.push(cut);
  }
  const out: SentencePiece[] = [];
  const raw = (text: string) => {
    const last = out[out.length - 1];
    if (last && 'raw' in last) last.raw += text;
    else out.push({ raw: text });
  };
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    const piece = text.slice(from, cut);
    from = cut;
    if (!HAS_WORD.test(piece.replace(PLACEHOLDER, ''))) {
      if (piece) raw(piece);
      continue;
    }
    const { lead, sentence, trail } = peel(piece);
    if (lead) raw(lead);
    out.push({ sentence });
    if (trail) raw(trail);
  }
  return out;
}

const EDGE_LEAD = /^(?:\s|<\d+\/>)*/;
const EDGE_TRAIL = /(?:\s|<\d+\/>)*$/;

/**
 * What stays outside a sentence: spaces and standalone tags at its edges, and a pair that wraps it
 * whole (`<1>A bold sentence.</1>`), so the memory and the engine see the sentence as a memory holds it.
 */
function peel(piece: string): { lead: string; sentence: string; trail: string } {
  let lead = '';
  let trail = '';
  let core = piece;
  for (;;) {
    const l = EDGE_LEAD.exec(core)![0];
    core = core.slice(l.length);
    const t = EDGE_TRAIL.exec(core)![0];
    core = core.slice(0, core.length - t.length);
    lead += l;
    trail = t + trail;
    const open = /^<(\d+)>/.exec(core);
    if (!open || !core.endsWith(`</${open[1]}>`) || !wrapsWhole(core, open[1]!)) break;
    lead += open[0];
    trail = `</${open[1]}>${trail}`;
    core = core.slice(open[0].length, core.length - open[0].length - 1);
  }
  return { lead, sentence: core, trail };
}

/** The pair opened at the start of `core` closes only at its end. */
function wrapsWhole(core: string, id: string): boolean {
  let depth = 0;
  for (const m of core.matchAll(PLACEHOLDER)) {
    if (m[2] !== id || m[3]) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0) return m.index! + m[0].length === core.length;
  }
  return false;
}

/**
 * A paragraph and its translation as sentence pairs, for writing to a memory at the granularity
 * documents look memories up by: the source and the target cut with their languages' rules, paired
 * in order. Null when they do not cut into the same number of sentences (a translator joined or split
 * one) or a pair would not carry the same placeholders: the caller then writes the paragraph whole.
 */
export function sentencePairs(source: string, target: string, sourceLang: string, targetLang: string): Array<{ source: string; target: string }> | null {
  const of = (text: string, lang: string) => sentencePieces(text, lang).flatMap((p) => ('sentence' in p ? [p.sentence] : []));
  const sources = of(source, sourceLang);
  const targets = of(target, targetLang);
  if (sources.length !== targets.length || sources.length === 0) return null;
  const tags = (s: string) => [...s.matchAll(PLACEHOLDER)].map((m) => m[0]).sort().join();
  const pairs = sources.map((s, i) => ({ source: s, target: targets[i]! }));
  return pairs.every((p) => tags(p.source) === tags(p.target)) ? pairs : null;
}
