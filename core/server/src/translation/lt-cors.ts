import type { FastifyInstance } from 'fastify';
import { isLtPath } from '../http/errors.js';

/**
 * CORS for the LibreTranslate-compatible API only (`/api/lt`), so browser clients on other sites can
 * call it: the origins listed in LT_CORS_ORIGINS (comma-separated, `*` for any; none by default) get
 * `Access-Control-Allow-Origin` and a preflight `OPTIONS` answer. The rest of the API stays same-origin.
 */
export function allowedOrigin(setting: string | null, origin: string): string | null {
  const list = (setting ?? '').split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean);
  if (list.includes('*')) return '*';
  return list.includes(origin) ? origin : null;
}

export function registerLtCors(app: FastifyInstance, readSetting: (key: string) => Promise<string | null>): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isLtPath(request.url)) return;
    const origin = request.headers.origin;
    const allowed = typeof origin === 'string' && origin ? allowedOrigin(await readSetting('LT_CORS_ORIGINS'), origin) : null;
    if (allowed) {
      reply.header('access-control-allow-origin', allowed);
      if (allowed !== '*') reply.header('vary', 'Origin');
      reply.header('access-control-expose-headers', 'Retry-After');
    }
    if (request.method !== 'OPTIONS') return;
    // A preflight: answered here (no route serves OPTIONS); without an allowed origin the browser gets no grant.
    if (allowed) {
      reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
      reply.header('access-control-allow-headers', String(request.headers['access-control-request-headers'] ?? 'Content-Type, Authorization, X-Api-Key'));
      reply.header('access-control-max-age', '600');
    }
    return reply.status(204).send();
  });
}
