/**
 * Terms in grammar (issue 22 item 3): English to Spanish with the real Apertium pair (the command line,
 * the same mode the platform runs), over 110 sentences that hold a term of a small term base whose
 * translations mostly differ from Apertium's own word, several in gender (ordenador m -> computadora f).
 *
 * Three ways, printed side by side:
 *   plain     Apertium alone, no terms (the baseline);
 *   old       the term as a placeholder Apertium does not know, replaced afterwards (the adapter's
 *             `protectTerms`, the behaviour before);
 *   now       free translation, then the term hook's apply step (apply.ts) with the pair's morphology.
 * Figures: terms applied (the term's translation in the output), agreement errors next to the term's
 * noun (a determiner before it, an adjective right after it, a predicate adjective after es/está when
 * nothing but determiners precedes it, also across a complement of the noun: `de la oficina está`), checked with the Spanish analyser of the installed pair, and
 * double spaces. Run: `npm run bench -- terms`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MorphWord } from '@linguaport/sdk/server';
import { protectTerms } from '../../plugins/engine-apertium/server/adapter.js';
import { ApertiumMorphology } from '../../plugins/engine-apertium/server/morphology.js';
import { applyTerms, findPhrase } from '../../plugins/term/server/apply.js';
import { TermMatcher } from '../../plugins/term/server/matcher.js';

const TERMS: Array<[string, string]> = [
  ['computer', 'computadora'], ['screen', 'monitor'], ['folder', 'directorio'], ['printer', 'impresora'], ['warranty', 'garantía'],
  ['car', 'automóvil'], ['hard disk', 'unidad de disco'], ['file', 'fichero'], ['network', 'red'], ['bill', 'factura'],
];
const TEMPLATES = [
  'The {t} is new.', 'A new {t} is ready.', 'Check the {t}.', 'The {t} of the office is broken.', 'Open the old {t}.',
  '{T} settings are saved.', 'We bought a small {t} yesterday.', 'This {t} is expensive.', 'Every {t} needs a label.',
  'The cable of the {t} is short.', 'Is the {t} white?',
];
const sentences = TERMS.flatMap(([s]) => TEMPLATES.map((tpl) => tpl.replace('{t}', s).replace('{T}', s[0]!.toUpperCase() + s.slice(1))));

const dir = mkdtempSync(join(tmpdir(), 'term-bench-'));
function apertium(texts: string[]): string[] {
  const file = join(dir, 'in.txt');
  writeFileSync(file, texts.map((t) => t.replace(/\n/g, ' ')).join('\n\n') + '\n');
  const out = execFileSync('apertium', ['-u', 'eng-spa', file], { encoding: 'utf8', maxBuffer: 64 << 20 }).replace(/\n+$/, '').split('\n\n');
  if (out.length !== texts.length) throw new Error(`apertium gave ${out.length} outputs for ${texts.length}`);
  return out;
}

const morphology = new ApertiumMorphology();
const matcher = new TermMatcher(TERMS.map(([source, target], i) => ({ id: i + 1, libraryId: 1, source, target, forbidden: false })));
const hits = sentences.map((s) => matcher.find(s));
const terms = TERMS.map(([source, target]) => ({ source, target }));

const t0 = performance.now();
const plain = apertium(sentences);
const tPlain = performance.now() - t0;
const t1 = performance.now();
const p = protectTerms(sentences, terms);
const old = apertium(p.segments).map((o) => p.restore(o));
const tOld = performance.now() - t1;
const t2 = performance.now();
const freeOut = apertium(sentences);
const applied = await applyTerms(sentences.map((s, i) => ({ source: s, target: freeOut[i]!, hits: hits[i]!, fromEngine: true })), { sourceLang: 'en', targetLang: 'es', morphology, renderPhrases: async (ph) => apertium(ph) });
const now = applied.map((a) => a.target);
const tNow = performance.now() - t2;

const has = (w: MorphWord, tag: string) => w.readings.some((r) => r[r.length - 1]!.tags.includes(tag));
const only = (w: MorphWord, tags: string[]) => w.readings.length > 0 && w.readings.every((r) => tags.some((t) => r[r.length - 1]!.tags.includes(t)));
const agrees = (w: MorphWord, g: string | null, n: string | null) =>
  w.readings.some((r) => {
    const tags = r[r.length - 1]!.tags;
    return (!g || !tags.some((t) => t === 'm' || t === 'f') || tags.includes(g) || tags.includes('mf')) && (!n || !tags.some((t) => t === 'sg' || t === 'pl') || tags.includes(n) || tags.includes('sp'));
  });

/** Agreement errors around `noun` (the term's translation, or for plain output Apertium's own word) in `text`. */
async function errors(texts: string[], nouns: string[][]): Promise<number> {
  const analysed = await morphology.analyse('es', texts);
  const nounWords = await morphology.analyse('es', [...new Set(nouns.flat())]);
  const headOf = new Map<string, { g: string | null; n: string | null }>();
  [...new Set(nouns.flat())].forEach((noun, i) => {
    const head = nounWords[i]!.find((w) => has(w, 'n'));
    const tags = head?.readings.find((r) => r[r.length - 1]!.tags.includes('n'))?.at(-1)?.tags ?? [];
    headOf.set(noun, { g: tags.find((t) => t === 'm' || t === 'f') ?? null, n: tags.find((t) => t === 'sg' || t === 'pl') ?? null });
  });
  let count = 0;
  texts.forEach((text, i) => {
    const words = analysed[i]!;
    for (const noun of nouns[i]!) {
      const span = findPhrase(text, noun);
      if (!span) continue;
      const { g, n } = headOf.get(noun)!;
      const first = words.findIndex((w) => w.start >= span[0]);
      const after = words.findIndex((w) => w.start >= span[1]);
      let subject = true;
      for (let k = first - 1; k >= 0 && k >= first - 2; k--) {
        const w = words[k]!;
        if (only(w, ['det', 'predet'])) {
          if (!agrees(w, g, n)) count++;
          if (w.readings.some((r) => r.length > 1)) subject = false;
        } else {
          if (has(w, 'pr')) subject = false;
          break;
        }
      }
      if (after < 0) continue;
      const next = words[after]!;
      if (only(next, ['adj', 'pp']) && !agrees(next, g, n)) count++;
      // The verb right after the noun, or after its complement (`de la oficina`).
      let v = after;
      if (has(next, 'pr')) {
        let m = after + 1;
        while (words[m] && only(words[m]!, ['det', 'predet', 'num', 'adj'])) m++;
        if (words[m] && has(words[m]!, 'n')) v = m + 1;
      }
      const verb = words[v];
      if (subject && verb && /^(es|está)$/i.test(verb.surface) && words[v + 1] && only(words[v + 1]!, ['adj', 'pp']) && !agrees(words[v + 1]!, g, n)) count++;
    }
  });
  return count;
}

