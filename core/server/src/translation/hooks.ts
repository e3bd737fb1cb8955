import { PIPELINE_STAGES, type TranslateHook, type TranslationPipeline } from '@linguaport/sdk/server';

/**
 * The pipeline's hooks, from every plugin (ctx.pipeline). Every translation reads the current list, so
 * a plugin started or stopped while the server runs takes part from its next request. Within a stage
 * the kernel runs hooks by `order`, then by registration.
 */
export interface HookRegistry {
  forPlugin(pluginId: string): TranslationPipeline;
  /** Removes a stopped plugin's hooks. */
  dropOwner(pluginId: string): void;
  list(): TranslateHook[];
}

export function createHookRegistry(): HookRegistry {
  let seq = 0;
  const entries: Array<{ owner: string; hook: TranslateHook; seq: number }> = [];
  let sorted: TranslateHook[] = [];
  const resort = () => {
    sorted = [...entries].sort((a, b) => (a.hook.order ?? 0) - (b.hook.order ?? 0) || a.seq - b.seq).map((e) => e.hook);
  };
  return {
    forPlugin(pluginId) {
      return {
        register(hook) {
          if (!hook || typeof hook.name !== 'string' || !hook.name.trim()) throw new Error(`plugin ${pluginId}: a pipeline hook needs a name`);
          if (!PIPELINE_STAGES.some((stage) => typeof hook[stage] === 'function')) {
            throw new Error(`plugin ${pluginId}: hook ${hook.name} joins no stage (${PIPELINE_STAGES.join(', ')})`);
          }
          const name = `${pluginId}:${hook.name}`;
          if (entries.some((e) => e.hook.name === name)) throw new Error(`plugin ${pluginId}: hook ${hook.name} is registered twice`);
          // The hook is named after its plugin wherever it shows (a segment's origin, an issue).
          const entry = { owner: pluginId, hook: { ...hook, name } as TranslateHook, seq: seq++ };
          entries.push(entry);
          resort();
          return () => {
            const at = entries.indexOf(entry);
            if (at >= 0) entries.splice(at, 1);
            resort();
          };
        },
        async checkResources(callerId, resources) {
          for (const hook of sorted) await hook.checkResources?.(resources, callerId);
        },
      };
    },
    dropOwner(pluginId) {
      for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.owner === pluginId) entries.splice(i, 1);
      resort();
    },
    list: () => sorted,
  };
}
