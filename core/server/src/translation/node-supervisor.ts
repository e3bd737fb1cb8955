import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import { ApiError, type EngineNodeStatus, type Logger } from '@linguaport/sdk/server';
import { describeMissingTools, featureUnavailable, type ToolFeature, type ToolStatus } from '../preflight.js';
import type { LanguagePair } from './adapter.js';
import { noAdapterReason, type AdapterRegistry } from './adapters.js';
import { EngineProcessRegistry } from './engine-processes.js';
import type { NodeSecrets } from './node-secrets.js';
import { stopNodeRuntime, type NodeRuntime, type NodeSpec, type NodeStartContext } from './node-runtime.js';

/**
 * The node supervisor: keeps a runtime per started node, starts the nodes left running (at
 * start-up or on first use), runs a health round per node on an interval (never two at once for
 * one node), and restarts a node whose local process crashed with a bounded exponential backoff.
 * It also holds what the router reads: the engines, the node rows, and the pairs and languages
 * each node served at its last good health check.
 */

export interface EngineRow {
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

export interface NodeRow {
  id: number;
  container_name: string | null;
  kind: string;
  /** The node's own fields for its adapter; secrets sealed (the definition names them). */
  config: Record<string, unknown>;
  desired_state: 'running' | 'stopped';
}

export interface NodeSupervisorOptions {
  db: Kysely<KernelTables>;
  dataDir: string;
  logger: Logger;
  now: () => Date;
  /** A node start waits at most min(deadlineMs, 30 s). */
  deadlineMs: number;
  tools: ToolStatus[];
  adapters: AdapterRegistry;
  secrets: NodeSecrets;
  startRuntime: (spec: NodeSpec, timeoutMs: number, context: NodeStartContext) => Promise<NodeRuntime>;
  backoff: { base: number; max: number };
  autostart: boolean;
  healthIntervalMs: number;
}

export const noSuchNode = (id: number) => new ApiError(404, { 'zh-CN': `找不到编号为 ${id} 的翻译节点`, 'en-US': `No translation node with id ${id}` });

export class NodeSupervisor {
  readonly runtimes = new Map<number, NodeRuntime>();
  /** Node starts in flight. */
  readonly starting = new Map<number, Promise<NodeRuntime>>();
  /** Crashed nodes waiting to be started again: failed attempts so far and when to try next. */
  readonly restarts = new Map<number, { attempts: number; nextAt: number; reason: string }>();
  /** The health round (check or restart) in flight per node: never two at once. */
  readonly rounds = new Map<number, Promise<void>>();
  /** Pairs each node served at its last good health check (to tell 400 from 503). */
  readonly nodePairs = new Map<number, LanguagePair[]>();
  /** Languages each node routed by language took at its last good health check (to tell 400 from 503). */
  readonly nodeLanguages = new Map<number, string[]>();
  engines: EngineRow[] = [];
  nodes = new Map<number, NodeRow>();
  private lazyStarted: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly processes: EngineProcessRegistry;

  constructor(private readonly o: NodeSupervisorOptions) {
    this.processes = new EngineProcessRegistry(o.dataDir);
    o.adapters.onChange((kind, present) => void this.adapterChanged(kind, present));
  }

  /** Ends leftovers of a killed run, loads engines and nodes, and starts the health loop. */
  async start(): Promise<void> {
    const { logger, db } = this.o;
    for (const line of describeMissingTools(this.o.tools)) logger.warn(`missing external tools: ${line}`);
    // Engine processes a killed server left behind (their parent watch normally ends them).
    const leftovers = this.processes.endLeftovers();
    if (leftovers.length) logger.warn(`ended ${leftovers.length} engine process group(s) left by a previous run`, { pids: leftovers });
    await this.load();
    await this.loadKnownPairs();
    // Until a runtime checks them, nodes are not known to be up.
    await db.updateTable('engine_nodes').set({ health: 'stopped' }).where('desired_state', '=', 'stopped').execute();
    if (this.o.autostart) void this.ensureStarted();
    this.timer = setInterval(() => this.healthLoop(), this.o.healthIntervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.starting.values(), ...this.rounds.values()]);
    this.restarts.clear();
    await Promise.all([...this.runtimes.values()].map((r) => stopNodeRuntime(r)));
    this.runtimes.clear();
  }

  /** Re-reads engines and nodes; runtimes of nodes that are gone stop. */
  async load(): Promise<void> {
    const { db } = this.o;
    this.engines = (await db.selectFrom('engines').selectAll().orderBy('id').execute()) as EngineRow[];
    const rows = (await db.selectFrom('engine_nodes').select(['id', 'container_name', 'kind', 'config', 'desired_state']).execute()) as NodeRow[];
    this.nodes = new Map(rows.map((n) => [n.id, n]));
    for (const id of this.restarts.keys()) if (!this.nodes.has(id)) this.restarts.delete(id);
    for (const [id, runtime] of this.runtimes) {
      if (!this.nodes.has(id)) {
        this.runtimes.delete(id);
        await stopNodeRuntime(runtime);
      }
    }
  }

