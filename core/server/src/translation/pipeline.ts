import type {
  PipelineContext,
  PipelineSegment,
  SegmentIssue,
  SegmentOrigin,
  TranslateHook,
  TranslationChannel,
  TranslationResources,
} from '@linguaport/sdk/server';
import { EngineError, type EngineAdapter, type TranslateBatch } from './adapter.js';
import { mapLimit } from './http.js';
import { segmentText, type Piece } from './segment-text.js';
import { countCharacters } from './usage.js';

export type { TranslateHook } from '@linguaport/sdk/server';

/**
 * The translate pipeline: units (or a text cut into sentence segments) -> beforeEngine hooks ->
 * terms hooks -> engine batches -> afterEngine hooks -> afterTranslation hooks. For a text, everything
 * that is not a segment (whitespace, line breaks, block markup) is copied through untouched.
 * The stages and the hook contract are the SDK's (`@linguaport/sdk/server`, pipeline.ts).
 */

export interface TranslateRequest {
  text: string;
  source: string;
  target: string;
  format: 'text' | 'html';
  domain?: string;
}

/** Who asks and with which resources; defaults for callers that have none (tests, tools). */
export interface RequestParty {
  callerId?: number;
  channel?: TranslationChannel;
  resources?: TranslationResources;
}

/** The engine stage as the pipeline sees it: a batch in, targets and where they came from out. */
export interface SegmentEngine {
  translate(batch: TranslateBatch, signal?: AbortSignal): Promise<{ targets: string[]; origin: SegmentOrigin }>;
}

export interface PipelineOptions {
  /** A single adapter (tests, tools)... */
  engine?: EngineAdapter;
  /** ...or the kernel's routing with fail-over. */
  route?: SegmentEngine;
  hooks?: readonly TranslateHook[];
  /** Segments per engine request (default 25). */
  chunkSize?: number;
  /** Engine requests in flight at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
}

export interface TranslatedSegment {
  id: string;
  source: string;
  target: string;
  from: 'engine' | 'hook';
  origin: SegmentOrigin;
  issues: SegmentIssue[];
}

export interface TranslateResult {
  text: string;
  segments: TranslatedSegment[];
  /** Characters (code points) of translatable text, without html tags: what usage counts. */
  characters: number;
}

function engineStage(options: PipelineOptions): SegmentEngine {
  if (options.route) return options.route;
  const adapter = options.engine;
  if (!adapter) throw new Error('the pipeline needs an engine or a route');
  return {
    async translate(batch, signal) {
      return { targets: await adapter.translate(batch, signal), origin: { kind: 'engine', engineId: 0, nodeId: 0 } };
    },
  };
}

/** Units in, units out, through every stage. Segments arrive with ids; their order is kept. */
export async function translateUnits(
  units: readonly { id: string; source: string }[],
  request: Omit<TranslateRequest, 'text'> & RequestParty,
  options: PipelineOptions,
): Promise<{ segments: TranslatedSegment[]; characters: number }> {
  const segments: PipelineSegment[] = units.map((u) => ({ id: u.id, source: u.source, issues: [] }));
  const engine = engineStage(options);
  // Bare phrases (terms' sources) as this request's engine renders them, each asked once per request.
  const rendered = new Map<string, Promise<string>>();
  const renderPhrases = async (phrases: string[]): Promise<string[]> => {
    const ask = [...new Set(phrases.filter((p) => p.trim() && !rendered.has(p)))];
    if (ask.length) {
      const out = engine
        .translate({ source: request.source, target: request.target, segments: ask, format: 'text', domain: request.domain, terms: [], avoidTerms: [] }, options.signal)
        .then((r) => r.targets);
      ask.forEach((p, i) => rendered.set(p, out.then((t) => (typeof t[i] === 'string' ? t[i]! : ''))));
    }
    return Promise.all(phrases.map((p) => rendered.get(p) ?? ''));
  };
  const ctx: PipelineContext = {
    source: request.source,
    target: request.target,
    format: request.format,
    domain: request.domain,
    callerId: request.callerId ?? 0,
    channel: request.channel ?? 'text',
    resources: request.resources ?? {},
    terms: [],
    avoidTerms: [],
    renderPhrases,
    signal: options.signal,
  };
  const hooks = options.hooks ?? [];
  for (const hook of hooks) {
    if (!hook.beforeEngine) continue;
    await hook.beforeEngine(segments, ctx);
    // A hook that filled a target without saying so is named as its origin.
    for (const s of segments) if (s.target !== undefined && !s.origin) s.origin = { kind: 'hook', hook: hook.name };
  }
  const pending = segments.map((_, i) => i).filter((i) => segments[i]!.target === undefined);
  const open = pending.map((i) => segments[i]!);
  for (const hook of hooks) await hook.terms?.(open, ctx);

  const size = Math.max(1, options.chunkSize ?? 25);
  const chunks: number[][] = [];
  for (let i = 0; i < pending.length; i += size) chunks.push(pending.slice(i, i + size));
  await mapLimit(chunks, options.concurrency ?? 4, async (chunk) => {
    const sources = chunk.map((i) => segments[i]!.source);
    const out = await engine.translate(
      { source: request.source, target: request.target, segments: sources, format: request.format, domain: request.domain, terms: ctx.terms, avoidTerms: ctx.avoidTerms },
      options.signal,
    );
    if (!Array.isArray(out.targets) || out.targets.length !== sources.length) {
      throw new EngineError('bad-response', `the engine returned ${Array.isArray(out.targets) ? out.targets.length : 'no'} outputs for ${sources.length} segments`);
    }
    chunk.forEach((i, k) => {
      segments[i]!.target = out.targets[k];
      segments[i]!.origin = out.origin;
    });
  });

  const done = segments as Required<PipelineSegment>[];
  for (const hook of hooks) await hook.afterEngine?.(done, ctx);
  for (const hook of hooks) await hook.afterTranslation?.(done, ctx);

  let characters = 0;
  for (const s of done) characters += countCharacters(s.source, request.format);
  return {
    segments: done.map((s) => ({ id: s.id, source: s.source, target: s.target, from: s.origin.kind === 'hook' ? 'hook' : 'engine', origin: s.origin, issues: s.issues })),
    characters,
  };
}

/** A text: cut into sentence segments (markup and spacing kept aside), translated as units, put back together. */
export async function translateText(request: TranslateRequest & RequestParty, options: PipelineOptions): Promise<TranslateResult> {
  const pieces: Piece[] = [...segmentText(request.text, request.format, request.source)];
  const units: { id: string; source: string }[] = [];
  for (const p of pieces) if ('segment' in p) units.push({ id: String(units.length + 1), source: p.segment });
  const { segments, characters } = await translateUnits(units, request, options);
  let text = '';
  let n = 0;
  for (const p of pieces) text += 'raw' in p ? p.raw : segments[n++]!.target;
  return { text, segments, characters };
}
