import type { Kysely } from 'kysely';
import { DEFAULT_API_TRANSLATION_CAP, DEFAULT_TEXT_TRANSLATION_CAP, fromEngineHtml, needsHtml, toEngineHtml, withoutPlaceholders } from '@linguaport/sdk/shared';
import {
  ANY_LANGUAGE,
  ApiError,
  EngineError,
  languageName,
  type DetectedLanguage,
  type AnyEngineAdapterDefinition,
  type EngineAdapterDefinition,
  type EngineLanguage,
  type EngineNodeStatus,
  type EngineService,
  type EngineTranslateRequest,
  type EngineTranslateResult,
  type Logger,
  type OcrRecognizeResult,
  type OcrService,
  type SpeakerAdapter,
  type SpeakerService,
  type SpeechService,
  type SpeechTranscribeResult,
  type TranslateSegmentsRequest,
  type TranslateSegmentsResult,
} from '@linguaport/sdk/server';
import { loadSecret } from '../auth/secret.js';
import { failsNode, isEngineError, type LanguagePair } from './adapter.js';
import { createAdapterRegistry, noAdapterReason, type AdapterRegistry } from './adapters.js';
import { createCapabilityRouter, sameLanguage, type CapabilityNodeRow, type RecognitionCapability } from './capability-routing.js';
import { EngineProcessRegistry } from './engine-processes.js';
import { checkExternalTools, describeMissingTools, featureUnavailable, type ToolFeature, type ToolStatus } from '../preflight.js';
import { verifyLicenceFile } from './licence.js';
import { startNodeRuntime, stopNodeRuntime, type NodeRuntime, type NodeSpec, type NodeStartContext } from './node-runtime.js';
import { translateText, translateUnits, type SegmentEngine } from './pipeline.js';
import { createHookRegistry, type HookRegistry } from './hooks.js';
import { languageDetector, segmentWords, splitSentences, type LanguageDetector } from './text-tools.js';
import { countCharacters, readNumberSetting, UsageLedger } from './usage.js';

/**
 * The translation service behind `ctx.engines`. It keeps a runtime per started node, picks a
 * node for each request (an enabled, unexpired engine for the pair and domain; among its
 * healthy nodes the least busy), fails over when a node fails (marking it unhealthy for the
 * health loop to retry), and answers 503 "service interrupted" instead of hanging. Only the
 * node's own failures (unreachable, time-out, failed health check) mark it unhealthy; a
 * failure caused by the request (the engine refused this text, a format it cannot take) fails
 * that request alone with 400/500 (`failsNode` in adapter.ts is the rule). Local Apertium
 * nodes are APy processes the platform starts and stops; a node left running comes back after
 * a restart (`desired_state`), and one whose APy crashed is restarted with a bounded
 * exponential backoff. Each node has at most one health round in flight.
 */

export const SERVICE_INTERRUPTED = 'Service interrupted: no translation node is available right now. Try again later.';

/** Why one request failed without any node being at fault; `data.reason` of the ApiError. */
export type RequestFailure = 'format-unavailable' | 'engine-refused' | 'engine-failed';

export const REQUEST_FAILURE_MESSAGES: Record<RequestFailure, { 'zh-CN': string; 'en-US': string }> = {
  'format-unavailable': { 'zh-CN': '当前无法翻译此格式', 'en-US': 'This format cannot be translated right now' },
  'engine-refused': { 'zh-CN': '翻译引擎拒绝了此文本', 'en-US': 'The translation engine refused this text' },
  'engine-failed': { 'zh-CN': '翻译引擎无法翻译此文本', 'en-US': 'The translation engine could not translate this text' },
};

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
  /** External tools as found at start (default: checked now, `checkExternalTools`). */
  tools?: ToolStatus[];
  /** A crashed node's restart delay: `base` doubled per failed attempt, at most `max` (ms). */
  restartBackoffMs?: { base: number; max: number };
  /** Starts a node's runtime (tests replace it; default `startNodeRuntime`). */
  startRuntime?: (spec: NodeSpec, timeoutMs: number, context: NodeStartContext) => Promise<NodeRuntime>;
  /** The engine adapters plugins register (default: a new, empty registry). */
  adapters?: AdapterRegistry;
  /** The pipeline's hooks (plugins register through ctx.pipeline); none by default. */
  hooks?: HookRegistry;
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
  nodes: { id: number; kind: string; desired: 'running' | 'stopped'; health: EngineNodeStatus['health'] | 'starting'; restart: EngineNodeStatus['restart'] }[];
}

