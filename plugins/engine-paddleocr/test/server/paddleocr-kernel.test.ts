import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestKernel, textPicture, type TestKernel } from '@linguaport/sdk/testing';
import { startPaddlePeer, type PaddlePeer } from '../support/paddle-peer.js';

// Remote OCR nodes inside a real kernel: added and started through the engine-management API like the
// other nodes, listed with the built-in tesseract node on /translServiceNode/ocrNodes; with the local
// node stopped, a picture uploaded on /transPic is read by the PaddleOCR node (formats-image reads
// through ctx.engines.ocr) and translated by the seeded Apertium; with the remote node down too, the
// picture fails with the OCR service's message and the node reads unhealthy.

let k: TestKernel;
let admin: string;
let peer: PaddlePeer;

const sign = (text: string) => textPicture({ width: 560, height: 200, lines: [{ text, y: 60 }] });

async function upload(text: string): Promise<number> {
  const boundary = '----paddlekernel';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="sourceLang"\r\n\r\nen\r\n--${boundary}\r\nContent-Disposition: form-data; name="targetLang"\r\n\r\nes\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="sign.png"\r\nContent-Type: image/png\r\n\r\n`),
    sign(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await k.app.inject({ method: 'POST', url: '/api/transPic/upload', headers: { jwt: admin, cookie: 'locale=en-US', 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  expect(res.json().code, res.body).toBe(200);
  return res.json().data[0].id;
}

async function settled(id: number): Promise<{ status: string; error?: string | null }> {
  let file: { status: string; error?: string | null } = { status: '' };
  await expect
    .poll(async () => {
      file = (await k.call('GET', `/api/transFile/get/${id}`, admin)).body.data;
      return ['completed', 'failed', 'parseFailed'].includes(file.status);
    }, { timeout: 90_000, interval: 200 })
    .toBe(true);
  return file;
}

beforeAll(async () => {
  peer = await startPaddlePeer();
  k = await startTestKernel({ plugins: ['service', 'engine-paddleocr', 'trans-file', 'formats-image'] });
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 120_000);
afterAll(async () => {
  await k?.shutdown();
  await peer?.close();
});

describe('remote OCR nodes in a kernel', () => {
  it('adds and starts a PaddleOCR node, lists it with the built-in one, reads pictures on it and fails over to nothing with a clear error', async () => {
    const kinds = (await k.call('GET', '/api/translServiceNode/kinds', admin)).body.data as { kind: string; capability: string; plugin: string }[];
    expect(kinds.find((x) => x.kind === 'paddleocr')).toMatchObject({ capability: 'ocr', plugin: 'engine-paddleocr' });
    expect(kinds.find((x) => x.kind === 'tesseract-local')).toMatchObject({ capability: 'ocr', plugin: 'engine-tesseract' });

    const refused = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'paddleocr', containerName: 'no-language', authenticationFile: 'none', config: { baseUrl: peer.url, languages: [] } });
    expect(refused.body.code).toBe(400);
    const added = await k.call('POST', '/api/translServiceNode/add', admin, { kind: 'paddleocr', containerName: 'paddle-gpu', authenticationFile: 'none', config: { baseUrl: peer.url, languages: ['en', 'zh-CN'] } });
    expect(added.body.code, added.body.msg).toBe(200);
    const id = added.body.data.id as number;
    const started = await k.call('GET', `/api/translServiceNode/startTranslationService?id=${id}`, admin);
    expect(started.body.data.health, started.body.msg).toBe('healthy');

    const listed = (await k.call('GET', '/api/translServiceNode/ocrNodes', admin)).body.data as { id: number; kind: string; containerName: string; health: string; languages: string[] }[];
    expect(listed.map((n) => [n.kind, n.containerName])).toEqual([['tesseract-local', 'tesseract-local'], ['paddleocr', 'paddle-gpu']]);
    expect(listed[1]!.languages).toEqual(['en', 'zh-CN']);
    const local = listed[0]!.id;
    expect((await k.call('GET', `/api/translServiceNode/stopTranslationService?id=${local}`, admin)).body.code).toBe(200);

    // Only the remote node is up: the picture is read there and its text translated.
    const first = await settled(await upload('The red car'));
    expect(first.status, first.error ?? '').toBe('completed');
    expect(peer.requests).toEqual([{ module: 'ocr_system', images: 1, bytes: expect.any(Number) }]);

    // The remote node down as well: the picture fails, saying OCR had no node, and the node is unhealthy.
    peer.options.misbehave = 'down';
    // Another picture (a picture read before is remembered, not read again).
    const second = await settled(await upload('The big house'));
    expect(second.status).not.toBe('completed');
    expect(second.error).toMatch(/OCR/);
    const node = (await k.call('GET', `/api/translServiceNode/getTranslationServiceNodeById/${id}`, admin)).body.data;
    expect(node.health).toBe('unhealthy');
  }, 180_000);
});