  async loadKnownPairs(): Promise<void> {
    const rows = await this.o.db.selectFrom('engine_nodes').select(['id', 'kind', 'pairs', 'languages']).execute();
    for (const r of rows) {
      this.nodePairs.set(r.id as number, r.pairs as LanguagePair[]);
      // Kept for every node: a language-routed kind's plugin may register its adapter after this runs.
      this.nodeLanguages.set(r.id as number, (r.languages as string[]) ?? []);
    }
  }

  async saveHealth(id: number, health: EngineNodeStatus['health'], lastError: string | null, pairs?: LanguagePair[], languages?: string[]): Promise<void> {
    await this.o.db
      .updateTable('engine_nodes')
      .set({ health, last_error: lastError, last_checked_at: this.o.now(), ...(pairs ? { pairs: JSON.stringify(pairs) } : {}), ...(languages ? { languages: JSON.stringify(languages) } : {}) })
      .where('id', '=', id)
      .execute();
  }

  /** Pipelines a local engine keeps per pair: the largest container count of the engines using the node. */
  private containersOf(nodeId: number): number {
    const counts = this.engines.filter((e) => e.node_ids.includes(nodeId)).map((e) => e.container_count);
    return counts.length ? Math.max(...counts) : 1;
  }

  /** One health check: the adapter's health, its pairs (and a recogniser's languages), saved on the row. */
  private async check(runtime: NodeRuntime): Promise<void> {
    const h = await runtime.adapter.health();
    let pairs = runtime.pairs;
    let spoken = runtime.languages ?? [];
    // A node of a capability routed by language (speech, OCR, speakers, ...) also says which languages it takes.
    const recognizer = runtime.routed ?? null;
    if (h.ok) {
      try {
        pairs = await runtime.adapter.languagePairs();
        if (recognizer) spoken = await recognizer.languages();
      } catch (err) {
        h.ok = false;
        h.detail = (err as Error).message;
      }
    }
    // A local process that died is restarted by the health loop (see crashed()).
    if (runtime.process && !runtime.process.running) {
      h.ok = false;
      h.detail = runtime.lastError ?? `${runtime.processLabel ?? 'engine process'} exited`;
    }
    runtime.healthy = h.ok;
    runtime.pairs = pairs;
    if (h.ok) this.nodePairs.set(runtime.spec.id, pairs);
    if (recognizer) {
      runtime.languages = spoken;
      if (h.ok) this.nodeLanguages.set(runtime.spec.id, spoken);
    }
    runtime.lastError = h.ok ? null : (h.detail ?? 'unhealthy');
    await this.saveHealth(runtime.spec.id, h.ok ? 'healthy' : 'unhealthy', runtime.lastError, h.ok ? pairs : undefined, recognizer && h.ok ? spoken : undefined);
  }

  /** The node's runtime, started (once, however many ask at once) unless it runs. */
  async startNode(id: number): Promise<NodeRuntime> {
    const existing = this.runtimes.get(id);
    if (existing && (!existing.process || existing.process.running)) return existing;
    if (existing) this.runtimes.delete(id);
    const pending = this.starting.get(id);
    if (pending) return pending;
    const row = this.nodes.get(id);
    if (!row) throw noSuchNode(id);
    const registered = this.o.adapters.get(row.kind);
    const definition = registered?.definition;
    const promise = (async () => {
      const spec: NodeSpec = { id, kind: row.kind, name: row.container_name || `#${id}`, config: this.o.secrets.open(row.config, definition), containers: this.containersOf(id) };
      const featureMissing = (feature: string) => featureUnavailable(feature as ToolFeature, this.o.tools);
      const runtime = await this.o.startRuntime(spec, Math.min(this.o.deadlineMs, 30_000), { definition, capability: registered?.capability, featureUnavailable: featureMissing, processes: this.processes, dataDir: this.o.dataDir });
      runtime.process?.onExit((exit) => {
        if (!exit.expected) this.crashed(id, runtime, `${runtime.processLabel ?? 'engine process'} exited (${exit.signal ?? `code ${exit.code}`})`);
      });
      this.runtimes.set(id, runtime);
      await this.check(runtime);
      return runtime;
    })();
    this.starting.set(id, promise);
    try {
      return await promise;
    } catch (err) {
      await this.saveHealth(id, 'unhealthy', (err as Error).message);
      throw err;
    } finally {
      this.starting.delete(id);
    }
  }

  /** Stops a node's runtime once its health round and start in flight have ended. */
  async stopNode(id: number): Promise<void> {
    this.restarts.delete(id);
    await this.rounds.get(id);
    await this.starting.get(id)?.catch(() => {});
    const runtime = this.runtimes.get(id);
    this.runtimes.delete(id);
    if (runtime) await stopNodeRuntime(runtime);
  }

