import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible server for tests, on loopback: `GET /v1/models` and
 * `POST /v1/chat/completions` with OpenAI's request, response and error shapes
 * (`{error: {message, type, param, code}}`, 401 without the right bearer key, 404 for an
 * unknown model). It "translates" deterministically: it reads the JSON array of segments in the
 * last user message and answers each upper-cased and prefixed with the target code it finds in
 * the system prompt's `to <Language> (<code>)`. `misbehave` makes it answer badly on purpose.
 */
export interface OpenAiPeerOptions {
  models?: string[];
  apiKey?: string;
  /**
   * `wrong-count`: always one output too few. `wrong-count-once`: only the first request.
   * `prose`: a sentence instead of JSON. `fenced`: the right array inside ``` fences.
   */
  misbehave?: 'wrong-count' | 'wrong-count-once' | 'prose' | 'fenced';
}

export interface OpenAiPeer {
  url: string;
  /** Every chat request body received. */
  requests: { model: string; messages: { role: string; content: string }[] }[];
  close(): Promise<void>;
}

export async function startOpenAiPeer(options: OpenAiPeerOptions = {}): Promise<OpenAiPeer> {
  const models = options.models ?? ['peer-translator'];
  const requests: OpenAiPeer['requests'] = [];
  let served = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return error(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    if (req.method === 'GET' && path === '/v1/models') {
      return send(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'peer' })) });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') return error(res, 404, `Unknown path ${path}`, 'invalid_request_error', null);
    let body: OpenAiPeer['requests'][number];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return error(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
    }
    requests.push(body);
    if (!models.includes(body.model)) return error(res, 404, `The model \`${body.model}\` does not exist`, 'invalid_request_error', 'model_not_found');
    if (!Array.isArray(body.messages) || body.messages.length === 0) return error(res, 400, "'messages' is a required property", 'invalid_request_error', null);
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const target = /to [^()]+\(([^)]+)\)/.exec(system)?.[1] ?? 'xx';
    let segments: string[] = [];
    try {
      segments = JSON.parse(body.messages.filter((m) => m.role === 'user').at(-1)!.content);
    } catch {
      segments = [];
    }
    let out = segments.map((s) => `${target}: ${s.toUpperCase()}`);
    served++;
    const mode = options.misbehave;
    if (mode === 'wrong-count' || (mode === 'wrong-count-once' && served === 1)) out = out.slice(1);
    let content = JSON.stringify(out);
    if (mode === 'prose') content = `Here are the translations: ${out.join('; ')}`;
    if (mode === 'fenced') content = '```json\n' + content + '\n```';
    send(res, 200, {
      id: `chatcmpl-peer-${served}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, message: string, type: string, code: string | null): void {
  send(res, status, { error: { message, type, param: null, code } });
}