export interface TranslationService extends EngineService {
  /** The same service as a plugin sees it: the adapters it registers are named after it and go when it stops. */
  forPlugin(pluginId: string): EngineService;
  /** Removes a stopped plugin's adapters (their nodes stop and read unavailable). */
  dropOwner(pluginId: string): void;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The engines and their nodes' health as this process sees them (no engine call). */
  overview(): EngineOverview[];
  /** The external tools found at start; a missing one makes its feature unavailable. */
  tools(): ToolStatus[];
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
  kind: string;
  /** The node's own fields for its adapter; secrets sealed (the definition names them). */
  config: Record<string, unknown>;
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
  const tools = options.tools ?? checkExternalTools();
  const processes = new EngineProcessRegistry(options.dataDir);
  const startRuntime = options.startRuntime ?? startNodeRuntime;
  const adapters = options.adapters ?? createAdapterRegistry();
  adapters.onChange((kind, present) => void adapterChanged(kind, present));
  const backoff = options.restartBackoffMs ?? { base: 1000, max: 60_000 };
  /** Crashed nodes waiting to be started again: failed attempts so far and when to try next. */
  const restarts = new Map<number, { attempts: number; nextAt: number; reason: string }>();
  /** The health round (check or restart) in flight per node: never two at once. */
  const rounds = new Map<number, Promise<void>>();
  const hooks = options.hooks ?? createHookRegistry();
  const usage = new UsageLedger(db, (err) => logger.error('usage record not written', { error: err.message }));

