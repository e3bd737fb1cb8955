import {
  EngineError,
  engineFetch,
  inScratch,
  runTool,
  errorForStatus,
  keepOuterWhitespace,
  mapLimit,
  parseJson,
  trimSlash,
  type EngineAdapter,
  type EngineHealth,
  type EngineResponse,
  type LanguagePair,
  type TranslateBatch,
} from '@linguaport/sdk/server';
import { fromApertiumCode, toApertiumCode } from './languages.js';
import type { PipelinePool } from './pipelines.js';
import { fromStream, toStream } from './stream.js';

/**
 * Apertium through an APy (normally the managed one from apy-process.ts).
 *
 * APy reads one `q` per request, so a batch travels as one joined text and is split back:
 * text segments joined by a blank line (`format=txt`), html segments each wrapped in `<p>` (a
 * Transfuse block, `format=html`). Both keep sentences apart, so the output equals translating
 * each segment alone. A segment that contains the separator, or an answer that splits into
 * the wrong count, falls back to one request per segment. Apertium has no notion of domain.
 *
 * Required terms (a term base's, through the pipeline's terms stage) are not sent into Apertium: it
 * translates freely, so the words around a term keep their agreement, and the term area's hook puts
 * the term in place of Apertium's rendering afterwards, fixing agreement with the pair's own analyser
 * (`morphology.ts`). The old way, a placeholder word per term (`Xlpterm7x`) that Apertium passes
 * through unknown (so "the printer" came out "el impresora"), stays behind `protectTerms: true` for
 * the term benchmark's comparison.
 *
 * Large batches (a document's) go through the node's warm null-flush pipelines instead
 * (pipelines.ts): the same mode and the same tag handling as APy, without APy's per-request
 * overhead. Should a pipeline fail, the batch goes to APy as above.
 */

export interface ApertiumOptions {
  /** APy base URL, e.g. `http://127.0.0.1:2737`. */
  url: string;
  timeoutMs?: number;
  /** Parallel requests when a batch falls back to one request per segment. */
  fallbackConcurrency?: number;
  /** Why html cannot be translated on this machine (its tools are missing), or null/undefined. */
  htmlUnavailable?: string | null;
  /** The node's warm pipelines, for large batches; without them every batch goes to APy. */
  pipelines?: PipelinePool | null;
  /** Batches of at least this many characters go through the pipelines (default PIPELINE_FROM_CHARACTERS). */
  pipelineFrom?: number;
  /** The old placeholder way with required terms (see above): for comparisons only. */
  protectTerms?: boolean;
}

/**
 * A batch this long goes through a warm pipeline: a document's batch (25 paragraphs) always, a
 * sentence or two typed in the text screen never (APy answers those as fast, with no pipeline of
 * its own to keep per direction).
 */
export const PIPELINE_FROM_CHARACTERS = 1000;

const TEXT_SEPARATOR = '\n\n';

/** Words Apertium leaves as they are (unknown to every dictionary), one per required term. */
const termToken = (n: number) => `Xlpterm${n}x`;
const TERM_TOKEN = /Xlpterm(\d+)x/g;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The segments with each required term's occurrences (case-insensitive, whole words; CJK without word
 * edges) replaced by placeholders, and a function putting the terms' translations in their place.
 */
