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
import { fromDeeplCode, platformTargets, toDeeplSource, toDeeplTarget } from './codes.js';

/**
 * DeepL's API (v2). `POST /v2/translate` takes `text` as an array and answers `translations` in
 * the same order; `tag_handling=html` keeps inline tags; `GET /v2/languages?type=source|target`
 * lists what the key may use. The key travels as `Authorization: DeepL-Auth-Key <key>`.
 *
 * Whose failure (the kernel's `failsNode` rule): 403 (wrong key), 456 (the account's character
 * quota is used up) and 429 (too many requests) refuse everyone, so the node is marked unhealthy
 * and the request goes to another node; 400 (and 413) are about this request and fail it alone.
 */
export interface DeeplOptions {
  /** `https://api.deepl.com` (Pro) or `https://api-free.deepl.com` (Free). */
  url: string;
  apiKey: string;
  timeoutMs?: number;
}

interface DeeplLanguage {
  language: string;
  name?: string;
}

export function createDeeplAdapter(options: DeeplOptions): EngineAdapter {
  const base = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const auth = { authorization: `DeepL-Auth-Key ${options.apiKey}` };

  async function languages(type: 'source' | 'target', signal?: AbortSignal): Promise<string[]> {
    const res = await engineFetch(`${base}/v2/languages?type=${type}`, { headers: auth, timeoutMs, signal });
    const body = checkReply(res, 'languages');
    if (!Array.isArray(body) || body.some((l: DeeplLanguage) => typeof l?.language !== 'string')) {
      throw new EngineError('bad-response', `DeepL /v2/languages?type=${type}: not a language list`, res.status);
    }
    return (body as DeeplLanguage[]).map((l) => l.language.toUpperCase());
  }

  // The target list names the variants to send (`EN-US` or an older `EN`); keep it for a minute.
  let cached: { at: number; targets: string[] } | null = null;
  async function offeredTargets(signal?: AbortSignal): Promise<string[]> {
    if (!cached || Date.now() - cached.at > 60_000) cached = { at: Date.now(), targets: await languages('target', signal) };
    return cached.targets;
  }

  return {
    kind: 'deepl',

    async languagePairs(): Promise<LanguagePair[]> {
      const [sources, targets] = await Promise.all([languages('source'), languages('target')]);
      const seen = new Set<string>();
      const out: LanguagePair[] = [];
      for (const s of sources) {
        const source = fromDeeplCode(s);
        for (const t of targets) {
          if (t.split('-')[0] === s.split('-')[0]) continue;
          for (const target of platformTargets(t)) {
            const key = `${source}|${target}`;
            if (seen.has(key)) continue;
            seen.add(key);
            out.push({ source, target });
          }
        }
      }
      return out;
    },

    async health(): Promise<EngineHealth> {
      const started = performance.now();
      try {
        const targets = await languages('target');
        const latencyMs = Math.round(performance.now() - started);
        return targets.length ? { ok: true, latencyMs } : { ok: false, detail: 'no target languages offered', latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },

    async translate(batch: TranslateBatch, signal?: AbortSignal): Promise<string[]> {
      if (batch.segments.length === 0) return [];
      const target = toDeeplTarget(batch.target, await offeredTargets(signal));
      if (!target) throw new EngineError('unsupported-pair', `DeepL offers no target ${batch.target}`);
      const payload: Record<string, unknown> = { text: batch.segments, source_lang: toDeeplSource(batch.source), target_lang: target };
      if (batch.format === 'html') payload.tag_handling = 'html';
      const res = await engineFetch(`${base}/v2/translate`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
        timeoutMs,
        signal,
      });
      const body = checkReply(res, 'translate') as { translations?: { text?: unknown }[] };
      const out = body?.translations;
      if (!Array.isArray(out) || out.length !== batch.segments.length || out.some((t) => typeof t?.text !== 'string')) {
        throw new EngineError('bad-response', `DeepL /v2/translate: expected ${batch.segments.length} translations`, res.status);
      }
      return out.map((t) => t.text as string);
    },
  };
}

/** DeepL errors are `{message}` (sometimes with `detail`) under the HTTP status. */
function checkReply(res: EngineResponse, what: string): unknown {
  if (res.status === 456) throw new EngineError('unavailable', `DeepL /v2/${what}: quota exceeded (the account's character limit is used up)`, 456);
  const body = parseJson(res, `DeepL /v2/${what}`) as { message?: unknown; detail?: unknown } | null;
  if (res.status >= 200 && res.status < 300) return body;
  const why = [body?.message, body?.detail].filter((m) => typeof m === 'string').join(': ') || `HTTP ${res.status}`;
  if (res.status === 400 && /target_lang|source_lang|not supported/i.test(why)) throw new EngineError('unsupported-pair', `DeepL: ${why}`, 400);
  if (res.status === 400 || res.status === 413) throw new EngineError('rejected', `DeepL refused the request: ${why}`, res.status);
  throw errorForStatus(res.status, `DeepL /v2/${what}: ${why}`);
}

/** A node's own fields: the API address (Free or Pro) and the account's authentication key. */
export const deeplConfig = z.object({
  baseUrl: z.string().url().default('https://api-free.deepl.com'),
  apiKey: z.string().min(1).max(500),
});

export const deeplDefinition: EngineAdapterDefinition<z.infer<typeof deeplConfig>> = {
  kind: 'deepl',
  name: { 'zh-CN': 'DeepL API', 'en-US': 'DeepL API' },
  capability: translateCapability,
  config: deeplConfig,
  secrets: ['apiKey'],
  fields: {
    baseUrl: {
      label: { 'zh-CN': 'API 地址', 'en-US': 'API address' },
      placeholder: 'https://api-free.deepl.com',
      help: { 'zh-CN': '免费版 https://api-free.deepl.com，专业版 https://api.deepl.com', 'en-US': 'Free: https://api-free.deepl.com, Pro: https://api.deepl.com' },
    },
    apiKey: { label: { 'zh-CN': '认证密钥', 'en-US': 'Authentication key' } },
  },
  create(node, helpers) {
    return createDeeplAdapter({ url: node.config.baseUrl, apiKey: node.config.apiKey, timeoutMs: helpers.timeoutMs });
  },
};
