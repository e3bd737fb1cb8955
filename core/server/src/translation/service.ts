import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import type { EngineAdapterDefinition, EngineService, Logger } from '@linguaport/sdk/server';
import { checkExternalTools, type ToolStatus } from '../preflight.js';
import { createAdapterRegistry, type AdapterRegistry } from './adapters.js';
import { createHookRegistry, type HookRegistry } from './hooks.js';
import { verifyLicenceFile } from './licence.js';
import { createNodeAdmin, engineOverview, type EngineOverview } from './node-admin.js';
import { startNodeRuntime, type NodeRuntime, type NodeSpec, type NodeStartContext } from './node-runtime.js';
import { createNodeSecrets } from './node-secrets.js';
import { NodeSupervisor } from './node-supervisor.js';
import { createRecognitionServices } from './recognition.js';
import { createRequestFront } from './request-front.js';
import { createTranslationRouter } from './router.js';
import { segmentWords, splitSentences } from './text-tools.js';

/**
 * The translation service behind `ctx.engines`, composed of parts with one job each:
 * - node-supervisor.ts: a runtime per started node, health rounds, crash restarts with backoff;
 * - router.ts: an (engine, node) per batch for the pair and domain, least busy first, fail-over;
 * - request-front.ts: request checks, caps, source detection, the pipeline, the usage ledger;
 * - capabilities.ts: the engine capabilities plugins declare (how a node is checked and routed);
 * - recognition.ts: routing on the nodes of capabilities routed by language (ctx.engines.capability,
 *   and the speech, OCR and speaker services over the SDK's declarations);
 * - node-admin.ts: node start/stop/check for the engines area and the health overview;
 * - node-secrets.ts: node secrets sealed with the server's secret.key.
 * Local Apertium nodes are APy processes the platform starts and stops; a node left running comes
 * back after a restart (`desired_state`). A request with no node left answers 503 "service
 * interrupted" instead of hanging.
 */

export { SERVICE_INTERRUPTED, REQUEST_FAILURE_MESSAGES, type RequestFailure } from './router.js';
export type { EngineOverview } from './node-admin.js';

export interface TranslationServiceOptions {
  db: Kysely<KernelTables>;
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

export interface TranslationService extends EngineService {
  /** The same service as a plugin sees it: the adapters it registers are named after it and go when it stops. */
  forPlugin(pluginId: string): EngineService;
  /** Removes a stopped plugin's adapters (their nodes stop and read unavailable) and the capabilities it alone declared. */
  dropOwner(pluginId: string): void;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The engines and their nodes' health as this process sees them (no engine call). */
  overview(): EngineOverview[];
  /** The external tools found at start; a missing one makes its feature unavailable. */
  tools(): ToolStatus[];
}

export function createTranslationService(options: TranslationServiceOptions): TranslationService {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const deadlineMs = options.deadlineMs ?? 60_000;
  const secrets = createNodeSecrets(options.dataDir);
  const tools = options.tools ?? checkExternalTools();
  const adapters = options.adapters ?? createAdapterRegistry();
  const supervisor = new NodeSupervisor({
    db,
    dataDir: options.dataDir,
    logger,
    now,
    deadlineMs,
    tools,
    adapters,
    secrets,
    startRuntime: options.startRuntime ?? startNodeRuntime,
    backoff: options.restartBackoffMs ?? { base: 1000, max: 60_000 },
    autostart: !!options.autostart,
    healthIntervalMs: options.healthIntervalMs ?? 15_000,
  });
  const router = createTranslationRouter({ supervisor, logger, now });
  const front = createRequestFront({ db, logger, now, readSetting: options.readSetting, deadlineMs, supervisor, router, hooks: options.hooks ?? createHookRegistry() });
  const recognition = createRecognitionServices({ supervisor, adapters, logger });

  const service: TranslationService = {
    start: () => supervisor.start(),
    async close() {
      await supervisor.close();
      await front.flushUsage();
    },
    overview: () => engineOverview(supervisor, now()),
    tools: () => tools,
    translate: front.translate,
    translateSegments: front.translateSegments,
    detect: front.detect,
    languages: front.languages,
    choices: front.choices,
    recordUsage: front.recordUsage,
    split(text, language = 'en') {
      return [...splitSentences(text, language)].map((s) => s.text);
    },
    segment(text, language = 'en') {
      return segmentWords(text, language);
    },
    nodes: createNodeAdmin(supervisor, db),
    async verifyLicence(text) {
      const keys = await db.selectFrom('trusted_licence_keys').select(['name', 'public_key as publicKey']).execute();
      return verifyLicenceFile(text, keys as { name: string; publicKey: string }[], now());
    },
    seal: (plain) => secrets.seal(plain),
    registerAdapter: (definition) => adapters.register(definition, 'core'),
    adapterKinds: () => adapters.kinds(),
    registerCapability: (definition) => adapters.capabilities.register(definition, 'core'),
    capabilities: () => adapters.capabilities.list(),
    capability: recognition.capability,
    // The screens read its schema and secrets; only the service calls create (and knows speech kinds).
    adapter: (kind) => adapters.get(kind)?.definition as EngineAdapterDefinition | undefined,
    speech: recognition.speech,
    ocr: recognition.ocr,
    speaker: recognition.speaker,
    forPlugin(pluginId) {
      return { ...service, registerAdapter: (definition) => adapters.register(definition, pluginId), registerCapability: (definition) => adapters.capabilities.register(definition, pluginId) };
    },
    dropOwner(pluginId) {
      adapters.dropOwner(pluginId);
    },
  };
  return service;
}
