import { EngineError, type EngineAdapter, type TermRequirement } from './adapter.js';
import { mapLimit } from './http.js';
import { segmentText, type Piece } from './segment-text.js';

/**
 * The translate pipeline: text -> sentence segments -> hooks -> engine batches -> hooks ->
 * the same text with each segment replaced by its translation. Everything that is not a
 * segment (whitespace, line breaks, block markup) is copied through untouched.
 */

export interface TranslateRequest {
  text: string;
  source: string;
  target: string;
  format: 'text' | 'html';
  domain?: string;
}

/** What hooks see and may add to (e.g. a term hook pushes the terms the engine should honour). */
export interface TranslateContext {
  readonly source: string;
  readonly target: string;
  readonly format: 'text' | 'html';
  readonly domain?: string;
  /** Required terms passed to every engine batch. */
  terms: TermRequirement[];
  readonly signal?: AbortSignal;
}

export interface PipelineSegment {
  readonly source: string;
  /** Set by a `beforeEngine` hook (TM exact match, ...) to keep the segment from the engine. */
  target?: string;
}

/**
 * Extension points. `beforeEngine` may fill `target` on some segments; `afterEngine` sees every
 * segment with its target and may rewrite it. Hooks run in the order given.
 */
export interface TranslateHook {
  name?: string;
  beforeEngine?(segments: PipelineSegment[], ctx: TranslateContext): void | Promise<void>;
  afterEngine?(segments: Required<PipelineSegment>[], ctx: TranslateContext): void | Promise<void>;
}

export interface PipelineOptions {
  engine: EngineAdapter;
  hooks?: TranslateHook[];
  /** Segments per engine request (default 25). */
  chunkSize?: number;
  /** Engine requests in flight at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
}

export interface TranslatedSegment {
  source: string;
  target: string;
  from: 'engine' | 'hook';
}

export interface TranslateResult {
  text: string;
  segments: TranslatedSegment[];
  /** Characters (code points) of translatable text, without html tags: what usage counts. */
  characters: number;
}

export async function translateText(request: TranslateRequest, options: PipelineOptions): Promise<TranslateResult> {
  const pieces: Piece[] = [...segmentText(request.text, request.format, request.source)];
  const segments: PipelineSegment[] = [];
  for (const p of pieces) if ('segment' in p) segments.push({ source: p.segment });

  const ctx: TranslateContext = {
    source: request.source,
    target: request.target,
    format: request.format,
    domain: request.domain,
    terms: [],
    signal: options.signal,
  };
  const hooks = options.hooks ?? [];
  for (const hook of hooks) await hook.beforeEngine?.(segments, ctx);
  const from = segments.map((s) => (s.target === undefined ? 'engine' : 'hook') as TranslatedSegment['from']);

  const pending = segments.map((_, i) => i).filter((i) => from[i] === 'engine');
  const size = Math.max(1, options.chunkSize ?? 25);
  const chunks: number[][] = [];
  for (let i = 0; i < pending.length; i += size) chunks.push(pending.slice(i, i + size));
  await mapLimit(chunks, options.concurrency ?? 4, async (chunk) => {
    const sources = chunk.map((i) => segments[i].source);
    const out = await options.engine.translate(
      { source: request.source, target: request.target, segments: sources, format: request.format, domain: request.domain, terms: ctx.terms },
      options.signal,
    );
    if (!Array.isArray(out) || out.length !== sources.length) {
      throw new EngineError('bad-response', `${options.engine.kind} returned ${Array.isArray(out) ? out.length : 'no'} outputs for ${sources.length} segments`);
    }
    chunk.forEach((i, k) => {
      segments[i].target = out[k];
    });
  });

  const done = segments as Required<PipelineSegment>[];
  for (const hook of hooks) await hook.afterEngine?.(done, ctx);

  let text = '';
  let n = 0;
  for (const p of pieces) text += 'raw' in p ? p.raw : done[n++].target;
  let characters = 0;
  for (const s of done) characters += countCharacters(s.source, request.format);
  return { text, segments: done.map((s, i) => ({ source: s.source, target: s.target, from: from[i] })), characters };
}

function countCharacters(source: string, format: 'text' | 'html'): number {
  const visible = format === 'html' ? source.replace(/<[^>]*>/g, '') : source;
  let n = 0;
  for (const _ of visible) n++;
  return n;
}
