import WebSocket from 'ws';
import { ADMIN_PASSWORD, createUserWithRole, startLibrePeer, startTestKernel, until, useOnlyLibreEngine, type LibrePeer, type TestKernel } from '@linguaport/sdk/testing';

/**
 * A kernel with the document area and one LibreTranslate-compatible engine on loopback (the SDK's
 * peer: each text comes back as `[es] ` and its words reversed, so a test knows every translation),
 * plus the calls the tests make: multipart uploads, polling a file until a state, the WebSocket.
 */

export const EN = { 'accept-language': 'en-US' };
export const ZH = { 'accept-language': 'zh-CN' };

export interface DocKernel {
  kernel: TestKernel;
  peer: LibrePeer;
  adminToken: string;
  close(): Promise<void>;
}

export async function startDocKernel(options: { plugins?: string[]; delayMs?: number } = {}): Promise<DocKernel> {
  const peer = await startLibrePeer({ delayMs: options.delayMs });
  const kernel = await startTestKernel({ plugins: ['service', 'engine-libretranslate', 'trans-file', ...(options.plugins ?? [])], options: { tasks: { heartbeatMs: 200, staleAfterMs: 3_000, sweepMs: 500, progressEveryMs: 50 } } });
  const adminToken = await kernel.login('admin', ADMIN_PASSWORD);
  await useOnlyLibreEngine(kernel, adminToken, peer.url, { source: 'en', target: 'es' });
  return {
    kernel,
    peer,
    adminToken,
    async close() {
      await kernel.shutdown();
      await peer.close();
    },
  };
}

/** The peer's rule for plain text: what a unit becomes in Spanish. */
export const peerEs = (text: string) => `[es] ${text.split(' ').reverse().join(' ')}`;

export interface UploadFile {
  name: string;
  content: string | Buffer;
}

export function multipart(fields: Record<string, string | string[]>, files: UploadFile[], field = 'files'): { payload: Buffer; contentType: string } {
  const boundary = `----docs${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [n, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(k: TestKernel, token: string, fields: Record<string, string | string[]>, files: UploadFile[], headers: Record<string, string> = EN) {
  const body = multipart(fields, files);
  const res = await k.app.inject({ method: 'POST', url: '/api/transFile/upload', headers: { jwt: token, ...headers, 'content-type': body.contentType }, payload: body.payload });
  return { status: res.statusCode, body: res.json() };
}

export async function call(k: TestKernel, method: string, url: string, token: string | null, payload?: unknown, headers: Record<string, string> = EN) {
  const res = await k.app.inject({ method: method as 'GET', url, headers: { ...(token ? { jwt: token } : {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const json = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, body: json ? res.json() : res.body, raw: res.rawPayload, headers: res.headers };
}

/** Polls a file until `until` holds (or fails after `timeoutMs`, naming its last state), returning its last row. */
export function waitForFile(k: TestKernel, token: string, id: number, reached: (f: any) => boolean, timeoutMs = 30_000): Promise<any> {
  let last: unknown = null;
  return until(async () => {
    const file = (last = (await call(k, 'GET', `/api/transFile/get/${id}`, token)).body.data);
    return file && reached(file) ? file : null;
  }, { timeout: timeoutMs, interval: 100, what: () => `file ${id} to reach the awaited state (last: ${JSON.stringify(last)})` });
}

export async function userWith(k: TestKernel, name: string, keys: string[]) {
  const password = `${name}-Passw0rd`;
  const user = await createUserWithRole(k, name, password, `${name} role`, keys);
  return { ...user, token: await k.login(name, password) };
}

export interface Socket {
  messages: Array<{ type: string; payload: any }>;
  close(): void;
}

/** A signed-in WebSocket on a kernel that listens; collects every message after `ws.ready`. */
export async function openSocket(k: TestKernel, token: string): Promise<Socket> {
  const address = k.app.server.address() as { port: number } | null;
  if (!address) await k.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = k.app.server.address() as { port: number };
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=${encodeURIComponent(token)}`);
  const messages: Socket['messages'] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  socket.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'ws.ready') ready();
    else messages.push(m);
  });
  await isReady;
  return { messages, close: () => socket.close() };
}
