import { z } from 'zod';
import {
  EngineError,
  engineFetch,
  errorForStatus,
  languageName,
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

/**
 * An OpenAI-compatible chat-completions node (OpenAI, vLLM, llama.cpp server, Ollama's /v1...).
 * The segments go out as a JSON array and must come back as a JSON array of exactly as many
 * strings; an answer that is not gets one retry with a stricter instruction, then the batch
 * fails with `bad-response` (a wrong count would silently misalign translations).
 */
export interface OpenAiOptions {
  /** Base URL including the API version, e.g. `http://127.0.0.1:8000/v1`. */
  url: string;
  model: string;
  apiKey?: string;
  /** The directions this node is offered for (a model has no language list to ask). */
  languages: string[];
  timeoutMs?: number;
  temperature?: number;
}

export function buildMessages(batch: TranslateBatch, strict: boolean): { role: 'system' | 'user'; content: string }[] {
  const from = languageName(batch.source);
  const to = languageName(batch.target);
  const rules = [
    `You are a professional translator. Translate each segment from ${from} (${batch.source}) to ${to} (${batch.target}).`,
    batch.domain ? `The text belongs to the ${batch.domain} domain; use its usual terminology.` : '',
    batch.terms?.length
      ? `Required terminology (always translate the source term as given):\n${batch.terms.map((t) => `- ${t.source} => ${t.target}`).join('\n')}`
      : '',
    batch.avoidTerms?.length
      ? `Forbidden terminology (never translate the source term this way; choose another translation):\n${batch.avoidTerms.map((t) => `- ${t.source} =/=> ${t.target}`).join('\n')}`
      : '',
    batch.format === 'html' ? 'Segments contain inline HTML tags: keep every tag, attribute and entity, around the words they belong to.' : '',
    `Answer with a JSON array of exactly ${batch.segments.length} strings: the translation of segment i at position i. No notes, no numbering, no code fences.`,
    strict
      ? `Your previous answer was not usable. Output ONLY a JSON array with exactly ${batch.segments.length} string elements, starting with [ and ending with ]. Do not merge or split segments.`
      : '',
  ];
  return [
    { role: 'system', content: rules.filter(Boolean).join('\n') },
    { role: 'user', content: JSON.stringify(batch.segments) },
  ];
}

/** The array in a model's answer, tolerating code fences around it; null when unusable. */
export function readSegments(content: unknown, count: number): string[] | null {
  if (typeof content !== 'string') return null;
  const body = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== count || parsed.some((s) => typeof s !== 'string')) return null;
  return parsed as string[];
}

export function createOpenAiAdapter(options: OpenAiOptions): EngineAdapter {
  const base = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function complete(batch: TranslateBatch, strict: boolean, signal?: AbortSignal): Promise<unknown> {
    const res = await engineFetch(`${base}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: options.model, temperature: options.temperature ?? 0, messages: buildMessages(batch, strict) }),
      timeoutMs,
      signal,
    });
    const body = checkReply(res, 'chat/completions') as { choices?: { message?: { content?: unknown } }[] };
    return body?.choices?.[0]?.message?.content;
  }

  return {
    kind: 'openai',

    async languagePairs(): Promise<LanguagePair[]> {
      return options.languages.flatMap((s) => options.languages.filter((t) => t !== s).map((t) => ({ source: s, target: t })));
    },

    async health(): Promise<EngineHealth> {
      const started = performance.now();
      try {
        const res = await engineFetch(`${base}/models`, { headers, timeoutMs: Math.min(timeoutMs, 10_000) });
        const body = checkReply(res, 'models') as { data?: { id?: string }[] };
        const latencyMs = Math.round(performance.now() - started);
        if (!Array.isArray(body?.data)) return { ok: false, detail: '/models: no model list', latencyMs };
        return body.data.some((m) => m?.id === options.model)
          ? { ok: true, latencyMs }
          : { ok: false, detail: `model ${options.model} is not served`, latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },

    async translate(batch: TranslateBatch, signal?: AbortSignal): Promise<string[]> {
      if (batch.segments.length === 0) return [];
      if (!options.languages.includes(batch.source) || !options.languages.includes(batch.target)) {
        throw new EngineError('unsupported-pair', `this node is not offered for ${batch.source} -> ${batch.target}`);
      }
      const first = readSegments(await complete(batch, false, signal), batch.segments.length);
      if (first) return first;
      const second = readSegments(await complete(batch, true, signal), batch.segments.length);
      if (second) return second;
      throw new EngineError('bad-response', `model did not answer ${batch.segments.length} segments as a JSON array, twice`);
    },
  };
}

/** OpenAI errors are `{error: {message, type, code}}`. */
function checkReply(res: EngineResponse, what: string): unknown {
  const body = parseJson(res, `OpenAI /${what}`) as { error?: { message?: string } } | null;
  if (res.status >= 200 && res.status < 300) return body;
  const why = body?.error?.message ?? `HTTP ${res.status}`;
  if (res.status === 400 || res.status === 404 || res.status === 422) {
    throw new EngineError('bad-response', `OpenAI /${what} refused: ${why}`, res.status);
  }
  throw errorForStatus(res.status, `OpenAI /${what}: ${why}`);
}

/** A node's own fields: the server, the model it runs, the directions it is offered for, its key. */
export const openAiConfig = z.object({
  baseUrl: z.string().url(),
  model: z.string().trim().min(1).max(200),
  apiKey: z.string().max(500).optional(),
  languages: z.array(z.string().trim().min(2).max(20)).default([]),
});

export const openAiDefinition: EngineAdapterDefinition<z.infer<typeof openAiConfig>> = {
  kind: 'openai',
  name: { 'zh-CN': 'OpenAI 兼容（远程模型服务）', 'en-US': 'OpenAI-compatible (remote model server)' },
  capability: translateCapability,
  config: openAiConfig,
  secrets: ['apiKey'],
  fields: {
    baseUrl: { label: { 'zh-CN': '服务地址（含 /v1）', 'en-US': 'Base URL (with /v1)' }, placeholder: 'http://10.0.0.5:8000/v1' },
    model: { label: { 'zh-CN': '模型', 'en-US': 'Model' }, placeholder: 'qwen2.5-7b' },
    apiKey: { label: { 'zh-CN': 'API 密钥', 'en-US': 'API key' } },
    languages: { label: { 'zh-CN': '提供的语言', 'en-US': 'Languages offered' }, help: { 'zh-CN': '语言代码，逗号分隔，例如 en, zh-CN', 'en-US': 'Language codes, comma-separated, e.g. en, zh-CN' } },
  },
  create(node, helpers) {
    const c = node.config;
    return createOpenAiAdapter({ url: c.baseUrl, model: c.model, apiKey: c.apiKey, languages: c.languages, timeoutMs: helpers.timeoutMs });
  },
};
