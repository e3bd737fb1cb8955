import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, createUserWithRole, startKernel, type TestKernel } from './support/kernel.js';

// A plugin's own WebSocket (ctx.socket) over a real listening socket: the fixture plugin `notes`
// accepts /api/notes/echo for holders of notes:add.

let k: TestKernel;
let base: string;

beforeAll(async () => {
  k = await startKernel();
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = k.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${port}/api/notes/echo`;
  await createUserWithRole(k, 'writer', 'Writer-pass-1', 'Writer', ['menu:/notes', 'notes:add']);
  await createUserWithRole(k, 'reader', 'Reader-pass-1', 'Reader', ['menu:/notes', 'notes:view']);
});
afterAll(async () => {
  await k?.shutdown();
});

function open(query: string) {
  const socket = new WebSocket(`${base}?${query}`);
  const messages: string[] = [];
  const waiters: ((m: string) => void)[] = [];
  socket.on('message', (data) => {
    const waiter = waiters.shift();
    if (waiter) waiter(String(data));
    else messages.push(String(data));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const next = () =>
    messages.length
      ? Promise.resolve(messages.shift()!)
      : new Promise<string>((resolve, reject) => {
          waiters.push(resolve);
          setTimeout(() => reject(new Error('no message within 5 s')), 5000);
        });
  return { socket, next, closed };
}

describe('a plugin socket', () => {
  it('admits a holder of its permission, with frames sent before admission kept', async () => {
    const token = await k.login('writer', 'Writer-pass-1');
    const client = open(`token=${encodeURIComponent(token)}&room=blue`);
    // Sent as soon as the connection opens, while the kernel still resolves the session.
    client.socket.on('open', () => {
      client.socket.send('early words');
      client.socket.send(Buffer.alloc(320));
    });
    const frames = [await client.next(), await client.next(), await client.next()];
    expect(frames).toContain(JSON.stringify({ type: 'hello', user: 'writer', room: 'blue' }));
    expect(frames).toContain('EARLY WORDS');
    expect(frames).toContain(JSON.stringify({ bytes: 320 }));
    client.socket.close();
  });

  it('refuses a caller without the permission, and one without a session', async () => {
    const reader = open(`token=${encodeURIComponent(await k.login('reader', 'Reader-pass-1'))}`);
    expect((await reader.closed).code).toBe(4403);
    const nobody = open('token=nonsense');
    expect((await nobody.closed).code).toBe(4401);
  });

  it('closes when the session signs out', async () => {
    const token = await k.login('writer', 'Writer-pass-1');
    const client = open(`token=${encodeURIComponent(token)}`);
    expect(JSON.parse(await client.next())).toMatchObject({ type: 'hello' });
    expect((await k.call('POST', '/api/logout', token)).body.code).toBe(200);
    expect(await client.closed).toEqual({ code: 4401, reason: 'Signed out' });
  });

  it('refuses connections while the plugin is switched off', async () => {
    const admin = await k.login('admin', ADMIN_PASSWORD);
    const off = await k.call('POST', '/api/plugIn/enable/notes', admin, { enabled: false });
    expect(off.body.code, JSON.stringify(off.body)).toBe(200);
    try {
      const client = open(`token=${encodeURIComponent(admin)}`);
      expect((await client.closed).code).toBe(4404);
    } finally {
      await k.call('POST', '/api/plugIn/enable/notes', admin, { enabled: true });
    }
  });
});