const targetsOf = (i: number) => hits[i]!.map((h) => h.target);
const renderings = apertium(TERMS.map(([s]) => `the ${s}`)).map((r) => r.split(/\s+/).slice(1).join(' ').replace(/\.$/, ''));
const ownWord = (i: number) => hits[i]!.map((h) => renderings[TERMS.findIndex(([s]) => s === h.source)]!);
const appliedRate = (outs: string[]) => {
  let ok = 0;
  let all = 0;
  outs.forEach((o, i) => targetsOf(i).forEach((t) => (all++, findPhrase(o, t) && ok++)));
  return { ok, all };
};
const doubles = (outs: string[]) => outs.filter((o) => / {2}/.test(o)).length;
const row = async (name: string, outs: string[], nouns: (i: number) => string[], ms: number) => {
  const a = appliedRate(outs);
  const e = await errors(outs, outs.map((_, i) => nouns(i)));
  console.log(`${name.padEnd(34)} ${`${a.ok}/${a.all} (${((100 * a.ok) / a.all).toFixed(1)}%)`.padEnd(18)} ${String(e).padEnd(18)} ${String(doubles(outs)).padEnd(14)} ${Math.round(ms)} ms`);
};

console.log(`${sentences.length} sentences, ${hits.flat().length} term occurrences, ${TERMS.length} terms (en -> es, apertium eng-spa)`);
console.log(`${'way'.padEnd(34)} ${'terms applied'.padEnd(18)} ${'agreement errors'.padEnd(18)} ${'double spaces'.padEnd(14)} time`);
await row('plain engine, no terms (baseline)', plain, ownWord, tPlain);
await row('old: placeholders', old, targetsOf, tOld);
await row('now: free + apply with agreement', now, targetsOf, tNow);
const notApplied = applied.flatMap((a) => a.issues.filter((x) => x.code === 'term-not-applied').map((x) => x.params?.term)).length;
console.log(`now: ${notApplied} term occurrences reported as not applied (a warning each)`);
for (const i of [0, 3, 12, 15]) console.log(`  ${sentences[i]} | plain: ${plain[i]} | old: ${old[i]} | now: ${now[i]}`);
morphology.stop();
rmSync(dir, { recursive: true, force: true });
