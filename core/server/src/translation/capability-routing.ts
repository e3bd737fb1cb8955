import { ANY_LANGUAGE, ApiError, languageName, type CapabilityMessages as DeclaredMessages, type CapabilityNodeChoice, type LanguageRoutedAdapter, type Logger } from '@linguaport/sdk/server';
import { failsNode, isEngineError } from './adapter.js';
import type { NodeRuntime } from './node-runtime.js';

/**
 * Routing for the capabilities routed by language (speech, OCR, speakers, a plugin's own): one request goes to a
 * healthy node of the capability that takes its language, the least busy first; a node that fails on
 * its own (unreachable, time-out) is marked unhealthy and the next one is tried; a node that refuses
 * the request (a file it cannot read) leaves it healthy and fails the request alone. With no node for
 * the language at all the answer is 400, with every such node down 503 ("service interrupted").
 * A caller may name the node (`nodeId`): that one or a 400 saying why not. A node whose languages hold
 * `*` (a speaker node) takes any language, and a request for `*` any node.
 */

type Localized = { 'zh-CN': string; 'en-US': string };

/** `en-US` is `en` to an engine that says `en`, and the other way round. */
export const sameLanguage = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase() || a.split('-')[0]!.toLowerCase() === b.split('-')[0]!.toLowerCase();

export interface CapabilityMessages extends DeclaredMessages {
  /** For the logs: `speech`, `ocr`. */
  label: string;
  /** A node of the capability, in both languages (`语音识别节点`, `speech recognition node`). */
  node: Localized;
}

/** A node's row as the router needs it. */
export interface CapabilityNodeRow {
  name: string;
  kind: string;
  /** Left running (a stopped node takes no work). */
  running: boolean;
  /** Its kind's capability, if its adapter is registered. */
  capability: string | undefined;
}

export interface CapabilityRoutingOptions {
  /** The capability's id (`speech`, `ocr`, a plugin's own). */
  capability: string;
  /** The runtimes of started nodes (any capability: the router keeps its own). */
  runtimes(): Iterable<NodeRuntime>;
  /** Every node row by id. */
  rows(): Iterable<[id: number, row: CapabilityNodeRow]>;
  /** The languages a node takes: its runtime's, else those of its last good health check (to tell 400 from 503). */
  languagesOf(id: number): string[];
  /** Marks a node that failed on its own unhealthy (the health loop retries it). */
  failed(node: NodeRuntime, reason: string): Promise<void>;
  logger: Logger;
  messages: CapabilityMessages;
}

export interface RoutedRequest {
  /** The language the node must take (platform code). */
  language: string;
  /** A chosen node: it or 400 (503 when it is down). */
  nodeId?: number;
  signal?: AbortSignal;
}

export type { CapabilityNodeChoice };

export interface CapabilityRouter {
  /** Healthy, running nodes of the capability. */
  nodes(): NodeRuntime[];
  /** Languages some healthy node takes, sorted. */
  languages(): string[];
  /** The nodes left running, with their languages; only those that take `language` when given. */
  choices(language?: string): CapabilityNodeChoice[];
  /** Runs `work` on the best node for the request, failing over; the answer and the node that gave it. */
  run<T>(request: RoutedRequest, work: (node: NodeRuntime) => Promise<T>): Promise<{ value: T; node: NodeRuntime }>;
}

/** The capability's adapter of a runtime, or null (a node of another capability). */
export function routedOf(runtime: NodeRuntime, capability: string): LanguageRoutedAdapter | null {
  return runtime.capability === capability ? (runtime.routed ?? null) : null;
}

