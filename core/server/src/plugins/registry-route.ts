import { ApiError, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes } from '@linguaport/sdk/shared';
import type { PluginRuntime } from './runtime.js';

/**
 * `GET /api/plugins/registry`: the build's registry plus the live uploaded packages, cut down to
 * what the caller may reach. A plugin is reached when one of its menu routes is permitted; its
 * detail routes come with it. Plugins switched off at run time are left out.
 */
export function registryRoute(runtime: () => PluginRuntime | null): RouteDefinition {
  return {
    method: 'GET',
    url: '/plugins/registry',
    access: 'signed-in',
    summary: 'Get the console plugins available to the caller',
    async handler({ caller }) {
      const rt = runtime();
      if (!rt) throw new ApiError(Codes.SERVICE_INTERRUPTED, { 'zh-CN': '插件运行时正在启动', 'en-US': 'The plugin runtime is starting' });
      try {
        return await rt.registryFor(caller!);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `无法读取插件注册表（请运行 npm run build）：${(err as Error).message}`, 'en-US': `The plugin registry cannot be read (run npm run build): ${(err as Error).message}` });
        }
        throw err;
      }
    },
  };
}
