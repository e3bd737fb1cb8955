import { z } from 'zod';
import { translateCapability, type EngineAdapterDefinition, type EngineProcess, type EngineProcessExit } from '@linguaport/sdk/server';
import { createApertiumAdapter } from './adapter.js';
import { ApyProcess, type ApyOptions } from './apy-process.js';
import { PipelinePool } from './pipelines.js';

/**
 * The built-in engine (kind `apertium-local`): a node is an APy the platform starts on 127.0.0.1,
 * with as many pipelines per pair as its engine's container count, watched and restarted by the
 * kernel's translation service, plus the node's warm null-flush pipelines for documents (started
 * per direction on first use, stopped with the node). `apy` is for tests (the environment APy runs
 * in, time-outs).
 */

/** One local node: its APy and its pipelines, started and stopped together. */
export class ApertiumNodeProcess implements EngineProcess {
  constructor(
    readonly apy: ApyProcess,
    readonly pipelines: PipelinePool,
  ) {}

  get pid(): number {
    return this.apy.pid;
  }

  get running(): boolean {
    return this.apy.running;
  }

  get url(): string {
    return this.apy.url;
  }

  onExit(fn: (exit: EngineProcessExit) => void): () => void {
    // A crashed APy takes its node down: the kernel restarts both together.
    return this.apy.onExit((exit) => {
      this.pipelines.stop();
      fn(exit);
    });
  }

  async stop(): Promise<unknown> {
    this.pipelines.stop();
    return this.apy.stop();
  }
}

export function apertiumDefinition(apy: Pick<ApyOptions, 'env' | 'startTimeoutMs' | 'warm' | 'pairsPath'> = {}): EngineAdapterDefinition<Record<string, never>, ApertiumNodeProcess> {
  return {
    kind: 'apertium-local',
    name: { 'zh-CN': 'Apertium（本机，由平台启动）', 'en-US': 'Apertium (local, started by the platform)' },
    capability: translateCapability,
    config: z.object({}),
    local: true,
    supervise: {
      label: 'APy',
      async start(node, helpers) {
        const missing = helpers.featureUnavailable('apertium');
        // Say which tools are missing rather than fail with whatever the first missing one breaks.
        if (missing) throw new Error(`Apertium is unavailable on this machine: ${missing}`);
        const process = await ApyProcess.start({ ...apy, containers: node.containers, processes: helpers.processes });
        // Two cores: more than two pipelines per direction only queue behind each other.
        const pipelines = new PipelinePool({ modesDir: apy.pairsPath, perPair: Math.min(2, node.containers), env: apy.env, processes: helpers.processes });
        return new ApertiumNodeProcess(process, pipelines);
      },
    },
    create(_node, helpers) {
      return createApertiumAdapter({
        url: helpers.process!.url,
        timeoutMs: helpers.timeoutMs,
        htmlUnavailable: helpers.featureUnavailable('apertium-html'),
        pipelines: helpers.process!.pipelines,
      });
    },
  };
}