  /**
   * A kind came (a plugin registered its adapter: nodes of it left running start now, once the
   * service has started its nodes) or went (its plugin stopped: its nodes stop and read unavailable).
   */
  private async adapterChanged(kind: string, present: boolean): Promise<void> {
    if (this.closed) return;
    const mine = [...this.nodes.values()].filter((n) => n.kind === kind);
    if (present) {
      if (!this.lazyStarted && !this.o.autostart) return;
      for (const n of mine) {
        if (n.desired_state !== 'running' || this.runtimes.has(n.id)) continue;
        this.restarts.delete(n.id);
        void this.startNode(n.id).catch((err) => this.o.logger.warn(`translation node ${n.id} did not start`, { error: (err as Error).message }));
      }
      return;
    }
    for (const n of mine) {
      this.restarts.delete(n.id);
      await this.starting.get(n.id)?.catch(() => {});
      const runtime = this.runtimes.get(n.id);
      this.runtimes.delete(n.id);
      if (runtime) await stopNodeRuntime(runtime).catch(() => {});
      await this.saveHealth(n.id, 'unhealthy', noAdapterReason(kind)).catch(() => {});
    }
  }

  private delayAfter(attempts: number): number {
    return Math.min(this.o.backoff.max, this.o.backoff.base * 2 ** attempts);
  }

  /** A node's process ended on its own: unhealthy now, started again by the health loop. */
  private crashed(id: number, runtime: NodeRuntime, reason: string): void {
    if (this.closed || this.runtimes.get(id) !== runtime) return;
    runtime.healthy = false;
    runtime.lastError = reason;
    if (!this.restarts.has(id)) this.restarts.set(id, { attempts: 0, nextAt: this.o.now().getTime() + this.delayAfter(0), reason });
    this.o.logger.warn(`translation node ${id} crashed; restarting it`, { error: reason });
    void this.saveHealth(id, 'unhealthy', reason).catch(() => {});
  }

  /** One health round of one node: a due restart of a crashed node, or a health check. */
  private async nodeRound(id: number): Promise<void> {
    const { logger, now } = this.o;
    const restart = this.restarts.get(id);
    if (restart) {
      if (this.nodes.get(id)?.desired_state !== 'running') {
        this.restarts.delete(id);
        return;
      }
      if (now().getTime() < restart.nextAt) return;
      try {
        await this.startNode(id);
        this.restarts.delete(id);
        logger.info(`translation node ${id} restarted`);
      } catch (err) {
        const reason = (err as Error).message.split('\n')[0]!;
        const attempts = restart.attempts + 1;
        this.restarts.set(id, { attempts, nextAt: now().getTime() + this.delayAfter(attempts), reason });
        logger.warn(`translation node ${id} did not restart (attempt ${attempts})`, { error: reason });
      }
      return;
    }
    const runtime = this.runtimes.get(id);
    if (!runtime) return;
    if (runtime.process && !runtime.process.running) {
      this.crashed(id, runtime, runtime.lastError ?? `${runtime.processLabel ?? 'engine process'} exited`);
      return;
    }
    await this.check(runtime);
  }

  /** Runs a round for `id` unless one is in flight (then waits for that one). */
  healthRound(id: number): Promise<void> {
    const running = this.rounds.get(id);
    if (running) return running;
    const round = this.nodeRound(id)
      .catch((err) => this.o.logger.warn(`health round of translation node ${id} failed`, { error: (err as Error).message }))
      .finally(() => this.rounds.delete(id));
    this.rounds.set(id, round);
    return round;
  }

  /** Every interval: a round for each node that has none in flight (an APy start can take 20 s). */
  private healthLoop(): void {
    if (this.closed) return;
    for (const id of new Set([...this.runtimes.keys(), ...this.restarts.keys()])) if (!this.rounds.has(id)) void this.healthRound(id);
  }

  /** Nodes left running start on first use when not at start-up (tests, short-lived kernels). */
  ensureStarted(): Promise<void> {
    this.lazyStarted ??= (async () => {
      await Promise.all(
        [...this.nodes.values()]
          // A kind whose plugin has not registered it yet (the kernel starts before its plugins) starts when it does.
          .filter((n) => n.desired_state === 'running' && !this.runtimes.has(n.id) && this.o.adapters.get(n.kind))
          .map((n) => this.startNode(n.id).catch((err) => this.o.logger.warn(`translation node ${n.id} did not start`, { error: (err as Error).message }))),
      );
    })();
    return this.lazyStarted;
  }

  /** A node's status as this process sees it (404 for an unknown node). */
  status(id: number): EngineNodeStatus {
    const r = this.runtimes.get(id);
    const row = this.nodes.get(id);
    if (!row) throw noSuchNode(id);
    const restart = this.restarts.get(id);
    const unavailable = this.o.adapters.get(row.kind) ? null : noAdapterReason(row.kind);
    return {
      id,
      running: !!r && (!r.process || r.process.running),
      health: restart || (unavailable && row.desired_state === 'running') ? 'unhealthy' : r ? (r.healthy ? 'healthy' : 'unhealthy') : 'stopped',
      lastError: unavailable ?? restart?.reason ?? r?.lastError ?? null,
      pairs: r?.pairs ?? [],
      inFlight: r?.inFlight ?? 0,
      restart: restart ? { attempts: restart.attempts, nextAttemptAt: new Date(restart.nextAt).toISOString() } : null,
      unavailable,
    };
  }
}
