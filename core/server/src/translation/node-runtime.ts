import type { EngineAdapter, LanguagePair } from './adapter.js';
import { createApertiumAdapter } from './apertium/adapter.js';
import { ApyProcess, type ApyOptions } from './apertium/apy-process.js';
import { featureUnavailable, type ToolStatus } from '../preflight.js';
import { createLibreTranslateAdapter } from './libretranslate/adapter.js';
import { createOpenAiAdapter } from './openai/adapter.js';

/**
 * One node as the running server holds it: its adapter, and for `apertium-local` the APy
 * process the platform started. Remote nodes have nothing to start; "starting" one means the
 * service will send it work.
 */

export type NodeKind = 'apertium-local' | 'libretranslate' | 'openai';

export interface NodeSpec {
  id: number;
  kind: NodeKind;
  baseUrl: string | null;
  apiKey: string | null;
  model: string | null;
  /** Directions an openai node is offered for (a model has no language list to ask). */
  languages: string[];
  /** Pipelines APy keeps per pair: the engine's container count. */
  containers: number;
}

export interface NodeRuntime {
  readonly spec: NodeSpec;
  readonly adapter: EngineAdapter;
  /** The APy behind an `apertium-local` node. */
  readonly apy: ApyProcess | null;
  healthy: boolean;
  pairs: LanguagePair[];
  inFlight: number;
  lastError: string | null;
}

/** What a node start needs from the server: the external tools found at start, the process record. */
export interface NodeStartContext {
  tools: readonly ToolStatus[];
  processes?: ApyOptions['processes'];
  /** Options for a local APy (tests: its environment). */
  apy?: Pick<ApyOptions, 'env' | 'startTimeoutMs' | 'warm'>;
}

export async function startNodeRuntime(spec: NodeSpec, timeoutMs: number, context: NodeStartContext = { tools: [] }): Promise<NodeRuntime> {
  let apy: ApyProcess | null = null;
  let adapter: EngineAdapter;
  if (spec.kind === 'apertium-local') {
    const missing = featureUnavailable('apertium', context.tools);
    // Say which tools are missing rather than fail with whatever the first missing one breaks.
    if (missing) throw new Error(`Apertium is unavailable on this machine: ${missing}`);
    apy = await ApyProcess.start({ ...context.apy, containers: spec.containers, processes: context.processes });
    adapter = createApertiumAdapter({ url: apy.url, timeoutMs, htmlUnavailable: featureUnavailable('apertium-html', context.tools) });
  } else if (spec.kind === 'libretranslate') {
    if (!spec.baseUrl) throw new Error('a LibreTranslate node needs a base URL');
    adapter = createLibreTranslateAdapter({ url: spec.baseUrl, apiKey: spec.apiKey ?? undefined, timeoutMs });
  } else {
    if (!spec.baseUrl || !spec.model) throw new Error('an OpenAI-compatible node needs a base URL and a model');
    adapter = createOpenAiAdapter({ url: spec.baseUrl, model: spec.model, apiKey: spec.apiKey ?? undefined, languages: spec.languages, timeoutMs });
  }
  return { spec, adapter, apy, healthy: false, pairs: [], inFlight: 0, lastError: null };
}

export async function stopNodeRuntime(runtime: NodeRuntime): Promise<void> {
  await runtime.apy?.stop();
}
