import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A DeepL API (v2) peer on loopback, faithful to the protocol the adapter speaks: the
 * `Authorization: DeepL-Auth-Key <key>` header (403 otherwise), `POST /v2/translate` with a JSON or
 * form body (`text` an array, or repeated form fields), upper-case `source_lang`/`target_lang`
 * (400 for an unknown or deprecated target, or no text), `tag_handling=html`, a character quota
 * (456 once used up), `GET /v2/languages?type=source|target`. Errors are `{message}`.
 *
 * Deterministic rule: each text's words come back reversed, prefixed with the target code
 * (`[DE] car red`); with `tag_handling=html` the words within each run between tags are reversed
 * and the tags stay where they were (`the <b>car red</b>`).
 */

export const SOURCES = ['DE', 'EN', 'ES', 'FR', 'JA', 'PT', 'ZH'];
export const TARGETS = ['DE', 'EN-GB', 'EN-US', 'ES', 'FR', 'JA', 'PT-BR', 'PT-PT', 'ZH-HANS', 'ZH-HANT'];

export interface DeeplPeerOptions {
  apiKey?: string;
  /** Characters the account may translate; 456 once a request would pass it. */
  characterLimit?: number;
  delayMs?: number;
  /** The next `count` /v2/translate calls answer `status` with `message`. */
  failNext?: { count: number; status: number; message: string } | null;
}

export interface DeeplPeer {
  url: string;
  options: DeeplPeerOptions;
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[];
  charactersUsed: number;
  close(): Promise<void>;
}

const reverseWords = (s: string) => s.trim().split(/\s+/).filter(Boolean).reverse().join(' ');

function translateHtml(text: string): string {
  return text.replace(/(^|>)([^<]+)(?=<|$)/g, (_m, open: string, run: string) => {
    const lead = /^\s*/.exec(run)![0];
    const trail = /\s*$/.exec(run)![0];
    return open + (run.trim() ? lead + reverseWords(run) + trail : run);
  });
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  if (String(req.headers['content-type']).includes('application/json')) return JSON.parse(raw);
  const form = new URLSearchParams(raw);
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) out[key] = key === 'text' ? form.getAll(key) : form.get(key);
  return out;
}

export async function startDeeplPeer(options: DeeplPeerOptions = {}): Promise<DeeplPeer> {
  const opts: DeeplPeerOptions = { apiKey: 'deepl-test-key:fx', ...options };
  const requests: DeeplPeer['requests'] = [];
  const peer = { options: opts, requests, charactersUsed: 0 } as DeeplPeer;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const body = await readBody(req);
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    if (req.headers.authorization !== `DeepL-Auth-Key ${opts.apiKey}`) return send(res, 403, { message: 'Wrong authentication key' });
    if (url.pathname === '/v2/languages' && req.method === 'GET') {
      const type = url.searchParams.get('type') ?? 'source';
      const list = type === 'target' ? TARGETS : SOURCES;
      return send(res, 200, list.map((language) => ({ language, name: language })));
    }
    if (url.pathname === '/v2/translate' && req.method === 'POST') {
      const fail = opts.failNext;
      if (fail && fail.count > 0) {
        fail.count--;
        return send(res, fail.status, { message: fail.message });
      }
      const texts = body.text;
      if (!Array.isArray(texts) || texts.length === 0) return send(res, 400, { message: "Parameter 'text' not specified." });
      const target = String(body.target_lang ?? '');
      if (!TARGETS.includes(target)) return send(res, 400, { message: "Value for 'target_lang' not supported." });
      const source = body.source_lang === undefined ? null : String(body.source_lang);
      if (source !== null && !SOURCES.includes(source)) return send(res, 400, { message: "Value for 'source_lang' not supported." });
      const characters = texts.reduce((n: number, t) => n + String(t).length, 0);
      if (opts.characterLimit !== undefined && peer.charactersUsed + characters > opts.characterLimit) return send(res, 456, { message: 'Quota exceeded' });
      peer.charactersUsed += characters;
      const html = body.tag_handling === 'html';
      return send(res, 200, {
        translations: texts.map((t) => ({ detected_source_language: source ?? 'EN', text: html ? translateHtml(String(t)) : `[${target}] ${reverseWords(String(t))}` })),
      });
    }
    return send(res, 404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return peer;
}
