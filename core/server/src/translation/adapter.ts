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
export type { TermRequirement } from '@linguaport/sdk/server';
import type { TermRequirement } from '@linguaport/sdk/server';

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
 * Who a failure is about. The first two are the node's own failures and count against its
 * health (the service marks it unhealthy and fails over); the others are about this request
 * and fail it alone: the node stays healthy and the next user's request goes to it as before.
 *
 * - `unavailable`: the node could not be reached, or refuses everyone (connection refused,
 *   auth, rate limit, a gateway's 502/503/504).
 * - `timeout`: no answer in time, or the caller gave up (its signal aborted).
 * - `rejected`: the engine answered an error for this input (a 4xx, or a 500 for this text).
 * - `bad-response`: it answered, but not with what the protocol promises.
 * - `unsupported-pair`: it does not translate this direction.
 * - `unsupported-format`: it cannot take this format now (e.g. html without its tools).
 */
export type EngineErrorKind = 'unavailable' | 'timeout' | 'rejected' | 'bad-response' | 'unsupported-pair' | 'unsupported-format';

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

/** True when `err` is the node's own failure (see `EngineErrorKind`): only these mark a node unhealthy. */
export function failsNode(err: unknown): boolean {
  return err instanceof EngineError && (err.kind === 'unavailable' || err.kind === 'timeout');
}

/**
 * The one rule for an engine's HTTP error status, after an adapter has mapped its protocol's
 * own cases (unknown pair, ...): statuses that say the node refuses everyone are `unavailable`;
 * any other error answer is about this request (`rejected`).
 */
export function errorForStatus(status: number, message: string): EngineError {
  const nodeWide = status === 401 || status === 403 || status === 429 || status === 502 || status === 503 || status === 504;
  return new EngineError(nodeWide ? 'unavailable' : 'rejected', message, status);
}

/** Engines answer for trimmed text; the caller's whitespace around a segment is put back as it was. */
export function keepOuterWhitespace(source: string, translated: string): string {
  const lead = /^\s*/.exec(source)![0];
  const trail = source.length > lead.length ? /\s*$/.exec(source)![0] : '';
  return lead + translated.trim() + trail;
}
