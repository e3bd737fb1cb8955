import { sql, type Kysely } from 'kysely';
import type { ZodObject } from 'zod';
import { languageDisplayName } from '../shared/language-names.js';
import type { TermRequirement } from './pipeline.js';
import type { SpeechAdapter } from './speech.js';
import type { OcrAdapter } from './ocr.js';
import type { SpeakerAdapter } from './speaker.js';
import type { EngineCapabilityDefinition } from './capabilities.js';

/**
 * Engine adapters: the contract between the translation service (routing, fail-over, the usage
 * ledger, all in the kernel) and one kind of engine (Apertium, a LibreTranslate-compatible
 * server, an OpenAI-compatible model server, DeepL's API...). A plugin registers a definition
 * with `ctx.engines.registerAdapter(def)`; the kernel creates one adapter per node of that kind.
 *
 * An adapter turns a batch of segments into exactly one translation per segment, in order;
 * sentence splitting, hooks, chunking and reassembly are the pipeline's job.
 */

/** A translation direction in platform language codes (`en`, `es`, `zh-CN`, ...). */
export interface LanguagePair {
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
  /** Translations the term bases forbid: an engine that takes instructions avoids them. */
  avoidTerms?: TermRequirement[];
}

export interface EngineHealth {
  ok: boolean;
  detail?: string;
  latencyMs?: number;
}

