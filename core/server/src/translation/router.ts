import { ApiError, languageName, type EngineChoice, type EngineLanguage, type Logger } from '@linguaport/sdk/server';
import { failsNode, isEngineError } from './adapter.js';
import type { NodeRuntime } from './node-runtime.js';
import type { EngineRow, NodeSupervisor } from './node-supervisor.js';
import type { SegmentEngine } from './pipeline.js';

/**
 * Routing and fail-over for translation: each batch goes to an enabled, unexpired engine for the
 * pair and domain, on the least busy of its healthy nodes, and on to the next node when one fails.
 * Only the node's own failures (unreachable, time-out) mark it unhealthy; a failure caused by the
 * request (the engine refused this text, a format it cannot take) fails that request alone with
 * 400/500 (`failsNode` in adapter.ts is the rule). With no node left the answer is 503.
 */

export const SERVICE_INTERRUPTED = 'Service interrupted: no translation node is available right now. Try again later.';

/** Why one request failed without any node being at fault; `data.reason` of the ApiError. */
export type RequestFailure = 'format-unavailable' | 'engine-refused' | 'engine-failed';

export const REQUEST_FAILURE_MESSAGES: Record<RequestFailure, { 'zh-CN': string; 'en-US': string }> = {
  'format-unavailable': { 'zh-CN': '当前无法翻译此格式', 'en-US': 'This format cannot be translated right now' },
  'engine-refused': { 'zh-CN': '翻译引擎拒绝了此文本', 'en-US': 'The translation engine refused this text' },
  'engine-failed': { 'zh-CN': '翻译引擎无法翻译此文本', 'en-US': 'The translation engine could not translate this text' },
};

/** The engine stage of one request, and the engine and node that answered its last batch. */
export type RoutedEngine = SegmentEngine & { used(): { engineId: number; nodeId: number } };

export interface TranslationRouter {
  /** The engine stage of one request (see `route` below). */
  route(source: string, target: string, domain: string | undefined, signal: AbortSignal, engineId?: number): RoutedEngine;
  /** Refuses (400, both languages) an `engineId` the request may not name; nothing is translated or counted. */
  checkChosenEngine(engineId: number, source: string, target: string, domain?: string): void;
  /** The engines a request may name for the pair and domain, and whether one of their nodes is ready. */
  choices(request: { source: string; target: string; domain?: string }): EngineChoice[];
  /** The directions healthy nodes of live engines translate now, sorted. */
  languages(): EngineLanguage[];
}

export interface TranslationRouterOptions {
  supervisor: NodeSupervisor;
  logger: Logger;
  now: () => Date;
}

/** What the caller is told when the request itself failed (no node at fault). */
export function requestFailure(err: Error): ApiError {
  const reason: RequestFailure =
    isEngineError(err) && err.kind === 'unsupported-format'
      ? 'format-unavailable'
      : isEngineError(err) && err.status !== undefined && err.status >= 400 && err.status < 500
        ? 'engine-refused'
        : 'engine-failed';
  const detail = err.message.split('\n')[0];
  return new ApiError(reason === 'engine-failed' ? 500 : 400, `${REQUEST_FAILURE_MESSAGES[reason]['en-US']}: ${detail}`, { reason, detail });
}

