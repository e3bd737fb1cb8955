import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, createUserWithRole, startTestKernel, type TestKernel } from '@linguaport/sdk/testing';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
let kernel: TestKernel;
let admin: string;
let reporter: { userId: number };
let reporterToken: string;
let outsider: string;
let wsBase: string;

/** A multipart body as a browser's FormData sends it. */
function multipart(fields: Record<string, string>, file?: { name: string; filename: string; type: string; data: Buffer }) {
  const boundary = '----lp-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function postMultipart(token: string, fields: Record<string, string>, file?: Parameters<typeof multipart>[1]) {
  const body = multipart(fields, file);
  const res = await kernel.app.inject({ method: 'POST', url: '/api/feedback/add', headers: { jwt: token, 'content-type': body.contentType }, payload: body.payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  kernel = await startTestKernel({ plugins: ['feedback'] });
  await kernel.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(kernel.app.server.address() as { port: number }).port}/api/ws`;
  admin = await kernel.login('admin', ADMIN_PASSWORD);
  reporter = await createUserWithRole(kernel, 'reporter', 'Reporter-Passw0rd', 'reporter', ['feedback:submit']);
  reporterToken = await kernel.login('reporter', 'Reporter-Passw0rd');
  await createUserWithRole(kernel, 'outsider', 'Outsider-Passw0rd', 'outsider', []);
  outsider = await kernel.login('outsider', 'Outsider-Passw0rd');
}, 120_000);

afterAll(async () => {
  await kernel?.shutdown();
});

describe('feedback', () => {
  it('refuses feedback without content or with an unknown type, naming the field', async () => {
    const empty = await postMultipart(reporterToken, { content: '   ', type: 'system' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toContain('content');
    const badType = await postMultipart(reporterToken, { content: 'x', type: 'other' });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toContain('type');
    // The call takes a screenshot: like every call that takes files, it takes only multipart.
    expect((await kernel.call('POST', '/api/feedback/add', reporterToken, { content: 'Fine words', type: 'system' })).status).toBe(415);
  });

  it('stores feedback with a screenshot sent as multipart; the reporter and managers can read the image', async () => {
    const res = await postMultipart(reporterToken, { content: 'The export button does nothing', type: 'system' }, { name: 'screenshot', filename: 'shot.png', type: 'image/png', data: PNG });
    expect(res.body.code).toBe(200);
    const id = res.body.data.id;
    const mine = await kernel.call('GET', '/api/feedback/mine', reporterToken);
    expect(mine.body.data.records[0]).toMatchObject({ id, content: 'The export button does nothing', type: 'system', hasScreenshot: true, reply: null });
    const own = await kernel.app.inject({ method: 'GET', url: `/api/feedback/screenshot/${id}`, headers: { jwt: reporterToken } });
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.equals(PNG)).toBe(true);
    expect((await kernel.call('GET', `/api/feedback/screenshot/${id}`, admin)).status).toBe(200);
    expect((await kernel.call('GET', `/api/feedback/screenshot/${id}`, outsider)).status).toBe(404);
  });

  it('refuses a screenshot that is not an image whatever its declared type', async () => {
    const res = await postMultipart(reporterToken, { content: 'x', type: 'internal' }, { name: 'screenshot', filename: 'shot.png', type: 'image/png', data: Buffer.from('#!/bin/sh\necho hi\n') });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('screenshot');
  });

  it('lets managers filter by type, status and keyword', async () => {
    await postMultipart(reporterToken, { content: 'Internal wiki link broken', type: 'internal' });
    const internal = await kernel.call('GET', '/api/feedback/page?type=internal', admin);
    expect(internal.body.data.records.every((r: { type: string }) => r.type === 'internal')).toBe(true);
    expect(internal.body.data.total).toBeGreaterThanOrEqual(1);
    const keyword = await kernel.call('GET', '/api/feedback/page?keyword=export', admin);
    expect(keyword.body.data.records.map((r: { content: string }) => r.content)).toEqual(['The export button does nothing']);
    const open = await kernel.call('GET', '/api/feedback/page?status=replied', admin);
    expect(open.body.data.total).toBe(0);
  });

  it('delivers a reply to the reporter as a live feedback message and marks the feedback replied', async () => {
    const { body } = await postMultipart(reporterToken, { content: 'Please add Basque', type: 'system' });
    const socket = new WebSocket(`${wsBase}?token=${encodeURIComponent(reporterToken)}`);
    const received: Array<{ type: string; payload: any }> = [];
    socket.on('message', (d) => received.push(JSON.parse(String(d))));
    await new Promise((r, j) => { socket.once('open', r); socket.once('error', j); });
    // Subscribed once the server says so: what is published from here on reaches the socket.
    await expect.poll(() => received.some((m) => m.type === 'ws.ready'), { timeout: 10_000, interval: 20 }).toBe(true);
    const reply = await kernel.call('PUT', '/api/feedback/reply', admin, { id: body.data.id, reply: 'Added in the next release' });
    expect(reply.body.code).toBe(200);
    await expect.poll(() => received.some((m) => m.type === 'message.created'), { timeout: 10_000, interval: 50 }).toBe(true);
    socket.close();
    const pushed = received.find((m) => m.type === 'message.created');
    expect(pushed?.payload).toMatchObject({ type: 'feedback', userId: reporter.userId });
    expect(pushed?.payload.content).toContain('Added in the next release');
    const messages = await kernel.call('GET', '/api/messageRemind/messages?isRead=false', reporterToken);
    expect(messages.body.data.some((m: { type: string; content: string }) => m.type === 'feedback' && m.content.includes('Please add Basque'))).toBe(true);
    const replied = await kernel.call('GET', '/api/feedback/page?status=replied', admin);
    expect(replied.body.data.records[0]).toMatchObject({ reply: 'Added in the next release', replierName: 'admin' });
  });

  it('keeps the manager list from users without the keys', async () => {
    expect((await kernel.call('GET', '/api/feedback/page', reporterToken)).status).toBe(403);
  });

  it('answers 403 to every mutating call without the keys and changes nothing', async () => {
    const before = await kernel.database.db.selectFrom('feedback').selectAll().orderBy('id').execute();
    expect((await postMultipart(outsider, { content: 'sneaky', type: 'system' })).status).toBe(403);
    expect((await kernel.call('PUT', '/api/feedback/reply', reporterToken, { id: before[0].id, reply: 'self-reply' })).status).toBe(403);
    expect(await kernel.database.db.selectFrom('feedback').selectAll().orderBy('id').execute()).toEqual(before);
  });
});
