import { ApiError, Codes, type ServerPluginContext } from '@linguaport/sdk/server';
import { configSchema, DEFAULT_CONFIG, type InterpretationConfig } from '../shared/schemas.js';
import { M } from './messages.js';
import type { Db } from './tables.js';

/** Per-user configuration, stored server-side (defaults until the user saves one). */
export function configStore(db: Db) {
  return {
    async get(userId: number): Promise<InterpretationConfig> {
      const row = await db.selectFrom('si_configs').select('config').where('user_id', '=', userId).executeTakeFirst();
      const raw = typeof row?.config === 'string' ? JSON.parse(row.config) : row?.config;
      const parsed = raw ? configSchema.safeParse(raw) : null;
      return parsed?.success ? parsed.data : DEFAULT_CONFIG;
    },
    async set(userId: number, config: InterpretationConfig): Promise<void> {
      const value = JSON.stringify(config);
      await db
        .insertInto('si_configs')
        .values({ user_id: userId, config: value, updated_at: new Date() })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ config: value, updated_at: new Date() }))
        .execute();
    },
  };
}

export type ConfigStore = ReturnType<typeof configStore>;

const base = (code: string) => code.split('-')[0]!.toLowerCase();
const sameLanguage = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || base(a) === base(b);

/** The speech node's code for `language` (`en` for `en-US`), or null when no speech node takes it. */
export async function speechLanguage(ctx: ServerPluginContext, language: string): Promise<string | null> {
  const codes = await ctx.engines.speech.languages();
  return codes.find((c) => c.toLowerCase() === language.toLowerCase()) ?? codes.find((c) => sameLanguage(c, language)) ?? null;
}

/** Refuses (400, both languages) a pair the platform cannot hear or translate. */
export async function checkPair(ctx: ServerPluginContext, source: string, target: string): Promise<void> {
  if (sameLanguage(source, target)) throw new ApiError(Codes.BAD_REQUEST, M.sameLanguage);
  if (!(await speechLanguage(ctx, source))) throw new ApiError(Codes.BAD_REQUEST, M.noSpeech(source));
  const languages = await ctx.engines.languages();
  const from = languages.find((l) => sameLanguage(l.code, source));
  if (!from?.targets.some((t) => t.toLowerCase() === target.toLowerCase())) throw new ApiError(Codes.BAD_REQUEST, M.noTranslation(source, target));
}
