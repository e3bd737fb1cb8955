import { ApiError, Codes, type ServerPluginContext } from '@linguaport/sdk/server';
import { configSchema, DEFAULT_CONFIG, type EnginesAnswer, type InterpretationConfig } from '../shared/schemas.js';
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

/** The speech nodes that hear `source` and the translation engines for `source` into `target` (and the domain) a user may choose. */
export async function engineOptions(ctx: ServerPluginContext, source: string, target: string, domain: string): Promise<EnginesAnswer> {
  const [speech, translation] = await Promise.all([ctx.engines.speech.nodes(source), ctx.engines.choices({ source, target, domain: domain || undefined })]);
  return {
    speech: speech.map(({ id, name, ready }) => ({ id, name, ready })),
    translation: translation.map(({ id, name, ready }) => ({ id, name, ready })),
  };
}

/** Refuses (400, both languages) a speech node or translation engine the configuration may not name. */
export async function checkEngines(ctx: ServerPluginContext, config: InterpretationConfig): Promise<void> {
  if (config.speechNodeId === null && config.engineId === null) return;
  const options = await engineOptions(ctx, config.source, config.target, config.domain);
  if (config.speechNodeId !== null && !options.speech.some((n) => n.id === config.speechNodeId)) throw new ApiError(Codes.BAD_REQUEST, M.speechNodeUnusable(config.speechNodeId, config.source));
  if (config.engineId !== null && !options.translation.some((e) => e.id === config.engineId)) throw new ApiError(Codes.BAD_REQUEST, M.engineUnusable(config.engineId, config.source, config.target));
}

/**
 * The configured engines a live session may still use: one that has gone since it was saved (deleted,
 * stopped, disabled, no longer for the pair) is dropped, so the platform's choice serves, and named in
 * the returned notices.
 */
export async function usableEngines(ctx: ServerPluginContext, config: InterpretationConfig): Promise<{ speechNodeId: number | null; engineId: number | null; gone: ('speech' | 'translation')[] }> {
  if (config.speechNodeId === null && config.engineId === null) return { speechNodeId: null, engineId: null, gone: [] };
  const options = await engineOptions(ctx, config.source, config.target, config.domain);
  const speechOk = config.speechNodeId === null || options.speech.some((n) => n.id === config.speechNodeId);
  const engineOk = config.engineId === null || options.translation.some((e) => e.id === config.engineId);
  return {
    speechNodeId: speechOk ? config.speechNodeId : null,
    engineId: engineOk ? config.engineId : null,
    gone: [...(speechOk ? [] : (['speech'] as const)), ...(engineOk ? [] : (['translation'] as const))],
  };
}
