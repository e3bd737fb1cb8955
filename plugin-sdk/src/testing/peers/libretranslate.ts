import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A LibreTranslate-compatible node for tests, on loopback. It speaks LibreTranslate's request
 * and response shapes (`/languages`, `/translate` with `q` as string or array, JSON or form
 * bodies, `{error}` with 400/403/429/500) and translates by a deterministic rule: the words of
 * each text reversed and tagged with the target, e.g. `red car` -> `[es] car red`. html keeps
 * its tags in place and reverses only the words between them.
 */
export interface LibrePeerOptions {
  languages?: { code: string; name: string; targets: string[] }[];
  /** When set, `/translate` requires this `api_key` (403 otherwise). */
  apiKey?: string;
  /** Answer the next N `/translate` calls with this status and error. */
  failNext?: { count: number; status: number; error: string };
  /** Delay every answer (time-out tests). */
  delayMs?: number;
}

export interface LibrePeer {
  url: string;
  options: LibrePeerOptions;
  requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

const DEFAULT_LANGUAGES = [
  { code: 'en', name: 'English', targets: ['en', 'es', 'fr', 'zh-Hans'] },
  { code: 'es', name: 'Spanish', targets: ['en', 'es'] },
  { code: 'fr', name: 'French', targets: ['en', 'fr'] },
  { code: 'zh-Hans', name: 'Chinese', targets: ['en', 'zh-Hans'] },
];

export function libreRule(text: string, target: string, format: string): string {
  if (format === 'html') {
    return text.replace(/(^|>)(\s*)([^<]*?)(\s*)(?=<|$)/g, (_, gt: string, lead: string, run: string, trail: string) => gt + lead + run.split(' ').reverse().join(' ') + trail);
  }
  return `[${target}] ${text.split(' ').reverse().join(' ')}`;
}

export async function startLibrePeer(options: LibrePeerOptions = {}): Promise<LibrePeer> {
  const requests: LibrePeer['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, body });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const languages = options.languages ?? DEFAULT_LANGUAGES;
    if (req.method === 'GET' && path === '/languages') return send(res, 200, languages);
    if (req.method !== 'POST' || path !== '/translate') return send(res, 404, { error: 'Not Found' });
    if (options.failNext && options.failNext.count > 0) {
      options.failNext.count--;
      return send(res, options.failNext.status, { error: options.failNext.error });
    }
    if (options.apiKey && body.api_key !== options.apiKey) {
      return send(res, 403, { error: body.api_key ? 'Invalid API key' : 'Visit https://portal.libretranslate.com to get an API key' });
    }
    const { q, source, target } = body as { q?: unknown; source?: string; target?: string };
    const format = (body.format as string) ?? 'text';
    if (q === undefined || q === '') return send(res, 400, { error: 'Invalid request: missing q parameter' });
    if (!source) return send(res, 400, { error: 'Invalid request: missing source parameter' });
    if (!target) return send(res, 400, { error: 'Invalid request: missing target parameter' });
    const src = languages.find((l) => l.code === source);
    if (!src && source !== 'auto') return send(res, 400, { error: `${source} is not supported` });
    if (!languages.some((l) => l.code === target) || (src && !src.targets.includes(target))) {
      return send(res, 400, { error: `${target} is not supported` });
    }
    if (format !== 'text' && format !== 'html') return send(res, 400, { error: `${format} format is not supported` });
    if (Array.isArray(q)) return send(res, 200, { translatedText: q.map((t) => libreRule(String(t), target, format)) });
    return send(res, 200, { translatedText: libreRule(String(q), target, format) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    options,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      return JSON.parse(raw);
    } catch {
      return {};
    }
  }
  const form = new URLSearchParams(raw);
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
