import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, createUserWithRole, startKernel, type TestKernel } from './support/kernel.js';

// The WebSocket push over a real listening socket: events reach the users they are addressed to.

let k: TestKernel;
let base: string;
let adminToken: string;
let bob: { userId: number };
let bobToken: string;

beforeAll(async () => {
  k = await startKernel();
  await k.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = k.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${port}/api/ws`;
  adminToken = await k.login('admin', ADMIN_PASSWORD);
  bob = await createUserWithRole(k, 'bob', 'Bob-pass-1', 'Bob role', ['menu:/notes']);
  bobToken = await k.login('bob', 'Bob-pass-1');
});
afterAll(async () => {
  await k?.shutdown();
});

interface Client {
  socket: WebSocket;
  messages: { type: string; payload: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the next message, or rejects after a timeout. */
  next(): Promise<{ type: string; payload: unknown }>;
}

async function connect(token: string): Promise<Client> {
  const socket = new WebSocket(`${base}?token=${encodeURIComponent(token)}`);
  const messages: Client['messages'] = [];
  const waiters: ((m: Client['messages'][number]) => void)[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else messages.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  // The server says when its subscription is in place; events published after that reach us.
  const ready = await new Promise<{ type: string }>((resolve, reject) => {
    if (messages.length) resolve(messages.shift()!);
    else waiters.push(resolve);
    setTimeout(() => reject(new Error('no ws.ready within 10 s')), 10_000);
  });
  expect(ready.type).toBe('ws.ready');
  return {
    socket,
    messages,
    closed,
    next: () =>
      messages.length
        ? Promise.resolve(messages.shift()!)
        : new Promise((resolve, reject) => {
            waiters.push(resolve);
            setTimeout(() => reject(new Error('no message within 5 s')), 5000);
          }),
  };
}

const announce = (body: object) => k.call('POST', '/api/notes/announce', adminToken, body);

describe('the event socket', () => {
  it('delivers an event to the addressed user and not to another', async () => {
    const admin = await connect(adminToken);
    const bobClient = await connect(bobToken);
    expect((await announce({ type: 'message.created', userIds: [bob.userId] })).body.code).toBe(200);
    // Then one for everybody: the first thing the admin sees must be that one.
    await announce({ type: 'everyone.notice' });
    expect(await bobClient.next()).toEqual({ type: 'message.created', payload: { from: 'notes' } });
    expect(await bobClient.next()).toEqual({ type: 'everyone.notice', payload: { from: 'notes' } });
    expect(await admin.next()).toEqual({ type: 'everyone.notice', payload: { from: 'notes' } });
    admin.socket.close();
    bobClient.socket.close();
  });

  it('delivers an event addressed by permission only to holders of it', async () => {
    const admin = await connect(adminToken);
    const bobClient = await connect(bobToken);
    await announce({ type: 'notes.added', permission: 'notes:add' });
    await announce({ type: 'everyone.notice' });
    expect(await admin.next()).toMatchObject({ type: 'notes.added' });
    expect(await bobClient.next()).toMatchObject({ type: 'everyone.notice' });
    admin.socket.close();
    bobClient.socket.close();
  });

  it('refuses a connection without a valid session', async () => {
    const socket = new WebSocket(`${base}?token=nonsense`);
    const closed = await new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    expect(closed).toBe(4401);
  });

  it('closes the socket of a session that logs out', async () => {
    const token = await k.login('bob', 'Bob-pass-1');
    const client = await connect(token);
    expect((await k.call('POST', '/api/logout', token)).body.code).toBe(200);
    expect(await client.closed).toEqual({ code: 4401, reason: 'Signed out' });
  });
});