export interface EngineAdapter {
  /** The definition's kind (`libretranslate`, `openai`, `deepl`, ...). */
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
 *   auth, rate limit, an exhausted quota, a gateway's 502/503/504).
 * - `timeout`: no answer in time, or the caller gave up (its signal aborted).
 * - `rejected`: the engine answered an error for this input (a 4xx, or a 500 for this text).
 * - `bad-response`: it answered, but not with what the protocol promises.
 * - `unsupported-pair`: it does not translate this direction.
 * - `unsupported-format`: it cannot take this format now (e.g. html without its tools).
 */
export type EngineErrorKind = 'unavailable' | 'timeout' | 'rejected' | 'bad-response' | 'unsupported-pair' | 'unsupported-format';

const ERROR_KINDS: readonly EngineErrorKind[] = ['unavailable', 'timeout', 'rejected', 'bad-response', 'unsupported-pair', 'unsupported-format'];

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

/** An `EngineError`, also one made by another copy of this module (an uploaded part's own SDK). */
export function isEngineError(err: unknown): err is EngineError {
  if (err instanceof EngineError) return true;
  const e = err as { name?: unknown; kind?: unknown } | null;
  return !!e && e.name === 'EngineError' && ERROR_KINDS.includes(e.kind as EngineErrorKind);
}

/** True when `err` is the node's own failure (see `EngineErrorKind`): only these mark a node unhealthy. */
export function failsNode(err: unknown): boolean {
  return isEngineError(err) && (err.kind === 'unavailable' || err.kind === 'timeout');
}

/**
 * The one rule for an engine's HTTP error status, after an adapter has mapped its protocol's
 * own cases (unknown pair, an exhausted quota...): statuses that say the node refuses everyone
 * are `unavailable`; any other error answer is about this request (`rejected`).
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

/** One HTTP answer of an engine: the status and the body as text, for the adapter to read. */
export interface EngineResponse {
  status: number;
  text: string;
}

/**
 * One HTTP exchange with an engine, with a deadline. Network failures become `unavailable`,
 * the deadline or the caller's abort becomes `timeout`; the body is returned as text with the
 * status so each adapter maps its own protocol's error shapes.
 */
export async function engineFetch(url: string, init: RequestInit & { timeoutMs: number; signal?: AbortSignal }): Promise<EngineResponse> {
  const deadline = AbortSignal.timeout(init.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  if (init.signal?.aborted) throw new EngineError('timeout', `request to ${url} cancelled by the caller`);
  try {
    const res = await fetch(url, { ...init, signal });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    if (signal.aborted) {
      const why = init.signal?.aborted ? 'cancelled by the caller' : `no answer within ${init.timeoutMs} ms`;
      throw new EngineError('timeout', `request to ${url} ${why}`, undefined, { cause: err });
    }
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new EngineError('unavailable', `cannot reach ${url}${code ? ` (${code})` : ''}`, undefined, { cause: err });
  }
}

/** Parse a JSON body or fail with `bad-response` (or, for an error page, by its status). */
export function parseJson(res: EngineResponse, what: string): unknown {
  try {
    return JSON.parse(res.text);
  } catch (err) {
    // An error page (a proxy's 502, a crashed handler's 500) still says whose failure it is.
    if (res.status >= 400) throw errorForStatus(res.status, `${what}: HTTP ${res.status}`);
    throw new EngineError('bad-response', `${what}: answer is not JSON (HTTP ${res.status})`, res.status, { cause: err });
  }
}

/** Run `task` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * Runs at most `parallel` calls of `fn` at once; the others wait their turn in order. A local engine
 * that runs a process per request (pocketsphinx, tesseract) takes as many cores as its node's
 * container count this way.
 */
export function limitConcurrency(parallel: number): <R>(fn: () => Promise<R>) => Promise<R> {
  const most = Math.max(1, parallel);
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= most) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** English name of a platform language, for prompts and lists (`es` -> `Spanish`, `ca-x-valencia` -> `Catalan (Valencian)`). */
export function languageName(code: string): string {
  return languageDisplayName(code, 'en-US');
}

// ---------- registration ----------

/** What an engine does: the id of a registered capability (capabilities.ts); the list is open. */
export type EngineCapability = string;

/** Machine translation: nodes serve engines by language pair (`ctx.engines.translate`). */
export const translateCapability: EngineCapabilityDefinition<EngineAdapter> = {
  id: 'translate',
  name: { 'zh-CN': '机器翻译', 'en-US': 'Machine translation' },
  node: { 'zh-CN': '翻译节点', 'en-US': 'translation node' },
  routing: 'pairs',
  isAdapter: (made): made is EngineAdapter => {
    const a = made as Partial<EngineAdapter> | null;
    return !!a && typeof a.translate === 'function' && typeof a.languagePairs === 'function' && typeof a.health === 'function';
  },
  contract: 'languagePairs, health, translate',
};

type Localized = { 'zh-CN': string; 'en-US': string };

/** One node of an adapter's kind, as the kernel hands it to `create` and `supervise.start`. */
export interface EngineNode<Config> {
  id: number;
  /** The node's name (its container name). */
  name: string;
  /** The node's configuration, validated with the definition's schema, secrets opened. */
  config: Config;
  /** Parallel work the engines of this node ask for (the largest container count among them). */
  containers: number;
}

/** How a supervised local process ended. */
export interface EngineProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** False when the process ended without `stop()`: a crash (the kernel restarts it with backoff). */
  expected: boolean;
  /** The last lines it wrote to stderr, to say why. */
  stderrTail?: string;
}

/** A local engine process the platform started (an APy, a model server...). */
export interface EngineProcess {
  readonly pid: number;
  readonly running: boolean;
  /** Called once when the process ends; returns an unsubscribe. */
  onExit(fn: (exit: EngineProcessExit) => void): () => void;
  stop(): Promise<unknown>;
}

export interface EngineSuperviseHelpers {
  /** The kernel's record of process groups it started: a killed server's leftovers end at the next start. */
  processes: { add(pid: number): void; remove(pid: number): void };
  /** Why `feature` of the start-up tools check is unavailable on this machine (missing programs), or null. */
  featureUnavailable(feature: string): string | null;
  /** Where the kernel keeps its data (the plugin's own files go through ctx.storage). */
  dataDir: string;
}

export interface EngineCreateHelpers<P extends EngineProcess = EngineProcess> {
  /** Per-call deadline for the adapter's requests. */
  timeoutMs: number;
  /** The process `supervise.start` started for this node, or null for a remote node. */
  process: P | null;
  featureUnavailable(feature: string): string | null;
}

/**
 * One kind of engine, registered by the plugin that brings it. `config` describes a node's own
 * fields (base URL, key, model...): the engine-management screens build their form from it and
 * the server validates with it. Fields named in `secrets` are sealed with the server's key when
 * stored, never sent back (the screens see only whether one is set), and opened for `create`.
 */
export interface EngineAdapterDefinition<
  Config extends Record<string, unknown> = any,
  P extends EngineProcess = EngineProcess,
  A = EngineAdapter,
> {
  /** Lower-case id stored in `engine_nodes.kind` (`deepl`, `libretranslate`, `apertium-local`). */
  kind: string;
  name: Localized;
  /**
   * What its nodes do: a capability's declaration (`translateCapability`, `speechCapability`, a
   * plugin's own), registered with the kind, or the id of one already registered.
   */
  capability: EngineCapabilityDefinition<A> | EngineCapability;
  config: ZodObject<any>;
  /** Field names of `config` holding secrets. */
  secrets?: readonly string[];
  /** Labels and help of the config fields, in both locales (the field name when missing). */
  fields?: Record<string, { label: Localized; help?: Localized; placeholder?: string }>;
  /** True when nodes of this kind are local processes the platform starts (no address to give). */
  local?: boolean;
  /**
   * Makes the adapter of one node; throw to report the node unavailable with the reason. It keeps
   * its capability's contract: an `EngineAdapter` for translation, a `SpeechAdapter` (speech.ts) for
   * speech, an `OcrAdapter` (ocr.ts), a `SpeakerAdapter` (speaker.ts), or a plugin capability's own.
   */
  create(node: EngineNode<Config>, helpers: EngineCreateHelpers<P>): A;
  /** For a local engine: starts its process for one node (the kernel stops it, watches it and restarts it). */
  supervise?: {
    /** How the process is named in a node's status (`APy exited (SIGKILL)`). */
    label: string;
    start(node: EngineNode<Config>, helpers: EngineSuperviseHelpers): Promise<P>;
  };
}

/** A definition of any capability, as `registerAdapter` takes it (a speech kind's `create` makes a `SpeechAdapter`, an OCR kind's an `OcrAdapter`). */
export type AnyEngineAdapterDefinition = EngineAdapterDefinition<any, any, any>;

/** A speaker kind's definition (`capability: speakerCapability`). */
export type SpeakerAdapterDefinition<Config extends Record<string, unknown> = any, P extends EngineProcess = EngineProcess> = EngineAdapterDefinition<Config, P, SpeakerAdapter>;

/** A speech kind's definition (`capability: speechCapability`). */
export type SpeechAdapterDefinition<Config extends Record<string, unknown> = any, P extends EngineProcess = EngineProcess> = EngineAdapterDefinition<Config, P, SpeechAdapter>;

/** An OCR kind's definition (`capability: ocrCapability`). */
export type OcrAdapterDefinition<Config extends Record<string, unknown> = any, P extends EngineProcess = EngineProcess> = EngineAdapterDefinition<Config, P, OcrAdapter>;

/** A registered kind as the engine-management screens read it. */
export interface EngineAdapterKind {
  kind: string;
  name: Localized;
  capability: EngineCapability;
  local: boolean;
  /** The plugin that registered it (`core` for the kernel's own). */
  plugin: string;
  /** JSON Schema of the node's config fields (zod's `toJSONSchema`). */
  schema: Record<string, unknown>;
  secrets: string[];
  fields: Record<string, { label: Localized; help?: Localized; placeholder?: string }>;
}

/**
 * The migration that seeds a built-in engine's local node, left running, once: what a plugin that
 * brings a local kind (`tesseract-local`, `voiceprint-local`) ships so it works out of the box. The
 * node table is the kernel's; this is the one place a plugin's migration writes it. After its
 * migrations the plugin calls `ctx.engines.nodes.reload()` before registering the kind.
 */
export function seedLocalNodeMigration(kind: string, languages: readonly string[]): { name: string; up(db: Kysely<any>): Promise<void> } {
  return {
    name: `001_seed_${kind.replace(/-local$/, '').replace(/-/g, '_')}_node`,
    async up(db) {
      await sql`insert into engine_nodes (kind, container_name, ip, desired_state, languages)
                select ${kind}, ${kind}, '127.0.0.1', 'running', ${JSON.stringify(languages)}::jsonb
                where not exists (select 1 from engine_nodes where kind = ${kind})`.execute(db);
    },
  };
}