export function protectTerms(segments: string[], terms: Array<{ source: string; target: string }>): { segments: string[]; restore(text: string): string } {
  const usable = [...terms].filter((t) => t.source.trim() && t.target.trim()).sort((a, b) => b.source.length - a.source.length);
  if (!usable.length) return { segments, restore: (text) => text };
  const patterns = usable.map((t) => {
    const body = escapeRegExp(t.source.trim()).replace(/\s+/g, '\\s+');
    const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(t.source);
    return new RegExp(cjk ? body : `(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'giu');
  });
  const protectedSegments = segments.map((segment) => patterns.reduce((out, re, i) => out.replace(re, termToken(i)), segment));
  return { segments: protectedSegments, restore: (text) => text.replace(TERM_TOKEN, (whole, n: string) => usable[Number(n)]?.target ?? whole) };
}
const BLOCK = /<p>([\s\S]*?)<\/p>/g;

interface ApyReply {
  responseData?: { translatedText?: unknown } | null;
  responseStatus?: number;
  explanation?: string;
  message?: string;
}

export function createApertiumAdapter(options: ApertiumOptions): EngineAdapter {
  const base = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function call(langpair: string, q: string, format: 'text' | 'html', signal?: AbortSignal): Promise<string> {
    const body = new URLSearchParams({ langpair, q, markUnknown: 'no', format: format === 'html' ? 'html' : 'txt' });
    const res = await engineFetch(`${base}/translate`, { method: 'POST', body, timeoutMs, signal });
    const reply = checkReply(res, 'translate') as ApyReply;
    const text = reply.responseData?.translatedText;
    if (typeof text !== 'string') throw new EngineError('bad-response', 'APy /translate: no translatedText', res.status);
    return text;
  }

  async function translateJoined(langpair: string, segments: string[], format: 'text' | 'html', signal?: AbortSignal): Promise<string[] | null> {
    if (format === 'text') {
      if (segments.some((s) => s.includes(TEXT_SEPARATOR))) return null;
      const parts = (await call(langpair, segments.join(TEXT_SEPARATOR), format, signal)).split(TEXT_SEPARATOR);
      return parts.length === segments.length ? parts : null;
    }
    if (segments.some((s) => /<\/?p[\s>]/i.test(s))) return null;
    const out = await call(langpair, segments.map((s) => `<p>${s}</p>`).join(''), format, signal);
    const parts = [...out.matchAll(BLOCK)].map((m) => m[1]);
    return parts.length === segments.length ? parts : null;
  }

  /** The batch through a warm pipeline, or null when none can take it (APy then does). */
  async function viaPipeline(direction: string, segments: string[], format: 'text' | 'html', signal?: AbortSignal): Promise<string[] | null> {
    const pipeline = await options.pipelines?.get(direction);
    if (!pipeline || signal?.aborted) return null;
    if (format === 'text') {
      const out = await pipeline.run(Buffer.from(segments.map((s) => `${toStream(s)}\0`).join('')), segments.length, timeoutMs);
      return out.map((b) => fromStream(b.toString('utf8')));
    }
    if (segments.some((s) => /<\/?p[\s>]/i.test(s))) return null;
    // Transfuse, as the CLI and our APy launcher use it: inline tags stay with their words.
    return inScratch(async (dir) => {
      const state = ['-f', 'html-fragment', '-d', `${dir}/state`];
      const extracted = (await runTool('tf-extract', state, { input: segments.map((s) => `<p>${s}</p>`).join(''), timeoutMs, signal })).stdout;
      const stream = extracted.endsWith('\0') ? extracted : `${extracted}\0`;
      const pieces = stream.split('\0').length - 1;
      const out = await pipeline.run(Buffer.from(stream), pieces, timeoutMs);
      const translated = `${out.map((b) => b.toString('utf8')).join('\0')}\0`;
      const injected = (await runTool('tf-inject', state, { input: translated, timeoutMs, signal })).stdout;
      const parts = [...injected.matchAll(BLOCK)].map((m) => m[1]!);
      return parts.length === segments.length ? parts : null;
    });
  }

  return {
    kind: 'apertium',

    async languagePairs(): Promise<LanguagePair[]> {
      const res = await engineFetch(`${base}/listPairs`, { timeoutMs });
      const reply = checkReply(res, 'listPairs') as { responseData?: unknown };
      if (!Array.isArray(reply.responseData)) throw new EngineError('bad-response', 'APy /listPairs: no pair list', res.status);
      return reply.responseData.map((p: { sourceLanguage: string; targetLanguage: string }) => ({
        source: fromApertiumCode(p.sourceLanguage),
        target: fromApertiumCode(p.targetLanguage),
      }));
    },

    async health(): Promise<EngineHealth> {
      const started = performance.now();
      try {
        const pairs = await this.languagePairs();
        const latencyMs = Math.round(performance.now() - started);
        return pairs.length ? { ok: true, latencyMs } : { ok: false, detail: 'no language pairs installed', latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },

    async translate(batch: TranslateBatch, signal?: AbortSignal): Promise<string[]> {
      if (batch.format === 'html' && options.htmlUnavailable) throw new EngineError('unsupported-format', `Apertium cannot translate html here: ${options.htmlUnavailable}`);
      const langpair = `${toApertiumCode(batch.source)}|${toApertiumCode(batch.target)}`;
      const out = batch.segments.map(() => '');
      // Blank segments need no engine, and would shift the joined text's blocks.
      const todo = batch.segments.map((s, i) => ({ s, i })).filter(({ s }) => s.trim() !== '');
      if (todo.length === 0) return out;
      const terms = protectTerms(
        todo.map(({ s }) => s.trim()),
        options.protectTerms ? (batch.terms ?? []) : [],
      );
      const sources = terms.segments;
      const large = options.pipelines && sources.reduce((n, s) => n + s.length, 0) >= (options.pipelineFrom ?? PIPELINE_FROM_CHARACTERS);
      // A pipeline's failure is not the node's: APy, the node itself, answers instead.
      const piped = large ? await viaPipeline(`${batch.source}|${batch.target}`, sources, batch.format, signal).catch(() => null) : null;
      const joined = piped ?? (await translateJoined(langpair, sources, batch.format, signal));
      const results =
        joined ?? (await mapLimit(sources, options.fallbackConcurrency ?? 4, (s) => call(langpair, s, batch.format, signal)));
      todo.forEach(({ s, i }, k) => {
        out[i] = keepOuterWhitespace(s, terms.restore(results[k]!));
      });
      return out;
    },
  };
}

/** APy answers errors as `{status: 'error', code, message, explanation}` with the HTTP status. */
function checkReply(res: EngineResponse, what: string): unknown {
  const reply = parseJson(res, `APy /${what}`) as ApyReply;
  if (res.status === 200) return reply;
  const why = reply?.explanation ?? reply?.message ?? `HTTP ${res.status}`;
  if (res.status === 400 && /not installed|pair is invalid/i.test(why)) throw new EngineError('unsupported-pair', `APy: ${why}`, res.status);
  throw errorForStatus(res.status, `APy /${what}: ${why}`);
}
