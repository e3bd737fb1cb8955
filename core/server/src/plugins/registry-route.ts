import { z } from 'zod';
import { ApiError, localizedTextSchema, type RouteDefinition } from '@linguaport/sdk/server';
import { Codes, permissionSchema, routeSchema, slotContributionSchema, slotOfferSchema } from '@linguaport/sdk/shared';
import type { PluginRuntime } from './runtime.js';

/**
 * `GET /api/plugins/registry`: the build's registry plus the live uploaded packages, cut down to
 * what the caller may reach. A plugin is reached when one of its menu routes is permitted; its
 * detail routes come with it. Plugins switched off at run time are left out.
 */
const registryPlugin = z.object({
  id: z.string(),
  version: z.string(),
  name: localizedTextSchema,
  type: z.enum(['console', 'download']),
  sdk: z.string(),
  bundle: z.string().describe('URL of the System.register bundle'),
  integrity: z.string(),
  css: z.string().nullable(),
  cssIntegrity: z.string().nullable(),
  locales: localizedTextSchema.describe("URL of each locale's resources"),
  i18n: z.array(z.string()),
  routes: z.array(routeSchema),
  permissions: z.array(permissionSchema),
  views: z.array(z.string()).optional(),
  slots: z.array(slotContributionSchema).optional(),
  offers: z.array(slotOfferSchema).optional(),
});
/** The registry as the console reads it (`Registry`). */
const registryAnswer = z.object({
  sdkVersion: z.string(),
  plugins: z.record(z.string(), registryPlugin),
  routes: z.record(
    z.string(),
    z.object({ plugin: z.string(), view: z.string(), title: z.string(), parent: z.string().optional(), fluid: z.boolean(), crumb: z.object({ session: z.string(), field: z.string().optional() }).optional() }),
  ),
  paths: z.array(z.string()).optional(),
  slots: z.record(z.string(), z.array(z.object({ plugin: z.string(), view: z.string(), order: z.number(), permission: z.string().optional() }))).optional(),
});

export function registryRoute(runtime: () => PluginRuntime | null): RouteDefinition {
  return {
    method: 'GET',
    url: '/plugins/registry',
    access: 'signed-in',
    summary: 'Get the console plugins available to the caller',
    response: { data: registryAnswer, errors: [404, 503] },
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
