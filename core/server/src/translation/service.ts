import type { Kysely } from 'kysely';
import {
  ApiError,
  type DetectedLanguage,
  type EngineLanguage,
  type EngineNodeStatus,
  type EngineService,
  type EngineTranslateRequest,
  type EngineTranslateResult,
  type Logger,
} from '@linguaport/sdk/server';
import { loadSecret } from '../auth/secret.js';
import { EngineError, type LanguagePair } from './adapter.js';
import { verifyLicenceFile } from './licence.js';
import { startNodeRuntime, stopNodeRuntime, type NodeKind, type NodeRuntime, type NodeSpec } from './node-runtime.js';
import { translateText } from './pipeline.js';
import { languageDetector, segmentWords, splitSentences, type LanguageDetector } from './text-tools.js';
import { countCharacters, readNumberSetting, UsageLedger } from './usage.js';

/**
 * The translation service behind `ctx.engines`. It keeps a runtime per started node, picks a
 * node for each request (an enabled, unexpired engine for the pair and domain; among its
 * healthy nodes the least busy), fails over when a node fails (marking it unhealthy for the
 * health loop to retry), and answers 503 "service interrupted" instead of hanging. Local
 * Apertium nodes are APy processes the platform starts and stops; a node left running comes
 * back after a restart (`desired_state`).
 */

export const SERVICE_INTERRUPTED = 'Service interrupted: no translation node is available right now. Try again later.';

export interface TranslationServiceOptions {
  db: Kysely<any>;
  dataDir: string;
  logger: Logger;
  /** System configuration reader (caps); null values fall back to the defaults. */
  readSetting: (key: string) => Promise<string | null>;
  now?: () => Date;
  /** Start nodes left running at start-up now (production); otherwise on first use. */
  autostart?: boolean;
  /** Health-check interval of running nodes. */
  healthIntervalMs?: number;
  /** Whole-request deadline: a translation never waits longer than this. */
  deadlineMs?: number;
}

/** One engine as `GET /api/health` reports it. */
export interface EngineOverview {
  id: number;
  name: string;
  enabled: boolean;
  expired: boolean;
  /** Enabled, unexpired, and a node of it answers its health check. */
  ready: boolean;
  /** A node being started (APy loading its pairs) reads `starting`. */
  nodes: { id: number; kind: string; desired: 'running' | 'stopped'; health: EngineNodeStatus['health'] | 'starting' }[];
}

export interface TranslationService extends EngineService {
  start(): Promise<void>;
  close(): Promise<void>;
  /** The engines and their nodes' health as this process sees them (no engine call). */
  overview(): EngineOverview[];
}

interface EngineRow {
  id: number;
  name: string;
  source_language: string | null;
  target_language: string | null;
  domain: string | null;
  node_ids: number[];
  expires_at: Date | null;
  enabled: boolean;
  container_count: number;
}

interface NodeRow {
  id: number;
  container_name: string | null;
  kind: NodeKind;
  base_url: string | null;
  api_key_sealed: string | null;
  model: string | null;
  languages: string[];
  desired_state: 'running' | 'stopped';
}