export function createTranslationRouter(options: TranslationRouterOptions): TranslationRouter {
  const { supervisor, logger, now } = options;
  const { runtimes } = supervisor;
  /** Turns among candidates that tie (same domain rank, same load). */
  let rr = 0;

  function liveEngines(): EngineRow[] {
    const t = now().getTime();
    return supervisor.engines.filter((e) => e.enabled && (!e.expires_at || new Date(e.expires_at).getTime() > t));
  }

  function serves(engine: EngineRow, source: string, target: string): boolean {
    return (!engine.source_language || engine.source_language === source) && (!engine.target_language || engine.target_language === target);
  }

  /** Candidate (engine, node) pairs for a direction, best first: domain match, then fewest in flight. Only `engineId`'s nodes when given. */
  function candidates(source: string, target: string, domain?: string, engineId?: number): { engine: EngineRow; node: NodeRuntime }[] {
    const out: { engine: EngineRow; node: NodeRuntime; rank: number }[] = [];
    for (const engine of liveEngines()) {
      if (engineId !== undefined && engine.id !== engineId) continue;
      if (!serves(engine, source, target)) continue;
      if (domain && engine.domain && engine.domain !== domain) continue;
      for (const id of engine.node_ids) {
        const node = runtimes.get(id);
        if (!node || !node.healthy) continue;
        if (!node.pairs.some((p) => p.source === source && p.target === target)) continue;
        out.push({ engine, node, rank: domain && engine.domain === domain ? 0 : 1 });
      }
    }
    rr++;
    return out
      .map((c, i) => ({ ...c, tie: (i + rr) % Math.max(1, out.length) }))
      .sort((a, b) => a.rank - b.rank || a.node.inFlight - b.node.inFlight || a.tie - b.tie);
  }

  /** Whether a node of `engine` translates the direction (as last seen when it is not running). */
  function engineKnows(engine: EngineRow, source: string, target: string): boolean {
    return engine.node_ids.some((id) => (runtimes.get(id)?.pairs ?? (supervisor.nodePairs.get(id) || [])).some((p) => p.source === source && p.target === target));
  }

  /** Every direction some engine could serve if its nodes were up (to tell 400 from 503). */
  function knownDirection(source: string, target: string): boolean {
    return liveEngines().some((e) => serves(e, source, target) && engineKnows(e, source, target));
  }

  /** The engines automatic routing could use for the request: the only ones a caller may name. */
  function choosable(source: string, target: string, domain?: string): EngineRow[] {
    return liveEngines().filter((e) => serves(e, source, target) && !(domain && e.domain && e.domain !== domain) && engineKnows(e, source, target));
  }

  function checkChosenEngine(engineId: number, source: string, target: string, domain?: string): void {
    if (!Number.isSafeInteger(engineId) || engineId <= 0) throw new ApiError(400, { 'zh-CN': '翻译引擎编号无效', 'en-US': 'The translation engine id is invalid' });
    const engine = supervisor.engines.find((e) => e.id === engineId);
    if (!engine) throw new ApiError(400, { 'zh-CN': `找不到编号为 ${engineId} 的翻译引擎`, 'en-US': `No translation engine with id ${engineId}` }, { reason: 'noSuchEngine', engineId });
    if (!liveEngines().includes(engine)) throw new ApiError(400, { 'zh-CN': `翻译引擎 ${engine.name} 已停用或已过期`, 'en-US': `The translation engine ${engine.name} is disabled or expired` }, { reason: 'engineDisabled', engineId });
    if (!choosable(source, target, domain).includes(engine)) {
      const from = languageName(source);
      const to = languageName(target);
      throw new ApiError(400, { 'zh-CN': `翻译引擎 ${engine.name} 不能将 ${from} 翻译为 ${to}${domain ? `（领域 ${domain}）` : ''}`, 'en-US': `The translation engine ${engine.name} does not translate ${from} into ${to}${domain ? ` (domain ${domain})` : ''}` }, { reason: 'engineNotForPair', engineId });
    }
  }

  function choices(request: { source: string; target: string; domain?: string }): EngineChoice[] {
    return choosable(request.source, request.target, request.domain || undefined).map((e) => ({
      id: e.id,
      name: e.name,
      domain: e.domain,
      ready: e.node_ids.some((id) => {
        const node = runtimes.get(id);
        return !!node?.healthy && node.pairs.some((p) => p.source === request.source && p.target === request.target);
      }),
    }));
  }

  function languages(): EngineLanguage[] {
    const map = new Map<string, Set<string>>();
    for (const engine of liveEngines()) {
      for (const id of engine.node_ids) {
        const node = runtimes.get(id);
        if (!node?.healthy) continue;
        for (const p of node.pairs) {
          if (!serves(engine, p.source, p.target)) continue;
          if (!map.has(p.source)) map.set(p.source, new Set());
          map.get(p.source)!.add(p.target);
        }
      }
    }
    return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([code, t]) => ({ code, targets: [...t].sort() }));
  }

  /**
   * The engine stage of one request: each batch goes to the best (engine, node) for the pair and
   * domain, and on to the next when a node fails. A node's own failure marks it unhealthy; a failure
   * caused by the batch (the engine refused this text) leaves it healthy and fails the request alone.
   */
  function route(source: string, target: string, domain: string | undefined, signal: AbortSignal, engineId?: number): RoutedEngine {
    let used = { engineId: 0, nodeId: 0 };
    return {
      used: () => used,
      async translate(batch) {
        const tried = new Set<number>();
        let lastError: Error | null = null;
        /** A failure caused by this request (no node at fault): what the caller is told. */
        let requestError: Error | null = null;
        for (;;) {
          const pick = candidates(source, target, domain, engineId).find((c) => !tried.has(c.node.spec.id));
          if (!pick) break;
          tried.add(pick.node.spec.id);
          pick.node.inFlight++;
          try {
            const targets = await pick.node.adapter.translate(batch, signal);
            used = { engineId: pick.engine.id, nodeId: pick.node.spec.id };
            return { targets, origin: { kind: 'engine', ...used } };
          } catch (err) {
            lastError = err as Error;
            if (signal.aborted) break;
            if (isEngineError(err) && err.kind === 'unsupported-pair') continue;
            if (!failsNode(err)) {
              // The node answered, about this text: it stays healthy for everyone else.
              requestError = err as Error;
              logger.info(`translation node ${pick.node.spec.id} could not translate a request`, { error: (err as Error).message });
              continue;
            }
            pick.node.healthy = false;
            pick.node.lastError = (err as Error).message;
            logger.warn(`translation node ${pick.node.spec.id} failed; trying another`, { error: (err as Error).message });
            await supervisor.saveHealth(pick.node.spec.id, 'unhealthy', pick.node.lastError).catch(() => {});
          } finally {
            pick.node.inFlight--;
          }
        }
        if (tried.size === 0 && !knownDirection(source, target)) throw new ApiError(400, `No engine translates ${source} to ${target}`);
        if (requestError && !signal.aborted) throw requestFailure(requestError);
        if (lastError) logger.warn('translation failed on every node', { error: lastError.message });
        throw new ApiError(503, SERVICE_INTERRUPTED);
      },
    };
  }

  return { route, checkChosenEngine, choices, languages };
}