  async function load(): Promise<void> {
    engines = (await db.selectFrom('engines').selectAll().orderBy('id').execute()) as EngineRow[];
    const rows = (await db.selectFrom('engine_nodes').select(['id', 'container_name', 'kind', 'config', 'desired_state']).execute()) as NodeRow[];
    nodes = new Map(rows.map((n) => [n.id, n]));
    for (const id of restarts.keys()) if (!nodes.has(id)) restarts.delete(id);
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

  async function saveHealth(id: number, health: EngineNodeStatus['health'], lastError: string | null, pairs?: LanguagePair[], languages?: string[]) {
    await db
      .updateTable('engine_nodes')
      .set({ health, last_error: lastError, last_checked_at: now(), ...(pairs ? { pairs: JSON.stringify(pairs) } : {}), ...(languages ? { languages: JSON.stringify(languages) } : {}) })
      .where('id', '=', id)
      .execute();
  }

  async function check(runtime: NodeRuntime): Promise<void> {
    const h = await runtime.adapter.health();
    let pairs = runtime.pairs;
    let spoken = runtime.languages ?? [];
    // A recognition node (speech, OCR, speakers) also says which languages it takes.
    const recognizer = runtime.speech ?? runtime.ocr ?? runtime.speaker;
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
    if (h.ok) nodePairs.set(runtime.spec.id, pairs);
    if (recognizer) {
      runtime.languages = spoken;
      if (h.ok) nodeLanguages.set(runtime.spec.id, spoken);
    }
    runtime.lastError = h.ok ? null : (h.detail ?? 'unhealthy');
    await saveHealth(runtime.spec.id, h.ok ? 'healthy' : 'unhealthy', runtime.lastError, h.ok ? pairs : undefined, recognizer && h.ok ? spoken : undefined);
  }

  async function startNode(id: number): Promise<NodeRuntime> {
    const existing = runtimes.get(id);
    if (existing && (!existing.process || existing.process.running)) return existing;
    if (existing) runtimes.delete(id);
    const pending = starting.get(id);
    if (pending) return pending;
    const row = nodes.get(id);
    if (!row) throw new ApiError(404, { 'zh-CN': `找不到编号为 ${id} 的翻译节点`, 'en-US': `No translation node with id ${id}` });
    const definition = adapters.get(row.kind)?.definition;
    const promise = (async () => {
      const spec: NodeSpec = { id, kind: row.kind, name: row.container_name || `#${id}`, config: openSecrets(row, definition), containers: containersOf(id) };
      const runtime = await startRuntime(spec, Math.min(deadlineMs, 30_000), { definition, featureUnavailable: toolMissing, processes, dataDir: options.dataDir });
      runtime.process?.onExit((exit) => {
        if (!exit.expected) crashed(id, runtime, `${runtime.processLabel ?? 'engine process'} exited (${exit.signal ?? `code ${exit.code}`})`);
      });
      runtimes.set(id, runtime);
      await check(runtime);
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

  /** The node's config with the fields its definition names as secrets opened. */
  function openSecrets(row: NodeRow, definition: AnyEngineAdapterDefinition | undefined): Record<string, unknown> {
    const config = { ...(row.config ?? {}) };
    for (const field of definition?.secrets ?? []) {
      if (typeof config[field] === 'string' && config[field] !== '') config[field] = open(config[field] as string);
    }
    return config;
  }

  function toolMissing(feature: string): string | null {
    return featureUnavailable(feature as ToolFeature, tools);
  }

  /**
   * A kind came (a plugin registered its adapter: nodes of it left running start now, once the
   * service has started its nodes) or went (its plugin stopped: its nodes stop and read unavailable).
   */
  async function adapterChanged(kind: string, present: boolean): Promise<void> {
    if (closed) return;
    const mine = [...nodes.values()].filter((n) => n.kind === kind);
    if (present) {
      if (!lazyStarted && !options.autostart) return;
      for (const n of mine) {
        if (n.desired_state !== 'running' || runtimes.has(n.id)) continue;
        restarts.delete(n.id);
        void startNode(n.id).catch((err) => logger.warn(`translation node ${n.id} did not start`, { error: (err as Error).message }));
      }
      return;
    }
    for (const n of mine) {
      restarts.delete(n.id);
      await starting.get(n.id)?.catch(() => {});
      const runtime = runtimes.get(n.id);
      runtimes.delete(n.id);
      if (runtime) await stopNodeRuntime(runtime).catch(() => {});
      await saveHealth(n.id, 'unhealthy', noAdapterReason(kind)).catch(() => {});
    }
  }

  function delayAfter(attempts: number): number {
    return Math.min(backoff.max, backoff.base * 2 ** attempts);
  }

  /** A node's process ended on its own: unhealthy now, started again by the health loop. */
  function crashed(id: number, runtime: NodeRuntime, reason: string): void {
    if (closed || runtimes.get(id) !== runtime) return;
    runtime.healthy = false;
    runtime.lastError = reason;
    if (!restarts.has(id)) restarts.set(id, { attempts: 0, nextAt: now().getTime() + delayAfter(0), reason });
    logger.warn(`translation node ${id} crashed; restarting it`, { error: reason });
    void saveHealth(id, 'unhealthy', reason).catch(() => {});
  }

  /** One health round of one node: a due restart of a crashed node, or a health check. */
  async function nodeRound(id: number): Promise<void> {
    const restart = restarts.get(id);
    if (restart) {
      if (nodes.get(id)?.desired_state !== 'running') {
        restarts.delete(id);
        return;
      }
      if (now().getTime() < restart.nextAt) return;
      try {
        await startNode(id);
        restarts.delete(id);
        logger.info(`translation node ${id} restarted`);
      } catch (err) {
        const reason = (err as Error).message.split('\n')[0];
        const attempts = restart.attempts + 1;
        restarts.set(id, { attempts, nextAt: now().getTime() + delayAfter(attempts), reason });
        logger.warn(`translation node ${id} did not restart (attempt ${attempts})`, { error: reason });
      }
      return;
    }
    const runtime = runtimes.get(id);
    if (!runtime) return;
    if (runtime.process && !runtime.process.running) {
      crashed(id, runtime, runtime.lastError ?? `${runtime.processLabel ?? 'engine process'} exited`);
      return;
    }
    await check(runtime);
  }

  /** Runs a round for `id` unless one is in flight (then waits for that one). */
  function healthRound(id: number): Promise<void> {
    const running = rounds.get(id);
    if (running) return running;
    const round = nodeRound(id)
      .catch((err) => logger.warn(`health round of translation node ${id} failed`, { error: (err as Error).message }))
      .finally(() => rounds.delete(id));
    rounds.set(id, round);
    return round;
  }

  /** Nodes left running start on first use when not at start-up (tests, short-lived kernels). */
  function ensureStarted(): Promise<void> {
    lazyStarted ??= (async () => {
      await Promise.all(
        [...nodes.values()]
          // A kind whose plugin has not registered it yet (the kernel starts before its plugins) starts when it does.
          .filter((n) => n.desired_state === 'running' && !runtimes.has(n.id) && adapters.get(n.kind))
          .map((n) => startNode(n.id).catch((err) => logger.warn(`translation node ${n.id} did not start`, { error: (err as Error).message }))),
      );
    })();
    return lazyStarted;
  }

  function status(id: number): EngineNodeStatus {
    const r = runtimes.get(id);
    const row = nodes.get(id);
    if (!row) throw new ApiError(404, { 'zh-CN': `找不到编号为 ${id} 的翻译节点`, 'en-US': `No translation node with id ${id}` });
    const restart = restarts.get(id);
    const unavailable = adapters.get(row.kind) ? null : noAdapterReason(row.kind);
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

  function liveEngines(): EngineRow[] {
    const t = now().getTime();
    return engines.filter((e) => e.enabled && (!e.expires_at || new Date(e.expires_at).getTime() > t));
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
    return engine.node_ids.some((id) => (runtimes.get(id)?.pairs ?? (nodePairs.get(id) || [])).some((p) => p.source === source && p.target === target));
  }

  /** Every direction some engine could serve if its nodes were up (to tell 400 from 503). */
  function knownDirection(source: string, target: string): boolean {
    return liveEngines().some((e) => serves(e, source, target) && engineKnows(e, source, target));
  }

  /** The engines automatic routing could use for the request: the only ones a caller may name. */
  function choosable(source: string, target: string, domain?: string): EngineRow[] {
    return liveEngines().filter((e) => serves(e, source, target) && !(domain && e.domain && e.domain !== domain) && engineKnows(e, source, target));
  }

  /** Refuses (400, both languages) an `engineId` the request may not name; nothing is translated or counted. */
  function checkChosenEngine(engineId: number, source: string, target: string, domain?: string): void {
    if (!Number.isSafeInteger(engineId) || engineId <= 0) throw new ApiError(400, { 'zh-CN': '翻译引擎编号无效', 'en-US': 'The translation engine id is invalid' });
    const engine = engines.find((e) => e.id === engineId);
    if (!engine) throw new ApiError(400, { 'zh-CN': `找不到编号为 ${engineId} 的翻译引擎`, 'en-US': `No translation engine with id ${engineId}` }, { reason: 'noSuchEngine', engineId });
    if (!liveEngines().includes(engine)) throw new ApiError(400, { 'zh-CN': `翻译引擎 ${engine.name} 已停用或已过期`, 'en-US': `The translation engine ${engine.name} is disabled or expired` }, { reason: 'engineDisabled', engineId });
    if (!choosable(source, target, domain).includes(engine)) {
      const from = languageName(source);
      const to = languageName(target);
      throw new ApiError(400, { 'zh-CN': `翻译引擎 ${engine.name} 不能将 ${from} 翻译为 ${to}${domain ? `（领域 ${domain}）` : ''}`, 'en-US': `The translation engine ${engine.name} does not translate ${from} into ${to}${domain ? ` (domain ${domain})` : ''}` }, { reason: 'engineNotForPair', engineId });
    }
  }

  async function choices(request: { source: string; target: string; domain?: string }) {
    await ensureStarted();
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
  const nodePairs = new Map<number, LanguagePair[]>();
  /** Languages each speech or OCR node recognised at its last good health check (to tell 400 from 503). */
  const nodeLanguages = new Map<number, string[]>();
  async function loadKnownPairs() {
    const rows = await db.selectFrom('engine_nodes').select(['id', 'kind', 'pairs', 'languages']).execute();
    for (const r of rows) {
      nodePairs.set(r.id as number, r.pairs as LanguagePair[]);
      // Kept for every node: a speech or OCR kind's plugin may register its adapter after this runs.
      nodeLanguages.set(r.id as number, (r.languages as string[]) ?? []);
    }
  }

  // ---------- speech and OCR ----------

  const capabilityOptions = (capability: RecognitionCapability) => ({
    capability,
    runtimes: () => runtimes.values(),
    rows: () => [...nodes.values()].map((n) => [n.id, { name: n.container_name ?? '', kind: n.kind, running: n.desired_state === 'running', capability: adapters.get(n.kind)?.definition.capability }] as [number, CapabilityNodeRow]),
    languagesOf: (id: number) => runtimes.get(id)?.languages ?? nodeLanguages.get(id) ?? [],
    failed: (node: NodeRuntime, reason: string) => saveHealth(node.spec.id, 'unhealthy', reason),
    logger,
  });
  const speechRouter = createCapabilityRouter({
    ...capabilityOptions('speech'),
    messages: {
      label: 'speech',
      node: { 'zh-CN': '语音识别节点', 'en-US': 'speech recognition node' },
      noEngine: (name) => ({ 'zh-CN': `没有能识别 ${name} 语音的语音引擎`, 'en-US': `No speech engine recognises ${name}` }),
      refused: (detail) => ({ 'zh-CN': `语音引擎无法识别此音频：${detail}`, 'en-US': `The speech engine could not recognise this audio: ${detail}` }),
      interrupted: { 'zh-CN': '服务中断：目前没有可用的语音识别节点，请稍后再试', 'en-US': 'Service interrupted: no speech recognition node is available right now. Try again later.' },
    },
  });
  const ocrRouter = createCapabilityRouter({
    ...capabilityOptions('ocr'),
    messages: {
      label: 'OCR',
      node: { 'zh-CN': '文字识别节点', 'en-US': 'OCR node' },
      noEngine: (name) => ({ 'zh-CN': `没有能识别 ${name} 文字的文字识别引擎`, 'en-US': `No OCR engine reads ${name}` }),
      refused: (detail) => ({ 'zh-CN': `文字识别引擎无法读取此图片：${detail}`, 'en-US': `The OCR engine could not read this picture: ${detail}` }),
      interrupted: { 'zh-CN': '服务中断：目前没有可用的文字识别节点，请稍后再试', 'en-US': 'Service interrupted: no OCR node is available right now. Try again later.' },
    },
  });

  const speech: SpeechService = {
    async languages() {
      await ensureStarted();
      return speechRouter.languages();
    },
    async nodes(language) {
      await ensureStarted();
      return speechRouter.choices(language);
    },
    async transcribe(request): Promise<SpeechTranscribeResult> {
      if (!(request.audio instanceof Uint8Array) || request.audio.byteLength <= 44) throw new ApiError(400, { 'zh-CN': '没有可识别的音频', 'en-US': 'There is no audio to recognise' });
      if (!request.language) throw new ApiError(400, { 'zh-CN': '需要指定语音的语言', 'en-US': 'The language of the speech is required' });
      await ensureStarted();
      const { value: segments, node } = await speechRouter.run(request, (pick) => pick.speech!.transcribe(request.audio, { language: request.language, signal: request.signal }));
      return { language: request.language, segments, nodeId: node.spec.id, kind: node.spec.kind };
    },
  };

  const speakerRouter = createCapabilityRouter({
    ...capabilityOptions('speaker'),
    messages: {
      label: 'speaker',
      node: { 'zh-CN': '说话人识别节点', 'en-US': 'speaker recognition node' },
      noEngine: () => ({ 'zh-CN': '没有说话人识别引擎', 'en-US': 'There is no speaker recognition engine' }),
      refused: (detail) => ({ 'zh-CN': `说话人识别引擎无法处理此音频：${detail}`, 'en-US': `The speaker recognition engine could not handle this audio: ${detail}` }),
      interrupted: { 'zh-CN': '服务中断：目前没有可用的说话人识别节点，请稍后再试', 'en-US': 'Service interrupted: no speaker recognition node is available right now. Try again later.' },
    },
  });
  const isWav = (a: unknown) => a instanceof Uint8Array && a.byteLength > 44;
  const noAudio = () => new ApiError(400, { 'zh-CN': '没有可识别的音频', 'en-US': 'There is no audio to recognise' });
  function checkRecordings(recordings: unknown): void {
    if (!Array.isArray(recordings) || recordings.length === 0 || !recordings.every(isWav)) throw noAudio();
  }
  function checkBackground(background: unknown): void {
    if (background !== null && !(background instanceof Uint8Array && background.byteLength > 0)) throw new ApiError(400, { 'zh-CN': '背景模型无效', 'en-US': 'The background model is invalid' });
  }
  /** Runs on a speaker node of the request's method (any language); a node of another method is skipped as one that does not take the request. */
  async function onSpeakerNode<T>(request: { method?: string; nodeId?: number; signal?: AbortSignal }, work: (adapter: SpeakerAdapter) => Promise<T>) {
    await ensureStarted();
    const { value, node } = await speakerRouter.run({ language: ANY_LANGUAGE, nodeId: request.nodeId, signal: request.signal }, async (pick) => {
      const adapter = pick.speaker!;
      if (request.method && adapter.method !== request.method) throw new EngineError('unsupported-pair', `${adapter.kind} makes ${adapter.method}, not ${request.method}`);
      return work(adapter);
    });
    const threshold = node.speaker!.threshold;
    return { value, answer: { method: node.speaker!.method, nodeId: node.spec.id, kind: node.spec.kind, ...(threshold === undefined ? {} : { threshold }) } };
  }

  const speaker: SpeakerService = {
    async nodes() {
      await ensureStarted();
      const ready = new Map(speakerRouter.nodes().map((r) => [r.spec.id, r.speaker!]));
      return speakerRouter.choices().map((c) => {
        const adapter = ready.get(c.id);
        if (!adapter) return c;
        return { ...c, method: adapter.method, ...(adapter.threshold === undefined ? {} : { threshold: adapter.threshold }) };
      });
    },
    async method() {
      await ensureStarted();
      return speakerRouter.nodes().sort((a, b) => a.inFlight - b.inFlight)[0]?.speaker?.method ?? null;
    },
    async train(request) {
      checkRecordings(request.recordings);
      const { value, answer } = await onSpeakerNode(request, (a) => a.train(request.recordings, { seed: request.seed, signal: request.signal }));
      return { ...answer, background: value };
    },
    async enrol(request) {
      checkRecordings(request.recordings);
      checkBackground(request.background);
      const { value, answer } = await onSpeakerNode(request, (a) => a.enrol(request.recordings, { background: request.background, signal: request.signal }));
      return { ...answer, representation: value };
    },
    async score(request) {
      if (!isWav(request.recording)) throw noAudio();
      checkBackground(request.background);
      if (!Array.isArray(request.speakers) || !request.speakers.every((r) => r instanceof Uint8Array && r.byteLength > 0)) throw new ApiError(400, { 'zh-CN': '说话人模型无效', 'en-US': 'The speaker representations are invalid' });
      if (request.speakers.length === 0) throw new ApiError(400, { 'zh-CN': '没有可比对的说话人', 'en-US': 'There are no speakers to compare with' });
      const { value, answer } = await onSpeakerNode(request, async (a) => {
        const scored = await a.score(request.recording, request.speakers, { background: request.background, signal: request.signal });
        if (scored.scores.length !== request.speakers.length || !scored.scores.every(Number.isFinite)) throw new EngineError('bad-response', `${a.kind} answered ${scored.scores.length} scores for ${request.speakers.length} speakers`);
        return scored;
      });
      return { ...answer, ...value };
    },
  };

  const ocr: OcrService = {
    async languages() {
      await ensureStarted();
      return ocrRouter.languages();
    },
    async recognize(request): Promise<OcrRecognizeResult> {
      if (!(request.image instanceof Uint8Array) || request.image.byteLength === 0) throw new ApiError(400, { 'zh-CN': '没有可识别的图片', 'en-US': 'There is no picture to read' });
      const wanted = Array.isArray(request.languages) ? request.languages.filter((l) => typeof l === 'string' && l) : [];
      if (!wanted.length) throw new ApiError(400, { 'zh-CN': '需要指定图片文字的语言', 'en-US': 'The language of the text in the picture is required' });
      await ensureStarted();
      const { value: page, node } = await ocrRouter.run({ language: wanted[0]!, signal: request.signal }, (pick) => {
        // The main language and those of the others this node reads too.
        const langs = wanted.filter((l, i) => i === 0 || (pick.languages ?? []).some((k) => sameLanguage(k, l)));
        return pick.ocr!.recognize(request.image, { languages: langs, signal: request.signal }).then((p) => ({ ...p, languages: langs }));
      });
      return { ...page, nodeId: node.spec.id, kind: node.spec.kind };
    },
  };

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
    const served = await languages();
    detector ??= languageDetector();
    const found = (await detector).detect(text, served.map((l) => l.code));
    const targets = served.find((l) => l.code === found.language)?.targets ?? [];
    return { ...found, translatable: targets.length > 0, targets };
  }

  /** Checks the caps of the channel for `characters` more; throws 400/429 with the reason. */
  async function checkCaps(callerId: number, channel: EngineTranslateRequest['channel'], characters: number): Promise<void> {
    if (channel === 'text') {
      const cap = await readNumberSetting(options.readSetting, 'TEXT_TRANSLATION_CAP', DEFAULT_TEXT_TRANSLATION_CAP);
      if (characters > cap) throw new ApiError(400, `The text has ${characters} characters; the cap for text translation is ${cap}`);
    } else if (channel === 'api') {
      const cap = await readNumberSetting(options.readSetting, 'API_TRANSLATION_CAP', DEFAULT_API_TRANSLATION_CAP);
      const used = await usage.today(callerId, 'api', now());
      if (used + characters > cap) throw new ApiError(429, `API character cap reached: ${used} of ${cap} characters used today, this request has ${characters}`);
    }
  }

  /** The source language: as asked, or detected from the text when `auto` (400 when it cannot be told or no engine takes it). */
  async function sourceOf(asked: string, text: string): Promise<{ source: string; detected?: DetectedLanguage }> {
    if (asked && asked !== 'auto') return { source: asked };
    const detected = await detect(text);
    if (detected.language === 'unknown') throw new ApiError(400, 'Could not detect the source language; choose it');
    // Told apart from "too short": the text is fine, no engine takes its language.
    if (!detected.translatable) throw new ApiError(400, `No engine translates from ${languageName(detected.language)}`, { reason: 'noEngineForSource', language: detected.language });
    return { source: detected.language, detected };
  }

  /**
   * The engine stage of one request: each batch goes to the best (engine, node) for the pair and
   * domain, and on to the next when a node fails. A node's own failure marks it unhealthy; a failure
   * caused by the batch (the engine refused this text) leaves it healthy and fails the request alone.
   */
  function route(source: string, target: string, domain: string | undefined, signal: AbortSignal, engineId?: number): SegmentEngine & { used(): { engineId: number; nodeId: number } } {
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
            await saveHealth(pick.node.spec.id, 'unhealthy', pick.node.lastError).catch(() => {});
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

  const deadline = (signal?: AbortSignal) => (signal ? AbortSignal.any([signal, AbortSignal.timeout(deadlineMs)]) : AbortSignal.timeout(deadlineMs));

  async function translate(request: EngineTranslateRequest): Promise<EngineTranslateResult> {
    const format = request.format ?? 'text';
    if (typeof request.text !== 'string' || request.text.trim() === '') throw new ApiError(400, 'The source text is required');
    if (!request.target) throw new ApiError(400, 'The target language is required');
    const characters = countCharacters(request.text, format);
    await checkCaps(request.callerId, request.channel, characters);
    await ensureStarted();
    const { source, detected } = await sourceOf(request.source, request.text);
    if (source === request.target) {
      usage.add(request.callerId, request.channel, characters, 0, now());
      return { text: request.text, source, target: request.target, detected, characters, engineId: 0, nodeId: 0 };
    }
    if (request.engineId !== undefined) checkChosenEngine(request.engineId, source, request.target, request.domain);
    const signal = deadline(request.signal);
    const engine = route(source, request.target, request.domain, signal, request.engineId);
    const party = { callerId: request.callerId, channel: request.channel, resources: request.resources };
    const result = await translateText({ text: request.text, source, target: request.target, format, domain: request.domain, ...party }, { route: engine, hooks: hooks.list(), signal });
    usage.add(request.callerId, request.channel, characters, 0, now());
    return { text: result.text, source, target: request.target, detected, characters, ...engine.used(), segments: result.segments.map(({ id, source: s, target, origin, issues }) => ({ id, source: s, target, origin, issues })) };
  }

  async function translateSegments(request: TranslateSegmentsRequest): Promise<TranslateSegmentsResult> {
    const tagged = request.format === 'placeholders';
    // Placeholders are text to the hooks (as memories hold them); only the engine sees them as html.
    const format: 'text' | 'html' = request.format === 'html' ? 'html' : 'text';
    if (!Array.isArray(request.segments) || request.segments.length === 0) throw new ApiError(400, 'No segments to translate');
    if (!request.target) throw new ApiError(400, 'The target language is required');
    const ids = new Set<string>();
    for (const s of request.segments) {
      if (!s || typeof s.id !== 'string' || typeof s.source !== 'string') throw new ApiError(400, 'Each segment needs a string id and source');
      if (ids.has(s.id)) throw new ApiError(400, `Segment id ${s.id} is given twice`);
      ids.add(s.id);
    }
    let characters = 0;
    for (const s of request.segments) characters += countCharacters(tagged ? withoutPlaceholders(s.source) : s.source, format);
    await checkCaps(request.callerId, request.channel, characters);
    await ensureStarted();
    const { source } = await sourceOf(request.source, request.segments.map((s) => s.source).join('\n').slice(0, 2000));
    // Segments with nothing to translate, or a same-language request, come back as sent.
    const blank = (s: { source: string }) => s.source.trim() === '';
    const work = source === request.target ? [] : request.segments.filter((s) => !blank(s));
    const out = new Map<string, TranslateSegmentsResult['segments'][number]>();
    if (source !== request.target && request.engineId !== undefined) checkChosenEngine(request.engineId, source, request.target, request.domain);
    if (work.length) {
      const signal = deadline(request.signal);
      const result = await translateUnits(work, { source, target: request.target, format, domain: request.domain, callerId: request.callerId, channel: request.channel, resources: request.resources }, { route: tagged ? placeholdersAsHtml(route(source, request.target, request.domain, signal, request.engineId)) : route(source, request.target, request.domain, signal, request.engineId), hooks: hooks.list(), signal });
      for (const s of result.segments) out.set(s.id, { id: s.id, source: s.source, target: s.target, origin: s.origin, issues: s.issues });
    }
    usage.add(request.callerId, request.channel, characters, 0, now());
    return {
      source,
      target: request.target,
      characters,
      segments: request.segments.map((s) => out.get(s.id) ?? { id: s.id, source: s.source, target: s.source, origin: { kind: 'unchanged' }, issues: [] }),
    };
  }

  function requestFailure(err: Error): ApiError {
    const reason: RequestFailure =
      isEngineError(err) && err.kind === 'unsupported-format'
        ? 'format-unavailable'
        : isEngineError(err) && err.status !== undefined && err.status >= 400 && err.status < 500
          ? 'engine-refused'
          : 'engine-failed';
    const detail = err.message.split('\n')[0];
    return new ApiError(reason === 'engine-failed' ? 500 : 400, `${REQUEST_FAILURE_MESSAGES[reason]['en-US']}: ${detail}`, { reason, detail });
  }

  /** Every interval: a round for each node that has none in flight (an APy start can take 20 s). */
  function healthLoop(): void {
    if (closed) return;
    for (const id of new Set([...runtimes.keys(), ...restarts.keys()])) if (!rounds.has(id)) void healthRound(id);
  }

  const service: TranslationService = {
    async start() {
      for (const line of describeMissingTools(tools)) logger.warn(`missing external tools: ${line}`);
      // Engine processes a killed server left behind (their parent watch normally ends them).
      const leftovers = processes.endLeftovers();
      if (leftovers.length) logger.warn(`ended ${leftovers.length} engine process group(s) left by a previous run`, { pids: leftovers });
      await load();
      await loadKnownPairs();
      // Until a runtime checks them, nodes are not known to be up.
      await db.updateTable('engine_nodes').set({ health: 'stopped' }).where('desired_state', '=', 'stopped').execute();
      if (options.autostart) void ensureStarted();
      const interval = options.healthIntervalMs ?? 15_000;
      timer = setInterval(healthLoop, interval);
      timer.unref();
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...starting.values(), ...rounds.values()]);
      restarts.clear();
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
          .map((id) => {
            const st = status(id);
            const health = !runtimes.has(id) && starting.has(id) && !restarts.has(id) && !st.unavailable ? ('starting' as const) : st.health;
            return { id, kind: nodes.get(id)!.kind, desired: nodes.get(id)!.desired_state, health, restart: st.restart };
          });
        return { id: e.id, name: e.name, enabled: e.enabled, expired, ready: e.enabled && !expired && list.some((n) => n.health === 'healthy'), nodes: list };
      });
    },
    tools: () => tools,
    translate,
    translateSegments,
    detect,
    languages,
    choices,
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
        if (!nodes.has(id)) throw new ApiError(404, { 'zh-CN': `找不到编号为 ${id} 的翻译节点`, 'en-US': `No translation node with id ${id}` });
        await db.updateTable('engine_nodes').set({ desired_state: 'stopped' }).where('id', '=', id).execute();
        nodes.get(id)!.desired_state = 'stopped';
        restarts.delete(id);
        await rounds.get(id);
        await starting.get(id)?.catch(() => {});
        const runtime = runtimes.get(id);
        runtimes.delete(id);
        if (runtime) await stopNodeRuntime(runtime);
        await saveHealth(id, 'stopped', null);
        return status(id);
      },
      async check(id) {
        if (runtimes.has(id) || restarts.has(id)) await healthRound(id);
        return status(id);
      },
      status,
      local() {
        const out: { id: number; name: string; pid: number }[] = [];
        for (const [id, r] of runtimes) {
          if (r.process?.running) out.push({ id, name: nodes.get(id)?.container_name || `#${id}`, pid: r.process.pid });
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
    registerAdapter: (definition) => adapters.register(definition, 'core'),
    adapterKinds: () => adapters.kinds(),
    // The screens read its schema and secrets; only the service calls create (and knows speech kinds).
    adapter: (kind) => adapters.get(kind)?.definition as EngineAdapterDefinition | undefined,
    speech,
    ocr,
    speaker,
    forPlugin(pluginId) {
      return { ...service, registerAdapter: (definition) => adapters.register(definition, pluginId) };
    },
    dropOwner(pluginId) {
      adapters.dropOwner(pluginId);
    },
  };
  return service;
}

/**
 * The engine stage for segments with inline placeholders: a batch holding any travels as html (each
 * placeholder an inline element the engine keeps with its words) and comes back as placeholders; a
 * batch without (a term's bare phrase) goes as it came.
 */
function placeholdersAsHtml(engine: SegmentEngine): SegmentEngine {
  return {
    async translate(batch, signal) {
      if (batch.format !== 'text' || !batch.segments.some(needsHtml)) return engine.translate(batch, signal);
      const out = await engine.translate({ ...batch, format: 'html', segments: batch.segments.map(toEngineHtml) }, signal);
      // A malformed answer is left for the pipeline's own check to refuse.
      return Array.isArray(out.targets) ? { ...out, targets: out.targets.map((t) => (typeof t === 'string' ? fromEngineHtml(t) : t)) } : out;
    },
  };
}
