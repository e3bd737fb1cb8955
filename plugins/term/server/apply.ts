import type { Morphology, MorphReading, MorphUnit, MorphWord, SegmentIssue } from '@linguaport/sdk/server';
import type { TermHit } from './matcher.js';

/**
 * Terms put into an engine's translation, so that the engine can still inflect around them.
 *
 * The engine translates freely (an engine that takes instructions was told the terms; Apertium is
 * not given placeholders, which it treats as unknown words and so breaks agreement around them). For
 * each required term of a segment:
 *   1. the output already holds the term's translation: it stays, its case set from the source;
 *   2. else the engine's own rendering of the term's source (`renderPhrases`) is looked for in the
 *      output and replaced by the term's translation; with the target language's morphology (the
 *      installed Apertium pair's analyser and generator), the determiners and adjectives of the
 *      term's noun phrase, and a predicate adjective after ser/estar when the phrase is a subject,
 *      are made to agree in gender and number with the term's head noun;
 *   3. else the term is reported as not applied (nothing is put in blindly).
 * Case follows the source: a term written in capitals stays in capitals, a term that opens the
 * output's sentence opens with a capital. Edits never leave two spaces where the source had one.
 */

export interface SegmentWork {
  source: string;
  target: string;
  hits: TermHit[];
  /** Whether the engine wrote the target (a memory's or another hook's target is checked, never rewritten). */
  fromEngine: boolean;
}

export interface AppliedSegment {
  target: string;
  issues: SegmentIssue[];
  /** Terms put in (found or substituted) and terms required, for statistics. */
  applied: number;
  required: number;
}

export interface ApplyOptions {
  sourceLang?: string;
  targetLang: string;
  renderPhrases?: (phrases: string[]) => Promise<string[]>;
  morphology?: Morphology | null;
}

/** A definite article of source languages that have one: a noun after it is rendered as a noun. */
const ARTICLE: Record<string, string> = { en: 'the', es: 'el', fr: 'le', ca: 'el', pt: 'o', it: 'il', gl: 'o', de: 'der', nl: 'de' };

const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `phrase` stands in `text` as whole words (case ignored; any run of spaces between words), from `from` on. */
export function findPhrase(text: string, phrase: string, from = 0, taken: Array<[number, number]> = []): [number, number] | null {
  const trimmed = phrase.trim();
  if (!trimmed) return null;
  const body = escapeRegExp(trimmed).replace(/\s+/g, '\\s+');
  const re = new RegExp(NO_SPACE.test(trimmed) ? body : `(?<![\\p{L}\\p{N}\\p{M}])${body}(?![\\p{L}\\p{N}\\p{M}])`, 'giu');
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const span: [number, number] = [m.index, m.index + m[0].length];
    if (!taken.some(([a, b]) => span[0] < b && a < span[1])) return span;
    if (m[0].length === 0) re.lastIndex++;
  }
  return null;
}

const isUpper = (s: string) => s !== s.toLowerCase() && s === s.toUpperCase();
const letters = (s: string) => s.replace(/[^\p{L}]/gu, '');
const capitalise = (s: string) => {
  const i = s.search(/\p{L}/u);
  return i < 0 ? s : s.slice(0, i) + s[i]!.toUpperCase() + s.slice(i + 1);
};

