/**
 * The engine-facing contract. An engine adapter turns a batch of segments into exactly one
 * translation per segment, in order; everything above it (sentence splitting, hooks, chunking,
 * reassembly) is the pipeline's job, so adapters stay small and interchangeable.
 */

/** A translation direction in platform language codes (`en`, `es`, `zh-CN`, ...). */
export interface LanguagePair {
  source: string;
  target: string;
}

/** A required term: the engine (or the hooks around it) should render `source` as `target`. */
export interface TermRequirement {
  source: string;
  target: string;
}

export interface TranslateBatch {
  source: string;
  target: string;
  segments: string[];
  /** `html`: segments may hold inline tags and entities that must survive translation. */
  format: 'text' | 'html';
  domain?: string;
  terms?: TermRequirement[];
}

export interface EngineHealth {
  ok: boolean;
  detail?: string;
  latencyMs?: number;
}

export interface EngineAdapter {
  /** `apertium`, `libretranslate`, `openai`, ... */
  readonly kind: string;
  languagePairs(): Promise<LanguagePair[]>;
  health(): Promise<EngineHealth>;
  /** One output per segment, same order. Rejects with an `EngineError`. */
  translate(batch: TranslateBatch, signal?: AbortSignal): Promise<string[]>;
}

/**
 * - `unavailable`: the engine could not be reached or refused (down, 5xx, auth, rate limit).
 * - `bad-response`: it answered, but not with what the protocol promises.
 * - `unsupported-pair`: it does not translate this direction.
 * - `timeout`: no answer in time, or the caller gave up (its signal aborted).
 */
export type EngineErrorKind = 'unavailable' | 'bad-response' | 'unsupported-pair' | 'timeout';

export class EngineError extends Error {
  constructor(
    public readonly kind: EngineErrorKind,
    message: string,
    /** HTTP status the engine answered with, when it answered. */
    public readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineError';
  }
}

/** Engines answer for trimmed text; the caller's whitespace around a segment is put back as it was. */
export function keepOuterWhitespace(source: string, translated: string): string {
  const lead = /^\s*/.exec(source)![0];
  const trail = source.length > lead.length ? /\s*$/.exec(source)![0] : '';
  return lead + translated.trim() + trail;
}