export function createTranslationService(options: TranslationServiceOptions): TranslationService {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const deadlineMs = options.deadlineMs ?? 60_000;
  // The server's own secret (DATA_DIR/secret.key, shared with sign-in): node passwords and keys at rest.
  const secret = loadSecret(options.dataDir);
  const open = (sealed: string) => {
    const plain = secret.decrypt(sealed);
    if (plain === null) throw new Error('a sealed node secret cannot be read with this server\'s secret.key');
    return plain;
  };
  const runtimes = new Map<number, NodeRuntime>();
  const starting = new Map<number, Promise<NodeRuntime>>();
  let engines: EngineRow[] = [];
  let nodes = new Map<number, NodeRow>();
  let lazyStarted: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let detector: Promise<LanguageDetector> | null = null;
  let rr = 0;
  const usage = new UsageLedger(db, (err) => logger.error('usage record not written', { error: err.message }));

  async function load(): Promise<void> {
    engines = (await db.selectFrom('engines').selectAll().orderBy('id').execute()) as EngineRow[];
    const rows = (await db.selectFrom('engine_nodes').select(['id', 'container_name', 'kind', 'base_url', 'api_key_sealed', 'model', 'languages', 'desired_state']).execute()) as NodeRow[];
    nodes = new Map(rows.map((n) => [n.id, n]));
    for (const [id, runtime] of runtimes) {
      if (!nodes.has(id)) {
        runtimes.delete(id);
        await stopNodeRuntime(runtime);
      }
    }
  }

  function containersOf(nodeId: number): number {
    const counts = engines.filter((e) => e.node_ids.includes(nodeId)).map((e) => e.container_count);
    return counts.length ? Math.max(...counts) : 1;
  }

  async function saveHealth(id: number, health: EngineNodeStatus['health'], lastError: string | null, pairs?: LanguagePair[]) {
    await db
      .updateTable('engine_nodes')
      .set({ health, last_error: lastError, last_checked_at: now(), ...(pairs ? { pairs: JSON.stringify(pairs) } : {}) })
      .where('id', '=', id)
      .execute();
  }

  async function check(runtime: NodeRuntime): Promise<void> {
    const h = await runtime.adapter.health();
    let pairs = runtime.pairs;
    if (h.ok) {
      try {
        pairs = await runtime.adapter.languagePairs();
      } catch (err) {
        h.ok = false;
        h.detail = (err as Error).message;
      }
    }
    // An APy that died is restarted by the next start; its runtime is gone now.
    if (runtime.apy && !runtime.apy.running) {
      h.ok = false;
      h.detail = `APy exited: ${runtime.apy ? 'crashed' : ''}`;
    }
    runtime.healthy = h.ok;
    runtime.pairs = pairs;
    if (h.ok) nodePairs.set(runtime.spec.id, pairs);
    runtime.lastError = h.ok ? null : (h.detail ?? 'unhealthy');
    await saveHealth(runtime.spec.id, h.ok ? 'healthy' : 'unhealthy', runtime.lastError, h.ok ? pairs : undefined);
  }

  async function startNode(id: number): Promise<NodeRuntime> {
    const existing = runtimes.get(id);
    if (existing && (!existing.apy || existing.apy.running)) return existing;
    if (existing) runtimes.delete(id);
    const pending = starting.get(id);
    if (pending) return pending;
    const row = nodes.get(id);
    if (!row) throw new ApiError(404, `No translation node with id ${id}`);
    const spec: NodeSpec = {
      id,
      kind: row.kind,
      baseUrl: row.base_url,
      apiKey: row.api_key_sealed ? open(row.api_key_sealed) : null,
      model: row.model,
      languages: row.languages,
      containers: containersOf(id),
    };
    const promise = (async () => {
      const runtime = await startNodeRuntime(spec, Math.min(deadlineMs, 30_000));
      await check(runtime);
      runtimes.set(id, runtime);
      return runtime;
    })();
    starting.set(id, promise);
    try {
      return await promise;
    } catch (err) {
      await saveHealth(id, 'unhealthy', (err as Error).message);
      throw err;
    } finally {
      starting.delete(id);
    }
  }

  /** Nodes left running start on first use when not at start-up (tests, short-lived kernels). */
  function ensureStarted(): Promise<void> {
    lazyStarted ??= (async () => {
      await Promise.all(
        [...nodes.values()]
          .filter((n) => n.desired_state === 'running' && !runtimes.has(n.id))
          .map((n) => startNode(n.id).catch((err) => logger.warn(`translation node ${n.id} did not start`, { error: (err as Error).message }))),
      );
    })();
    return lazyStarted;
  }

  function status(id: number): EngineNodeStatus {
    const r = runtimes.get(id);
    const row = nodes.get(id);
    if (!row) throw new ApiError(404, `No translation node with id ${id}`);
    return {
      id,
      running: !!r,
      health: r ? (r.healthy ? 'healthy' : 'unhealthy') : 'stopped',
      lastError: r?.lastError ?? null,
      pairs: r?.pairs ?? [],
      inFlight: r?.inFlight ?? 0,
    };
  }

  function liveEngines(): EngineRow[] {
    const t = now().getTime();
    return engines.filter((e) => e.enabled && (!e.expires_at || new Date(e.expires_at).getTime() > t));
  }

  function serves(engine: EngineRow, source: string, target: string): boolean {
    return (!engine.source_language || engine.source_language === source) && (!engine.target_language || engine.target_language === target);
  }

  /** Candidate (engine, node) pairs for a direction, best first: domain match, then fewest in flight. */
  function candidates(source: string, target: string, domain?: string): { engine: EngineRow; node: NodeRuntime }[] {
    const out: { engine: EngineRow; node: NodeRuntime; rank: number }[] = [];
    for (const engine of liveEngines()) {
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

  /** Every direction some engine could serve if its nodes were up (to tell 400 from 503). */
  function knownDirection(source: string, target: string): boolean {
    return liveEngines().some(
      (e) =>
        serves(e, source, target) &&
        e.node_ids.some((id) => {
          const pairs = (runtimes.get(id)?.pairs ?? (nodePairs.get(id) || []));
          return pairs.some((p) => p.source === source && p.target === target);
        }),
    );
  }
  const nodePairs = new Map<number, LanguagePair[]>();
  async function loadKnownPairs() {
    const rows = await db.selectFrom('engine_nodes').select(['id', 'pairs']).execute();
    for (const r of rows) nodePairs.set(r.id as number, r.pairs as LanguagePair[]);
  }

  async function languages(): Promise<EngineLanguage[]> {
    await ensureStarted();
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

  async function detect(text: string): Promise<DetectedLanguage> {
    const codes = (await languages()).map((l) => l.code);
    detector ??= languageDetector();
    return (await detector).detect(text, codes);
  }

  async function translate(request: EngineTranslateRequest): Promise<EngineTranslateResult> {
    const format = request.format ?? 'text';
    if (typeof request.text !== 'string' || request.text.trim() === '') throw new ApiError(400, 'The source text is required');
    if (!request.target) throw new ApiError(400, 'The target language is required');
    const characters = countCharacters(request.text, format);
    if (request.channel === 'text') {
      const cap = await readNumberSetting(options.readSetting, 'TEXT_TRANSLATION_CAP', 5000);
      if (characters > cap) throw new ApiError(400, `The text has ${characters} characters; the cap for text translation is ${cap}`);
    } else if (request.channel === 'api') {
      const cap = await readNumberSetting(options.readSetting, 'API_TRANSLATION_CAP', 100_000);
      const used = await usage.today(request.callerId, 'api', now());
      if (used + characters > cap) throw new ApiError(429, `API character cap reached: ${used} of ${cap} characters used today, this request has ${characters}`);
    }
    await ensureStarted();
    let source = request.source;
    let detected: DetectedLanguage | undefined;
    if (!source || source === 'auto') {
      detected = await detect(request.text);
      if (detected.language === 'unknown') throw new ApiError(400, 'Could not detect the source language; choose it');
      source = detected.language;
    }
    if (source === request.target) {
      usage.add(request.callerId, request.channel, characters, 0, now());
      return { text: request.text, source, target: request.target, detected, characters, engineId: 0, nodeId: 0 };
    }
    const signal = request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(deadlineMs)]) : AbortSignal.timeout(deadlineMs);
    const tried = new Set<number>();
    let lastError: Error | null = null;
    for (;;) {
      const pick = candidates(source, request.target, request.domain).find((c) => !tried.has(c.node.spec.id));
      if (!pick) break;
      tried.add(pick.node.spec.id);
      pick.node.inFlight++;
      try {
        const result = await translateText({ text: request.text, source, target: request.target, format, domain: request.domain }, { engine: pick.node.adapter, signal });
        usage.add(request.callerId, request.channel, characters, 0, now());
        return { text: result.text, source, target: request.target, detected, characters, engineId: pick.engine.id, nodeId: pick.node.spec.id };
      } catch (err) {
        lastError = err as Error;
        if (signal.aborted) break;
        if (err instanceof EngineError && err.kind === 'unsupported-pair') continue;
        pick.node.healthy = false;
        pick.node.lastError = (err as Error).message;
        logger.warn(`translation node ${pick.node.spec.id} failed; trying another`, { error: (err as Error).message });
        await saveHealth(pick.node.spec.id, 'unhealthy', pick.node.lastError).catch(() => {});
      } finally {
        pick.node.inFlight--;
      }
    }
    if (tried.size === 0 && !knownDirection(source, request.target)) {
      throw new ApiError(400, `No engine translates ${source} to ${request.target}`);
    }
    if (lastError) logger.warn('translation failed on every node', { error: lastError.message });
    throw new ApiError(503, SERVICE_INTERRUPTED);
  }

  async function healthLoop(): Promise<void> {
    for (const runtime of [...runtimes.values()]) {
      if (closed) return;
      if (runtime.apy && !runtime.apy.running) {
        // A crashed APy: start it again (the node is still meant to run).
        runtimes.delete(runtime.spec.id);
        await startNode(runtime.spec.id).catch((err) => logger.warn(`translation node ${runtime.spec.id} did not restart`, { error: (err as Error).message }));
        continue;
      }
      await check(runtime).catch(() => {});
    }
  }

  const service: TranslationService = {
    async start() {
      await load();
      await loadKnownPairs();
      // Until a runtime checks them, nodes are not known to be up.
      await db.updateTable('engine_nodes').set({ health: 'stopped' }).where('desired_state', '=', 'stopped').execute();
      if (options.autostart) void ensureStarted();
      const interval = options.healthIntervalMs ?? 15_000;
      timer = setInterval(() => void healthLoop(), interval);
      timer.unref();
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...starting.values()]);
      await Promise.all([...runtimes.values()].map((r) => stopNodeRuntime(r)));
      runtimes.clear();
      await usage.flush();
    },
    overview() {
      const t = now().getTime();
      return engines.map((e) => {
        const expired = !!e.expires_at && new Date(e.expires_at).getTime() <= t;
        const list = e.node_ids
          .filter((id) => nodes.has(id))
          .map((id) => ({ id, kind: nodes.get(id)!.kind, desired: nodes.get(id)!.desired_state, health: !runtimes.has(id) && starting.has(id) ? ('starting' as const) : status(id).health }));
        return { id: e.id, name: e.name, enabled: e.enabled, expired, ready: e.enabled && !expired && list.some((n) => n.health === 'healthy'), nodes: list };
      });
    },
    translate,
    detect,
    languages,
    split(text, language = 'en') {
      return [...splitSentences(text, language)].map((s) => s.text);
    },
    segment(text, language = 'en') {
      return segmentWords(text, language);
    },
    async recordUsage(userId, channel, characters, documents = 0) {
      usage.add(userId, channel, characters, documents, now());
      await usage.flush();
    },
    nodes: {
      async start(id) {
        await load();
        await db.updateTable('engine_nodes').set({ desired_state: 'running' }).where('id', '=', id).execute();
        nodes.get(id)!.desired_state = 'running';
        try {
          await startNode(id);
        } catch (err) {
          throw new ApiError(503, `The node did not start: ${(err as Error).message.split('\n')[0]}`);
        }
        return status(id);
      },
      async stop(id) {
        await load();
        if (!nodes.has(id)) throw new ApiError(404, `No translation node with id ${id}`);
        await db.updateTable('engine_nodes').set({ desired_state: 'stopped' }).where('id', '=', id).execute();
        nodes.get(id)!.desired_state = 'stopped';
        await starting.get(id)?.catch(() => {});
        const runtime = runtimes.get(id);
        runtimes.delete(id);
        if (runtime) await stopNodeRuntime(runtime);
        await saveHealth(id, 'stopped', null);
        return status(id);
      },
      async check(id) {
        const runtime = runtimes.get(id);
        if (runtime) await check(runtime);
        return status(id);
      },
      status,
      local() {
        const out: { id: number; name: string; pid: number }[] = [];
        for (const [id, r] of runtimes) {
          if (r.apy?.running) out.push({ id, name: nodes.get(id)?.container_name || `#${id}`, pid: r.apy.pid });
        }
        return out;
      },
      async reload() {
        await load();
        await loadKnownPairs();
      },
    },
    async verifyLicence(text) {
      const keys = await db.selectFrom('trusted_licence_keys').select(['name', 'public_key as publicKey']).execute();
      return verifyLicenceFile(text, keys as { name: string; publicKey: string }[], now());
    },
    seal(plain) {
      return secret.encrypt(plain);
    },
  };
  return service;
}
