import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallError, ClientCodes, HttpClient } from '../src/http/client.js';
import type { Toast } from '../src/http/classify.js';

// A real loopback server answers with envelopes; the client runs on Node's axios adapter.
let server: Server;
let base = '';
let lastHeaders: IncomingHttpHeaders = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    lastHeaders = req.headers;
    const reply = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    switch (req.url?.split('?')[0]) {
      case '/api/ok': return reply(200, { code: 200, msg: 'success', data: { n: 1 } });
      case '/api/expired': return reply(200, { code: 601, msg: 'expired', data: null });
      case '/api/queue': return reply(200, { code: 3027, msg: 'queue full', data: null });
      case '/api/boom': return reply(500, { code: 500, msg: 'boom', data: null });
      case '/api/slow': return; // answers never; cancelled by the test
      default: return reply(404, { code: 404, msg: 'no route', data: null });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function client(token: string | null = 'tok-1') {
  const toasts: Toast[] = [];
  const ended: boolean[] = [];
  const http = new HttpClient({ baseURL: base, token: () => token, toast: (t) => toasts.push(t), endSession: (r) => ended.push(r), pathname: () => '/term' });
  return { http, toasts, ended };
}

describe('HTTP client', () => {
  it('sends the token in Jwt, the async marker and JSON, and resolves with data', async () => {
    const { http } = client();
    expect(await http.get('/ok')).toEqual({ n: 1 });
    expect(lastHeaders.jwt).toBe('tok-1');
    expect(lastHeaders['x-requested-with']).toBe('XMLHttpRequest');
    expect(lastHeaders['content-type']).toContain('application/json');
  });

  it('sends no Jwt header when signed out', async () => {
    const { http } = client(null);
    await http.get('/ok');
    expect(lastHeaders.jwt).toBeUndefined();
  });

  it('ends the session on 601 and rejects', async () => {
    const { http, ended, toasts } = client();
    const error = await http.get('/expired').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).code).toBe(601);
    expect(ended).toEqual([true]);
    expect(toasts[0].key).toBe('http.loginExpired');
  });

  it('returns a silent code as an envelope from request() and rejects it without a toast from get()', async () => {
    const { http, toasts } = client();
    expect((await http.request({ method: 'GET', url: '/queue' })).code).toBe(3027);
    expect(((await http.get('/queue').catch((e: unknown) => e)) as ApiCallError).code).toBe(3027);
    expect(toasts).toEqual([]);
  });

  it('toasts the message of a failing HTTP status', async () => {
    const { http, toasts } = client();
    const error = (await http.get('/boom').catch((e: unknown) => e)) as ApiCallError;
    expect(error.status).toBe(500);
    expect(toasts).toEqual([{ intent: 'danger', text: 'boom' }]);
  });

  it('cancels every pending request on navigation', async () => {
    const { http, toasts } = client();
    const pending = http.get('/slow').catch((e: unknown) => e);
    await expect.poll(() => http.cancel.size).toBe(1);
    http.cancel.cancelAll();
    const error = (await pending) as ApiCallError;
    expect(error.code).toBe(ClientCodes.CANCELED);
    expect(http.cancel.size).toBe(0);
    expect(toasts).toEqual([]);
  });
});
