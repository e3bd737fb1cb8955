import { z } from 'zod';
import { speechCapability, type SpeechAdapterDefinition } from '@linguaport/sdk/server';
import { createPocketsphinxAdapter } from './adapter.js';

/**
 * The built-in speech engine (kind `pocketsphinx-local`), registered by this plugin:
 * English recognition with Debian's pocketsphinx on this machine. There is no process to keep: a
 * node runs the decoder per request, as many at once as its container count (one by default).
 */
export function pocketsphinxDefinition(options: { command?: string; model?: string } = {}): SpeechAdapterDefinition<Record<string, never>> {
  return {
    kind: 'pocketsphinx-local',
    name: { 'zh-CN': 'Pocketsphinx 语音识别（本机，英语）', 'en-US': 'Pocketsphinx speech recognition (local, English)' },
    capability: speechCapability,
    config: z.object({}),
    local: true,
    create(node, helpers) {
      return createPocketsphinxAdapter({ ...options, timeoutMs: helpers.timeoutMs, parallel: node.containers });
    },
  };
}
