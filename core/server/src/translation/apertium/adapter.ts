import { EngineError, errorForStatus, keepOuterWhitespace, type EngineAdapter, type EngineHealth, type LanguagePair, type TranslateBatch } from '../adapter.js';
import { engineFetch, mapLimit, parseJson, trimSlash, type EngineResponse } from '../http.js';
import { fromApertiumCode, toApertiumCode } from '../languages.js';

/**
 * The built-in engine: Apertium through an APy (normally the managed one from apy-process.ts).
 *
 * APy reads one `q` per request, so a batch travels as one joined text and is split back:
 * text segments joined by a blank line (`format=txt`), html segments each wrapped in `<p>` (a
 * Transfuse block, `format=html`). Both keep sentences apart, so the output equals translating
 * each segment alone. A segment that contains the separator, or an answer that splits into
 * the wrong count, falls back to one request per segment. Apertium has no notion of domain.
 *
 * Required terms (a term base's, through the pipeline's terms stage) are protected: each occurrence of
 * a term's source becomes a placeholder word Apertium does not know and passes through unchanged
 * (`Xlpterm7x`), and the placeholder becomes the term's translation in the output, so the term comes
 * out as the term base says whatever Apertium's dictionaries hold.
 */

export interface ApertiumOptions {
  /** APy base URL, e.g. `http://127.0.0.1:2737`. */
  url: string;
  timeoutMs?: number;
  /** Parallel requests when a batch falls back to one request per segment. */
  fallbackConcurrency?: number;
  /** Why html cannot be translated on this machine (its tools are missing), or null/undefined. */
  htmlUnavailable?: string | null;
}

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
        batch.terms ?? [],
      );
      const sources = terms.segments;
      const joined = await translateJoined(langpair, sources, batch.format, signal);
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
