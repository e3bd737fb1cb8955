import { EngineError, type AnyEngineAdapterDefinition, type EngineAdapter, type EngineCapabilityDefinition, type EngineHealth, type EngineProcess, type EngineSuperviseHelpers, type LanguagePair, type LanguageRoutedAdapter } from '@linguaport/sdk/server';
import { noAdapterReason } from './adapters.js';

/**
 * One node as the running server holds it: its adapter, made by the definition registered for
 * its kind, and for a local engine the process the platform started (an APy). Remote nodes have
 * nothing to start; "starting" one means the service will send it work.
 */

export interface NodeSpec {
  id: number;
  /** The adapter kind (`apertium-local`, `libretranslate`, `deepl`, ...). */
  kind: string;
  name: string;
  /** The node's configuration, secrets opened (validated against the definition's schema here). */
  config: Record<string, unknown>;
  /** Pipelines a local engine keeps per pair: the engine's container count. */
  containers: number;
}

export interface NodeRuntime {
  readonly spec: NodeSpec;
  /** The translation adapter; a node of a capability routed by language answers health only (it offers no pairs). */
  readonly adapter: EngineAdapter;
  /** Its capability's id (`translate`, `speech`, a plugin's own). */
  readonly capability?: string;
  /** The adapter of a node of a capability routed by language (speech, OCR, ...), of that capability's contract; else null. */
  readonly routed?: LanguageRoutedAdapter | null;
  /** The local process behind the node (an APy), or null for a remote node. */
  readonly process: EngineProcess | null;
  /** How the process is named in status messages (`APy`). */
  readonly processLabel?: string;
  healthy: boolean;
  pairs: LanguagePair[];
  /** The languages a node routed by language takes (learnt by its health check). */
  languages?: string[];
  inFlight: number;
  lastError: string | null;
}

/** What a node start needs from the server: the kind's definition and capability, the tools found at start, the process record. */
export interface NodeStartContext {
  definition: AnyEngineAdapterDefinition | undefined;
  /** The declaration of the definition's capability (its contract, how its nodes are routed). */
  capability: EngineCapabilityDefinition<any> | undefined;
  featureUnavailable(feature: string): string | null;
  processes?: EngineSuperviseHelpers['processes'];
  dataDir: string;
}

const noRecord = { add() {}, remove() {} };

export async function startNodeRuntime(spec: NodeSpec, timeoutMs: number, context: NodeStartContext): Promise<NodeRuntime> {
  const def = context.definition;
  const capability = context.capability;
  if (!def || !capability) throw new Error(noAdapterReason(spec.kind));
  const parsed = def.config.safeParse(spec.config);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`).join('; ');
    throw new Error(`the node's ${def.name['en-US']} configuration is invalid: ${issues}`);
  }
  const node = { id: spec.id, name: spec.name, config: parsed.data as Record<string, unknown>, containers: spec.containers };
  const featureUnavailable = context.featureUnavailable;
  const process = def.supervise ? await def.supervise.start(node, { processes: context.processes ?? noRecord, featureUnavailable, dataDir: context.dataDir }) : null;
  let made: unknown;
  try {
    made = def.create(node, { timeoutMs, process, featureUnavailable });
    // Each capability says what its adapters must be; a language-routed one also answers its languages.
    const routedShape = capability.routing !== 'language' || typeof (made as Partial<LanguageRoutedAdapter>)?.languages === 'function';
    if (!capability.isAdapter(made) || !routedShape) throw new Error(`the ${def.name['en-US']} adapter is not a ${capability.name['en-US']} adapter (${capability.contract})`);
  } catch (err) {
    await process?.stop();
    throw err;
  }
  const routed = capability.routing === 'language' ? (made as LanguageRoutedAdapter) : null;
  const adapter = routed ? routedAsEngine(routed, capability) : (made as EngineAdapter);
  return { spec, adapter, capability: capability.id, routed, process, processLabel: def.supervise?.label, healthy: false, pairs: [], languages: [], inFlight: 0, lastError: null };
}

/** A node routed by language as the translation side sees it: healthy or not, no pairs, so translation never routes to it. */
function routedAsEngine(routed: { kind: string; health(): Promise<EngineHealth> }, capability: EngineCapabilityDefinition<any>): EngineAdapter {
  return {
    kind: routed.kind,
    languagePairs: async () => [],
    health: () => routed.health(),
    async translate() {
      throw new EngineError('unsupported-pair', `${routed.kind} is a ${capability.name['en-US']} engine: it does not translate`);
    },
  };
}

export async function stopNodeRuntime(runtime: NodeRuntime): Promise<void> {
  await runtime.process?.stop();
}
