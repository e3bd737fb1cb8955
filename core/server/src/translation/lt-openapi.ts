import { z } from 'zod';
import type { RouteDefinition } from '@linguaport/sdk/server';
import type { DocumentedRoute } from '../http/openapi.js';

/**
 * How `/api/openapi.json` describes the LibreTranslate-compatible API: LibreTranslate's own request
 * and answer shapes (never the envelope), its `{error}` on every failure, and its ways of sending a
 * key. The routes parse their parameters themselves (form, JSON or query, as LibreTranslate accepts),
 * so these schemas document them without validating: a zod schema on the route would answer the
 * envelope's errors instead of LibreTranslate's.
 */

const key = z.string().optional().describe('Your API key (also accepted as apiKey, in the query, or as Authorization: Bearer). Required unless the server allows keyless use (LT_KEYLESS).');
const detected = z.object({ language: z.string(), confidence: z.number().describe('0..100') });

const translateBody = z.object({
  q: z.union([z.string(), z.array(z.string())]).describe('The text, or a list of texts'),
  source: z.string().describe('A language code, or auto to detect it'),
  target: z.string(),
  format: z.enum(['text', 'html']).optional(),
  alternatives: z.number().int().min(0).optional().describe('Alternative translations wanted (answered as empty lists: the engines give one)'),
  api_key: key,
});

const translateAnswer = z.object({
  translatedText: z.union([z.string(), z.array(z.string())]),
  alternatives: z.union([z.array(z.string()), z.array(z.array(z.string()))]).optional(),
  detectedLanguage: z.union([detected, z.array(detected)]).optional(),
});

const language = z.object({ code: z.string(), name: z.string(), targets: z.array(z.string()) });
const settings = z.object({
  charLimit: z.number().int(),
  frontendTimeout: z.number().int(),
  apiKeys: z.boolean(),
  keyRequired: z.boolean(),
  suggestions: z.boolean(),
  filesTranslation: z.boolean(),
  supportedFilesFormat: z.array(z.string()),
  language: z.object({ source: z.object({ code: z.string(), name: z.string() }), target: z.object({ code: z.string(), name: z.string() }) }),
});

interface LtDoc {
  request?: z.ZodType;
  answer: z.ZodType;
  contentType?: string;
  errors: number[];
}

const KEYED = [400, 403, 429];
const DOCS: Record<string, LtDoc> = {
  'POST /lt/translate': { request: translateBody, answer: translateAnswer, errors: [...KEYED, 503] },
  'POST /lt/detect': { request: z.object({ q: z.string(), api_key: key }), answer: z.array(detected), errors: KEYED },
  'GET /lt/languages': { answer: z.array(language), errors: [] },
  'GET /lt/frontend/settings': { answer: settings, errors: [] },
  'GET /lt/health': { answer: z.object({ status: z.literal('ok') }), errors: [] },
  'POST /lt/suggest': {
    request: z.object({ q: z.string(), s: z.string().describe('The suggested translation'), source: z.string(), target: z.string(), api_key: key }),
    answer: z.object({ success: z.boolean() }),
    errors: KEYED,
  },
  'POST /lt/translate_file': {
    request: z.object({ file: z.string().describe('The file (multipart)'), source: z.string(), target: z.string(), api_key: key }),
    answer: z.object({ translatedFileUrl: z.string() }),
    errors: KEYED,
  },
  'GET /lt/download_file/:filename': { answer: z.string().describe('The translated file'), contentType: 'application/octet-stream', errors: [403, 404] },
};

const LT_DESCRIPTION =
  "LibreTranslate-compatible: LibreTranslate's clients work pointed at /api/lt. Answers LibreTranslate's shapes, and {error} on every failure (never the envelope). " +
  'A key is required (api_key or apiKey in the body or query, or Authorization: Bearer) unless the server allows keyless use.';

/** The answer of a LibreTranslate route as the route declares it: LibreTranslate's own shape, never the envelope. */
export function ltResponse(def: RouteDefinition): RouteDefinition['response'] {
  const doc = DOCS[`${def.method} ${def.url}`];
  return doc ? { envelope: false, data: doc.answer, contentType: doc.contentType, errors: doc.errors } : { envelope: false, contentType: 'application/json' };
}

/** The documentation entry of a LibreTranslate route: its own shapes, its key in the body, the query or a bearer header. */
export function documentLtRoute(def: RouteDefinition, pluginId: string): DocumentedRoute {
  const doc = DOCS[`${def.method} ${def.url}`];
  if (!doc) return { def, pluginId };
  const multipart = def.url === '/lt/translate_file';
  const keyed = doc.errors.includes(403);
  return {
    def: { ...def, response: ltResponse(def) },
    pluginId,
    extra: {
      tag: 'libretranslate',
      description: LT_DESCRIPTION,
      ...(doc.request ? { requestBody: doc.request, requestContentTypes: multipart ? ['multipart/form-data'] : ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] } : {}),
      // The empty requirement: keyless use, when the server allows it.
      security: keyed ? [{ LtKeyQuery: [] }, { Bearer: [] }, {}] : [],
    },
  };
}
