import { z } from 'zod';
import type { EngineAdapterDefinition } from '@linguaport/sdk/server';
import { createApertiumAdapter } from './adapter.js';
import { ApyProcess, type ApyOptions } from './apy-process.js';

/**
 * The built-in engine, registered by the kernel through the same registration as the plugins'
 * adapters (kind `apertium-local`): a node is an APy the platform starts on 127.0.0.1, with as
 * many pipelines per pair as its engine's container count, watched and restarted by the service.
 */
export function apertiumDefinition(apy: Pick<ApyOptions, 'env' | 'startTimeoutMs' | 'warm'> = {}): EngineAdapterDefinition<Record<string, never>, ApyProcess> {
  return {
    kind: 'apertium-local',
    name: { 'zh-CN': 'Apertium（本机，由平台启动）', 'en-US': 'Apertium (local, started by the platform)' },
    capability: 'translate',
    config: z.object({}),
    local: true,
    supervise: {
      label: 'APy',
      async start(node, helpers) {
        const missing = helpers.featureUnavailable('apertium');
        // Say which tools are missing rather than fail with whatever the first missing one breaks.
        if (missing) throw new Error(`Apertium is unavailable on this machine: ${missing}`);
        return ApyProcess.start({ ...apy, containers: node.containers, processes: helpers.processes });
      },
    },
    create(_node, helpers) {
      return createApertiumAdapter({ url: helpers.process!.url, timeoutMs: helpers.timeoutMs, htmlUnavailable: helpers.featureUnavailable('apertium-html') });
    },
  };
}