export function createCapabilityRouter(options: CapabilityRoutingOptions): CapabilityRouter {
  const { capability, logger, messages } = options;
  const takes = (langs: string[] | undefined, language: string) => (langs ?? []).some((l) => l === ANY_LANGUAGE || language === ANY_LANGUAGE || sameLanguage(l, language));
  const ofCapability = () => [...options.rows()].filter(([, row]) => row.capability === capability);
  const reason = (what: string) => `${capability}${what}`;

  function nodes(): NodeRuntime[] {
    const rows = new Map(options.rows());
    return [...options.runtimes()].filter((r) => routedOf(r, capability) && r.healthy && rows.get(r.spec.id)?.running);
  }

  /** Refuses (400, both languages) a node a request may not name: unknown, of another capability, stopped, or not for the language. */
  function checkChosen(nodeId: number, language: string): void {
    const row = Number.isSafeInteger(nodeId) ? new Map(options.rows()).get(nodeId) : undefined;
    const what = messages.node;
    if (!row || row.capability !== capability) throw new ApiError(400, { 'zh-CN': `找不到编号为 ${nodeId} 的${what['zh-CN']}`, 'en-US': `No ${what['en-US']} with id ${nodeId}` }, { reason: `noSuch${reason('Node').replace(/^./, (c) => c.toUpperCase())}`, nodeId });
    const name = row.name || `#${nodeId}`;
    if (!row.running) throw new ApiError(400, { 'zh-CN': `${what['zh-CN']} ${name} 已停止`, 'en-US': `The ${what['en-US']} ${name} is stopped` }, { reason: reason('NodeStopped'), nodeId });
    if (!takes(options.languagesOf(nodeId), language)) {
      const spoken = languageName(language);
      throw new ApiError(400, { 'zh-CN': `${what['zh-CN']} ${name} 不能识别 ${spoken}`, 'en-US': `The ${what['en-US']} ${name} does not recognise ${spoken}` }, { reason: reason('NodeNotForLanguage'), nodeId });
    }
  }

  return {
    nodes,
    languages() {
      return [...new Set(nodes().flatMap((r) => r.languages ?? []))].sort();
    },
    choices(language) {
      const ready = new Set(nodes().map((r) => r.spec.id));
      return ofCapability()
        .filter(([id, row]) => row.running && (!language || takes(options.languagesOf(id), language)))
        .sort(([a], [b]) => a - b)
        .map(([id, row]) => ({ id, name: row.name || `#${id}`, kind: row.kind, languages: [...options.languagesOf(id)], ready: ready.has(id) }));
    },
    async run(request, work) {
      const { signal, language, nodeId } = request;
      if (nodeId !== undefined) checkChosen(nodeId, language);
      const tried = new Set<number>();
      let requestError: Error | null = null;
      let lastError: Error | null = null;
      for (;;) {
        const pick = nodes()
          .filter((r) => (nodeId === undefined || r.spec.id === nodeId) && !tried.has(r.spec.id) && takes(r.languages, language))
          .sort((a, b) => a.inFlight - b.inFlight)[0];
        if (!pick) break;
        tried.add(pick.spec.id);
        pick.inFlight++;
        try {
          return { value: await work(pick), node: pick };
        } catch (err) {
          lastError = err as Error;
          if (signal?.aborted) break;
          if (isEngineError(err) && err.kind === 'unsupported-pair') continue;
          if (!failsNode(err)) {
            // The node answered, about this input: it stays healthy for everyone else.
            requestError = err as Error;
            logger.info(`${messages.label} node ${pick.spec.id} could not handle a request`, { error: (err as Error).message });
            continue;
          }
          pick.healthy = false;
          pick.lastError = (err as Error).message;
          logger.warn(`${messages.label} node ${pick.spec.id} failed; trying another`, { error: (err as Error).message });
          await options.failed(pick, pick.lastError).catch(() => {});
        } finally {
          pick.inFlight--;
        }
      }
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const known = ofCapability().some(([id]) => takes(options.languagesOf(id), language));
      if (tried.size === 0 && !known) {
        throw new ApiError(400, messages.noEngine(languageName(language)), { reason: `no${capability[0]!.toUpperCase()}${capability.slice(1)}Engine`, language });
      }
      if (requestError) {
        const detail = requestError.message.split('\n')[0]!;
        throw new ApiError(400, messages.refused(detail), { reason: 'engine-refused', detail });
      }
      if (lastError) logger.warn(`${messages.label} failed on every node`, { error: lastError.message });
      throw new ApiError(503, messages.interrupted);
    },
  };
}
