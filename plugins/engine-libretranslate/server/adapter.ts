import { z } from 'zod';
import {
  EngineError,
  engineFetch,
  errorForStatus,
  parseJson,
  trimSlash,
  type EngineAdapter,
  type EngineAdapterDefinition,
  type EngineHealth,
  type EngineResponse,
  type LanguagePair,
  type TranslateBatch,
  translateCapability,
} from '@linguaport/sdk/server';
import { fromLibreCode, toLibreCode } from './codes.js';

/**
 * A remote LibreTranslate-compatible node. `/translate` takes `q` as an array and answers
 * `translatedText` as an array in the same order; errors are `{error}` with the HTTP status
 * (400 bad request or unsupported language, 403 bad or missing key, 429 slow down, 500).
 */
export interface LibreTranslateOptions {
  url: string;
  apiKey?: string;
  timeoutMs?: number;
}

interface LibreLanguage {
  code: string;
  name?: string;
  targets?: string[];
}

export function createLibreTranslateAdapter(options: LibreTranslateOptions): EngineAdapter {
  const base = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;

  // `/translate` needs the node's own codes (`zh` or `zh-Hans`); keep its list for a minute.
  let cached: { at: number; list: LibreLanguage[] } | null = null;
  async function offeredCodes(signal?: AbortSignal): Promise<string[]> {
    if (!cached || Date.now() - cached.at > 60_000) cached = { at: Date.now(), list: await languages(signal) };
    return cached.list.map((l) => l.code);
  }

  async function languages(signal?: AbortSignal): Promise<LibreLanguage[]> {
    const res = await engineFetch(`${base}/languages`, { timeoutMs, signal });
    const body = checkReply(res, 'languages');
    if (!Array.isArray(body) || body.some((l) => typeof l?.code !== 'string')) {
      throw new EngineError('bad-response', 'LibreTranslate /languages: not a language list', res.status);
    }
    return body as LibreLanguage[];
  }

  return {
    kind: 'libretranslate',

    async languagePairs(): Promise<LanguagePair[]> {
      const list = await languages();
      const all = list.map((l) => l.code);
      // Old servers list no targets: every language then translates to every other.
      return list.flatMap((l) =>
        (l.targets ?? all).filter((t) => t !== l.code).map((t) => ({ source: fromLibreCode(l.code), target: fromLibreCode(t) })),
      );
    },

    async health(): Promise<EngineHealth> {
      const started = performance.now();
      try {
        const list = await languages();
        const latencyMs = Math.round(performance.now() - started);
        return list.length ? { ok: true, latencyMs } : { ok: false, detail: 'no languages offered', latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },

    async translate(batch: TranslateBatch, signal?: AbortSignal): Promise<string[]> {
      if (batch.segments.length === 0) return [];
      const offered = await offeredCodes(signal);
      const source = toLibreCode(batch.source, offered);
      const target = toLibreCode(batch.target, offered);
      if (!source || !target) {
        throw new EngineError('unsupported-pair', `LibreTranslate node offers no ${source ? batch.target : batch.source}`);
      }
      const payload: Record<string, unknown> = { q: batch.segments, source, target, format: batch.format };
      if (options.apiKey) payload.api_key = options.apiKey;
      const res = await engineFetch(`${base}/translate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
        timeoutMs,
        signal,
      });
      const body = checkReply(res, 'translate') as { translatedText?: unknown };
      const out = body?.translatedText;
      if (!Array.isArray(out) || out.length !== batch.segments.length || out.some((t) => typeof t !== 'string')) {
        throw new EngineError('bad-response', `LibreTranslate /translate: expected ${batch.segments.length} strings in translatedText`, res.status);
      }
      return out as string[];
    },
  };
}

function checkReply(res: EngineResponse, what: string): unknown {
  const body = parseJson(res, `LibreTranslate /${what}`) as { error?: unknown } | null;
  if (res.status >= 200 && res.status < 300) return body;
  const why = typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`;
  if (res.status === 400 && /not supported|language/i.test(why)) throw new EngineError('unsupported-pair', `LibreTranslate: ${why}`, res.status);
  if (res.status === 400) throw new EngineError('rejected', `LibreTranslate refused the request: ${why}`, res.status);
  throw errorForStatus(res.status, `LibreTranslate /${what}: ${why}`);
}

/** A node's own fields: where the server is, and its key when it asks for one. */
export const libreTranslateConfig = z.object({
  baseUrl: z.string().url(),
  apiKey: z.string().max(500).optional(),
});

export const libreTranslateDefinition: EngineAdapterDefinition<z.infer<typeof libreTranslateConfig>> = {
  kind: 'libretranslate',
  name: { 'zh-CN': 'LibreTranslate 兼容（远程）', 'en-US': 'LibreTranslate-compatible (remote)' },
  capability: translateCapability,
  config: libreTranslateConfig,
  secrets: ['apiKey'],
  fields: {
    baseUrl: { label: { 'zh-CN': '服务地址', 'en-US': 'Base URL' }, placeholder: 'http://10.0.0.5:5000' },
    apiKey: { label: { 'zh-CN': 'API 密钥', 'en-US': 'API key' } },
  },
  create(node, helpers) {
    return createLibreTranslateAdapter({ url: node.config.baseUrl, apiKey: node.config.apiKey, timeoutMs: helpers.timeoutMs });
  },
};
