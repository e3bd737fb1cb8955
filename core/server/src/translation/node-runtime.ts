import { EngineError, isOcrAdapter, isSpeakerAdapter, isSpeechAdapter, type AnyEngineAdapterDefinition, type EngineAdapter, type EngineHealth, type EngineProcess, type EngineSuperviseHelpers, type LanguagePair, type OcrAdapter, type SpeakerAdapter, type SpeechAdapter } from '@linguaport/sdk/server';
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
  /** The translation adapter; a speech or OCR node's answers health only (it offers no pairs). */
  readonly adapter: EngineAdapter;
  /** The speech adapter of a node of a speech kind, else null. */
  readonly speech?: SpeechAdapter | null;
  /** The OCR adapter of a node of an OCR kind, else null. */
  readonly ocr?: OcrAdapter | null;
  /** The speaker adapter of a node of a speaker kind, else null. */
  readonly speaker?: SpeakerAdapter | null;
  /** The local process behind the node (an APy), or null for a remote node. */
  readonly process: EngineProcess | null;
  /** How the process is named in status messages (`APy`). */
  readonly processLabel?: string;
  healthy: boolean;
  pairs: LanguagePair[];
  /** The languages a speech or OCR node recognises (learnt by its health check). */
  languages?: string[];
  inFlight: number;
  lastError: string | null;
}

/** What a node start needs from the server: the kind's definition, the tools found at start, the process record. */
export interface NodeStartContext {
  definition: AnyEngineAdapterDefinition | undefined;
  featureUnavailable(feature: string): string | null;
  processes?: EngineSuperviseHelpers['processes'];
  dataDir: string;
}

const noRecord = { add() {}, remove() {} };

export async function startNodeRuntime(spec: NodeSpec, timeoutMs: number, context: NodeStartContext): Promise<NodeRuntime> {
  const def = context.definition;
  if (!def) throw new Error(noAdapterReason(spec.kind));
  const parsed = def.config.safeParse(spec.config);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`).join('; ');
    throw new Error(`the node's ${def.name['en-US']} configuration is invalid: ${issues}`);
  }
  const node = { id: spec.id, name: spec.name, config: parsed.data as Record<string, unknown>, containers: spec.containers };
  const featureUnavailable = context.featureUnavailable;
  const process = def.supervise ? await def.supervise.start(node, { processes: context.processes ?? noRecord, featureUnavailable, dataDir: context.dataDir }) : null;
  let made: EngineAdapter | SpeechAdapter | OcrAdapter | SpeakerAdapter;
  try {
    made = def.create(node, { timeoutMs, process, featureUnavailable });
    if (def.capability === 'speech' && !isSpeechAdapter(made)) throw new Error(`the ${def.name['en-US']} adapter is not a speech adapter (languages, health, transcribe)`);
    if (def.capability === 'ocr' && !isOcrAdapter(made)) throw new Error(`the ${def.name['en-US']} adapter is not an OCR adapter (languages, health, recognize)`);
    if (def.capability === 'speaker' && !isSpeakerAdapter(made)) throw new Error(`the ${def.name['en-US']} adapter is not a speaker adapter (method, languages, health, train, enrol, score)`);
  } catch (err) {
    await process?.stop();
    throw err;
  }
  const speech = def.capability === 'speech' ? (made as SpeechAdapter) : null;
  const ocr = def.capability === 'ocr' ? (made as OcrAdapter) : null;
  const speaker = def.capability === 'speaker' ? (made as SpeakerAdapter) : null;
  const recognizer = speech ?? ocr ?? speaker;
  const adapter = recognizer ? recognizerAsEngine(recognizer, def.capability) : (made as EngineAdapter);
  return { spec, adapter, speech, ocr, speaker, process, processLabel: def.supervise?.label, healthy: false, pairs: [], languages: [], inFlight: 0, lastError: null };
}

/** A speech or OCR node as the translation side sees it: healthy or not, no pairs, so translation never routes to it. */
function recognizerAsEngine(recognizer: { kind: string; health(): Promise<EngineHealth> }, capability: string): EngineAdapter {
  return {
    kind: recognizer.kind,
    languagePairs: async () => [],
    health: () => recognizer.health(),
    async translate() {
      throw new EngineError('unsupported-pair', `${recognizer.kind} is a${capability === 'ocr' ? 'n OCR' : ` ${capability}`} engine: it does not translate`);
    },
  };
}

export async function stopNodeRuntime(runtime: NodeRuntime): Promise<void> {
  await runtime.process?.stop();
}
