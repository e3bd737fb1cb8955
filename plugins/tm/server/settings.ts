import { ApiError, Codes, createAreaSettings, say, type ServerPluginContext } from '@linguaport/sdk/server';
import { TM_DEFAULT_SETTINGS, tmSettingsBodySchema, tmSettingsSchema, type TmSettings } from '../shared/settings.js';
import type { Kysely } from 'kysely';
import type { TmDatabase } from './tables.js';

type Db = Kysely<TmDatabase>;

/** The memory area's settings (match thresholds): `tm_settings`, then `DATA_DIR/config/tm.json`, then the defaults. */
export function createTmSettings(ctx: ServerPluginContext, db: Db) {
  return createAreaSettings(ctx, db, { table: 'tm_settings', schema: tmSettingsSchema, defaults: TM_DEFAULT_SETTINGS });
}

export type TmSettingsStore = ReturnType<typeof createTmSettings>;

export function settingsRoutes(ctx: ServerPluginContext, settings: TmSettingsStore, keys: { view: string; settings: string }) {
  ctx.route({
    method: 'GET',
    url: '/TM/settings',
    access: { permission: keys.view },
    summary: 'The memory match thresholds (shown from, used without the engine from) and the penalty for another language variant',
    response: { data: tmSettingsSchema },
    handler: () => settings.get(),
  });
  ctx.route({
    method: 'PUT',
    url: '/TM/settings',
    access: { permission: keys.settings },
    summary: 'Set the memory match thresholds and the penalty for another language variant',
    schema: { body: tmSettingsBodySchema },
    response: { data: tmSettingsSchema },
    async handler({ body, headers }) {
      if (body.autoUseThreshold < body.showThreshold) {
        throw new ApiError(Codes.BAD_REQUEST, `autoUseThreshold: ${say(headers, '自动使用的分数不能低于显示的分数', 'The score to use a match automatically cannot be below the score to show it')}`);
      }
      // A penalty left out is kept as it is.
      return settings.set({ ...(await settings.get()), ...body } as TmSettings);
    },
  });
}