/** Whether `at` opens a sentence of `text`: only punctuation and spaces before it, or a sentence end and a space. */
function opensSentence(text: string, at: number): boolean {
  const before = text.slice(0, at);
  return !/[\p{L}\p{N}]/u.test(before) || /[.!?。！？]["'»”)\]]*\s+[¿¡"'«“(\[]*$/u.test(before);
}

/** The term's translation written with the case the source asks for at this place of the output. */
export function caseFor(hit: Pick<TermHit, 'text' | 'source' | 'target' | 'start'>, output: string, at: number): string {
  const target = hit.target.trim();
  const written = letters(hit.text);
  if (written.length > 1 && isUpper(written) && !isUpper(letters(hit.source))) return target.toUpperCase();
  if (opensSentence(output, at)) return capitalise(target);
  // Capitalised inside its sentence where the term base writes it small (a name, a heading style): so here.
  const first = written[0];
  if (hit.start > 0 && first && isUpper(first) && !isUpper(letters(hit.source)[0] ?? '')) return capitalise(target);
  return target;
}

const has = (u: MorphUnit, ...tags: string[]) => tags.some((t) => u.tags.includes(t));
const last = (r: MorphReading) => r[r.length - 1]!;
const agreeing = (r: MorphReading, kinds: string[]) => has(last(r), ...kinds) && has(last(r), 'm', 'f', 'sg', 'pl');
const pick = (w: MorphWord, kinds: string[]) => w.readings.find((r) => agreeing(r, kinds));
const isPreposition = (w: MorphWord) => w.readings.length > 0 && w.readings.every((r) => r.some((u) => has(u, 'pr')));

/** Gender and number of a phrase's head noun (its first noun), from the analyser; null when unknown. */
function headOf(words: MorphWord[]): { gender: string | null; number: string | null } | null {
  for (const w of words) {
    const noun = w.readings.find((r) => has(last(r), 'n', 'np'));
    if (!noun) continue;
    const u = last(noun);
    const gender = u.tags.find((t) => t === 'm' || t === 'f') ?? null;
    const number = u.tags.find((t) => t === 'sg' || t === 'pl') ?? null;
    return gender || number ? { gender, number } : null;
  }
  return null;
}

/** The reading changed to agree with the head; null when it already does. */
function agree(reading: MorphReading, head: { gender: string | null; number: string | null }): MorphUnit[] | null {
  const u = last(reading);
  let changed = false;
  const tags = u.tags.map((t) => {
    if (head.gender && (t === 'm' || t === 'f') && t !== head.gender) {
      changed = true;
      return head.gender;
    }
    if (head.number && (t === 'sg' || t === 'pl') && t !== head.number) {
      changed = true;
      return head.number;
    }
    return t;
  });
  return changed ? [...reading.slice(0, -1), { lemma: u.lemma, tags }] : null;
}

/** Words of `words` (an analysed output) that must agree with the noun phrase at [start, end). */
function dependants(words: MorphWord[], start: number, end: number): Array<{ word: MorphWord; reading: MorphReading }> {
  const out: Array<{ word: MorphWord; reading: MorphReading }> = [];
  const firstIn = words.findIndex((w) => w.end > start);
  const after = words.findIndex((w) => w.start >= end);
  // Left: determiners, predeterminers, numerals and adjectives up to the phrase (`todas las nuevas`); a contraction (`del`) ends the walk.
  let i = (firstIn < 0 ? words.length : firstIn) - 1;
  for (; i >= 0; i--) {
    const w = words[i]!;
    const r = pick(w, ['det', 'predet']) ?? pick(w, ['adj', 'num']);
    if (!r) break;
    out.push({ word: w, reading: r });
    if (r.length > 1) {
      i = -2;
      break;
    }
  }
  const subject = i !== -2 && !(i >= 0 && isPreposition(words[i]!));
  if (after < 0) return out;
  // Right: adjectives and participles (`nueva y rápida`).
  let j = after;
  for (; j < words.length; j++) {
    const w = words[j]!;
    const r = pick(w, ['adj', 'pp']);
    if (r) {
      out.push({ word: w, reading: r });
      continue;
    }
    if (w.readings.some((x) => has(last(x), 'cnjcoo')) && words[j + 1] && pick(words[j + 1]!, ['adj', 'pp']) && j > after) continue;
    break;
  }
  // A complement of the noun between it and its verb (`la computadora de la oficina está rota`): skipped, once.
  let v = j;
  if (words[v]?.readings.some((r) => r.some((u) => has(u, 'pr')))) {
    let m = v + 1;
    while (words[m] && pick(words[m]!, ['det', 'predet', 'num', 'adj'])) m++;
    if (words[m]?.readings.some((r) => has(last(r), 'n', 'np'))) {
      m++;
      while (words[m] && pick(words[m]!, ['adj', 'pp'])) m++;
      v = m;
    }
  }
  // A predicate after ser or estar (`está rota`), when the phrase is the subject (no preposition before it).
  const verb = words[v];
  if (subject && verb && verb.readings.some((r) => (has(last(r), 'vbser') || last(r).lemma.toLowerCase() === 'estar') && !has(last(r), 'inf', 'ger', 'pp'))) {
    let k = v + 1;
    while (words[k] && words[k]!.readings.some((r) => has(last(r), 'adv')) && !pick(words[k]!, ['adj', 'pp'])) k++;
    const w = words[k];
    const r = w && pick(w, ['adj', 'pp']);
    if (w && r) out.push({ word: w, reading: r });
  }
  return out;
}

/** The case of `like` put on `form` (`El` -> `La`, `DEL` -> `DE LA`). */
const recase = (like: string, form: string) => (letters(like).length > 1 && isUpper(letters(like)) ? form.toUpperCase() : /^\p{Lu}/u.test(like) ? capitalise(form) : form);

interface Edit {
  start: number;
  end: number;
  text: string;
}

const applyEdits = (text: string, edits: Edit[]) => [...edits].sort((a, b) => b.start - a.start).reduce((out, e) => out.slice(0, e.start) + e.text + out.slice(e.end), text);

/** Runs of spaces the source never has, made one (an edit next to a removed word leaves none). */
function tidySpaces(source: string, text: string): string {
  return / {2}/.test(source) ? text : text.replace(/(\S) {2,}(?=\S)/g, '$1 ');
}

export async function applyTerms(work: SegmentWork[], options: ApplyOptions): Promise<AppliedSegment[]> {
  const morphology = options.morphology && (await options.morphology.has(options.targetLang).catch(() => false)) ? options.morphology : null;
  // Renderings of every required term that an engine output lacks, asked in one engine request: the
  // source alone, and after a determiner (alone, `car` reads as the adjective `automovilístico`; `the
  // car` gives `el coche`, whose last words are the noun's rendering).
  const lacking = new Set<string>();
  for (const s of work) {
    if (!s.fromEngine) continue;
    for (const h of s.hits) if (!h.forbidden && !findPhrase(s.target, h.target)) lacking.add(h.source.trim());
  }
  const renderings = new Map<string, string[]>();
  if (lacking.size && options.renderPhrases) {
    const phrases = [...lacking];
    const article = ARTICLE[options.sourceLang?.split('-')[0] ?? ''];
    const asked = article ? phrases.flatMap((p) => [p, `${article} ${p}`]) : phrases;
    const out = await options.renderPhrases(asked).catch(() => [] as string[]);
    const clean = (t: string | undefined) => (t ?? '').trim().replace(/[.。]$/, '');
    phrases.forEach((p, i) => {
      const bare = clean(out[article ? i * 2 : i]);
      const list = bare ? [bare] : [];
      if (article) {
        const words = clean(out[i * 2 + 1]).split(/\s+/).filter(Boolean);
        if (words.length > 1) list.push(words.slice(1).join(' '));
      }
      renderings.set(p, [...new Set(list)]);
    });
  }
  const heads = new Map<string, { gender: string | null; number: string | null } | null>();
  if (morphology) {
    const targets = [...new Set(work.flatMap((s) => s.hits.filter((h) => !h.forbidden).map((h) => h.target.trim())))];
    const analysed = await morphology.analyse(options.targetLang, targets).catch(() => null);
    targets.forEach((t, i) => heads.set(t, analysed ? headOf(analysed[i]!) : null));
  }

  const results: AppliedSegment[] = [];
  for (const s of work) {
    const issues: SegmentIssue[] = [];
    let target = s.target;
    let applied = 0;
    let required = 0;
    // Phrases put in: [start, end) in `target` as it is after each edit, with the term's head for agreement.
    const placed: Array<{ start: number; end: number; head: { gender: string | null; number: string | null } | null }> = [];
    const taken: Array<[number, number]> = [];
    const cursor = new Map<string, number>();
    for (const h of s.hits) {
      if (h.forbidden) continue;
      required++;
      const term = h.target.trim();
      const key = term.toLowerCase();
      // Puts `text` at `at`, moving what was found after it.
      const put = (at: [number, number], text: string): [number, number] => {
        const delta = text.length - (at[1] - at[0]);
        target = target.slice(0, at[0]) + text + target.slice(at[1]);
        for (const t of taken) if (t[0] >= at[1]) (t[0] += delta), (t[1] += delta);
        for (const p of placed) if (p.start >= at[1]) (p.start += delta), (p.end += delta);
        const span: [number, number] = [at[0], at[0] + text.length];
        taken.push(span);
        return span;
      };
      const found = findPhrase(target, term, cursor.get(key) ?? 0, taken);
      if (found) {
        cursor.set(key, put(found, caseFor(h, target, found[0]))[1]);
        applied++;
        continue;
      }
      let at: [number, number] | null = null;
      for (const rendering of s.fromEngine ? (renderings.get(h.source.trim()) ?? []) : []) if (!at) at = findPhrase(target, rendering, 0, taken);
      if (!at) {
        const code = s.fromEngine ? 'term-not-applied' : 'term-missing';
        issues.push(
          code === 'term-missing'
            ? { hook: 'term', severity: 'warning', code, params: { term: h.text, target: term }, message: `术语“${h.text}”应译为“${term}” / The term "${h.text}" should read "${term}"` }
            : { hook: 'term', severity: 'warning', code, params: { term: h.text, target: term }, message: `术语“${h.text}”未能应用（译文中找不到其译法），应译为“${term}” / The term "${h.text}" could not be applied (its rendering was not found in the translation); it should read "${term}"` },
        );
        continue;
      }
      const span = put(at, caseFor(h, target, at[0]));
      placed.push({ start: span[0], end: span[1], head: heads.get(term) ?? null });
      applied++;
      if (!morphology && s.fromEngine) {
        issues.push({ hook: 'term', severity: 'info', code: 'term-agreement-unchecked', params: { term: h.text, target: term }, message: `术语“${term}”已代入，但本机无法检查其前后词语的性数一致 / The term "${term}" was put in, but agreement around it cannot be checked on this machine` });
      }
    }
    if (morphology && placed.some((p) => p.head)) target = await agreeAround(morphology, options.targetLang, target, placed);
    // A forbidden translation in the final text is flagged (a required term of the same source could have replaced it).
    for (const h of s.hits) {
      if (h.forbidden && findPhrase(target, h.target)) {
        issues.push({ hook: 'term', severity: 'warning', code: 'term-forbidden', params: { term: h.text, target: h.target }, message: `译文使用了禁用术语“${h.target}” / The translation uses the forbidden term "${h.target}"` });
      }
    }
    results.push({ target: placed.length ? tidySpaces(s.source, target) : target, issues, applied, required });
  }
  return results;
}

/** Determiners and adjectives around each placed term made to agree with its head noun. */
async function agreeAround(morphology: Morphology, language: string, target: string, placed: Array<{ start: number; end: number; head: { gender: string | null; number: string | null } | null }>): Promise<string> {
  const [words] = await morphology.analyse(language, [target]).catch(() => [null]);
  if (!words) return target;
  const changes: Array<{ word: MorphWord; units: MorphUnit[] }> = [];
  const seen = new Set<number>();
  for (const p of placed) {
    if (!p.head) continue;
    for (const d of dependants(words, p.start, p.end)) {
      if (seen.has(d.word.start) || (d.word.start >= p.start && d.word.end <= p.end)) continue;
      const units = agree(d.reading, p.head);
      if (!units) continue;
      seen.add(d.word.start);
      changes.push({ word: d.word, units });
    }
  }
  if (!changes.length) return target;
  const forms = await morphology.generate(language, changes.map((c) => c.units)).catch(() => changes.map(() => null));
  const edits: Edit[] = [];
  changes.forEach((c, i) => {
    const form = forms[i];
    if (form) edits.push({ start: c.word.start, end: c.word.end, text: recase(c.word.surface, form) });
  });
  return applyEdits(target, edits);
}

