import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { pictureSize as headerSize } from '@linguaport/sdk/server';
import { textPicture } from '@linguaport/sdk/testing';
import { call, EN, multipart, peerEs, startDocKernel, upload, userWith, waitForFile, ZH, type DocKernel, type UploadFile } from './support.js';

// Pictures through the document area: uploaded on /transPic (several at once, limits checked by
// content), read by OCR and translated by the real queue (a LibreTranslate-compatible peer on
// loopback), shown block by block over the picture, downloaded as the picture and as text; editing a
// block draws the picture again. Someone else's picture is not found.

const dir = mkdtempSync(join(tmpdir(), 'pic-docs-'));
let d: DocKernel;
let owner: { userId: number; token: string };
let other: { userId: number; token: string };
let plain: { userId: number; token: string };

/** A sign drawn at test time: dark green text on a light panel. */
function sign(heading: string, notice: string, type: 'image/png' | 'image/jpeg' = 'image/png'): Buffer {
  const lines = [
    { text: heading, x: 60, y: 60 },
    { text: notice, x: 60, y: 180, font: 'bold 28px "DejaVu Sans"' },
  ];
  return textPicture({ width: 640, height: 300, background: '#e8f5e9', ink: '#0b3d1a', lines, type });
}

/** The same picture as a TIFF (ffmpeg), the type browsers cannot show. */
function tiffOf(png: Buffer): Buffer {
  const from = join(dir, `in-${Math.random().toString(16).slice(2)}.png`);
  writeFileSync(from, png);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', from, `${from}.tif`]);
  return readFileSync(`${from}.tif`);
}

const ocr = (bytes: Buffer) => {
  const path = join(dir, `read-${Math.random().toString(16).slice(2)}`);
  writeFileSync(path, bytes);
  return execFileSync('tesseract', [path, '-', '-l', 'eng'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
};

async function uploadPictures(token: string, files: UploadFile[], headers: Record<string, string> = EN) {
  const body = multipart({ sourceLang: 'en', targetLang: 'es' }, files);
  const res = await d.kernel.app.inject({ method: 'POST', url: '/api/transPic/upload', headers: { jwt: token, ...headers, 'content-type': body.contentType }, payload: body.payload });
  return { status: res.statusCode, body: res.json() };
}

let png: number;
let jpeg: number;
let tiff: number;

beforeAll(async () => {
  GlobalFonts.registerFromPath('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf');
  d = await startDocKernel({ plugins: ['formats-image'] });
  owner = await userWith(d.kernel, 'petra', ['transPic:use', 'transFile:use']);
  other = await userWith(d.kernel, 'olaf', ['transPic:use', 'transFile:use']);
  plain = await userWith(d.kernel, 'nina', ['transFile:use']);
  const res = await uploadPictures(owner.token, [
    { name: 'exit.png', content: sign('EMERGENCY EXIT', 'Keep this door closed') },
    { name: 'lift.jpg', content: sign('STAFF ONLY', 'Use the stairs in a fire', 'image/jpeg') },
    { name: 'scan.tif', content: tiffOf(sign('NO ENTRY', 'Authorised staff only')) },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  [png, jpeg, tiff] = res.body.data.map((f: { id: number }) => f.id);
  for (const id of [png, jpeg, tiff]) await waitForFile(d.kernel, owner.token, id, (f) => ['completed', 'failed', 'parseFailed'].includes(f.status), 90_000);
}, 180_000);
afterAll(async () => {
  await d?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('picture translation', () => {
  it('translates several pictures at once through the queue, each into a picture of its own type and size', async () => {
    for (const [id, type, name] of [[png, 'image/png', 'exit_es.png'], [jpeg, 'image/jpeg', 'lift_es.jpg'], [tiff, 'image/tiff', 'scan_es.tif']] as const) {
      const file = (await call(d.kernel, 'GET', `/api/transFile/get/${id}`, owner.token)).body.data;
      expect(file).toMatchObject({ status: 'completed', percent: 100, ocr: true, resultName: name });
      const down = await call(d.kernel, 'GET', `/api/transPic/download/${id}`, owner.token);
      expect(down.status).toBe(200);
      expect(down.headers['content-type']).toBe(type);
      // The canvas reads no TIFF: the view's picture route gives it as png.
      const shown = await call(d.kernel, 'GET', `/api/transPic/picture/${id}/target`, owner.token);
      expect(shown.headers['content-type']).toBe(type === 'image/tiff' ? 'image/png' : type);
      const image = await loadImage(shown.raw);
      expect([image.width, image.height]).toEqual([640, 300]);
    }
    expect((await call(d.kernel, 'GET', `/api/transPic/download/${tiff}`, owner.token)).raw.subarray(0, 4).toString('latin1')).toBe('II*\u0000');
    expect(ocr((await call(d.kernel, 'GET', `/api/transPic/picture/${tiff}/target`, owner.token)).raw)).toMatch(/ENTRY NO/);
    const read = ocr((await call(d.kernel, 'GET', `/api/transPic/download/${png}`, owner.token)).raw);
    // The peer's Spanish: "[es] " and the words reversed.
    expect(read).toMatch(/EXIT EMERGENCY/);
    expect(read).toMatch(/closed door this Keep/);
    expect(read).not.toMatch(/EMERGENCY EXIT/);
  });

  it('lists only pictures, and shows the blocks with their boxes, texts and translations', async () => {
    const txt = await upload(d.kernel, owner.token, { sourceLang: 'en', targetLang: 'es' }, [{ name: 'note.txt', content: 'Not a picture.' }]);
    expect(txt.status).toBe(200);
    const list = (await call(d.kernel, 'GET', '/api/transPic/list', owner.token)).body.data;
    expect(list.records.map((f: { id: number }) => f.id)).toEqual([tiff, jpeg, png]);
    expect((await call(d.kernel, 'GET', '/api/transPic/list', other.token)).body.data.total).toBe(0);
    const view = (await call(d.kernel, 'GET', `/api/transPic/view/${png}`, owner.token)).body.data;
    expect([view.width, view.height]).toEqual([640, 300]);
    expect(view.blocks.map((b: { source: string }) => b.source)).toEqual(['EMERGENCY EXIT', 'Keep this door closed']);
    expect(view.blocks[0]).toMatchObject({ idx: 0, target: peerEs('EMERGENCY EXIT') });
    expect(view.blocks[0].x).toBeGreaterThan(50);
    expect(view.blocks[0].x).toBeLessThan(70);
    expect(view.blocks[1].y).toBeGreaterThan(170);
    expect(view.blocks[0].confidence).toBeGreaterThan(80);
    const source = await call(d.kernel, 'GET', `/api/transPic/picture/${png}/source`, owner.token);
    expect(source.headers['content-type']).toBe('image/png');
    expect(ocr(source.raw)).toMatch(/EMERGENCY EXIT/);
    const text = (await call(d.kernel, 'GET', `/api/transPic/download/${png}?kind=text`, owner.token)).raw.toString('utf8');
    expect(text).toBe(`EMERGENCY EXIT\n${peerEs('EMERGENCY EXIT')}\n\nKeep this door closed\n${peerEs('Keep this door closed')}\n`);
  });

  it('draws the picture again when a block is edited', async () => {
    const before = (await call(d.kernel, 'GET', `/api/transPic/picture/${png}/target`, owner.token)).raw;
    const edit = await call(d.kernel, 'PUT', `/api/transFile/units/${png}/0`, owner.token, { target: 'SALIDA' });
    expect(edit.status).toBe(200);
    const after = (await call(d.kernel, 'GET', `/api/transPic/picture/${png}/target`, owner.token)).raw;
    expect(after.equals(before)).toBe(false);
    const read = ocr(after);
    expect(read).toMatch(/SALIDA/);
    expect(read).not.toMatch(/EMERGENCY/);
    expect(read).toMatch(/closed door this Keep/);
    const view = (await call(d.kernel, 'GET', `/api/transPic/view/${png}`, owner.token)).body.data;
    expect(view.blocks[0]).toMatchObject({ target: 'SALIDA', edited: true });
    expect(ocr((await call(d.kernel, 'GET', `/api/transPic/download/${png}`, owner.token)).raw)).toMatch(/SALIDA/);
  }, 60_000);

  it('completes a picture with no text, giving the picture back as it was', async () => {
    const c = createCanvas(320, 200);
    const g = c.getContext('2d');
    g.fillStyle = '#d7e3f0';
    g.fillRect(0, 0, 320, 200);
    g.fillStyle = '#6a8caf';
    g.fillRect(60, 50, 200, 100);
    const res = await uploadPictures(owner.token, [{ name: 'blank.png', content: c.toBuffer('image/png') }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data[0].id;
    const file = await waitForFile(d.kernel, owner.token, id, (f) => ['completed', 'failed', 'parseFailed', 'notTranslated'].includes(f.status), 60_000);
    expect(file.status).toBe('completed');
    expect((await call(d.kernel, 'GET', `/api/transPic/view/${id}`, owner.token)).body.data.blocks).toEqual([]);
    const image = await loadImage((await call(d.kernel, 'GET', `/api/transPic/download/${id}`, owner.token)).raw);
    expect([image.width, image.height]).toEqual([320, 200]);
    await call(d.kernel, 'DELETE', `/api/transPic/delete?ids=${id}`, owner.token);
  }, 60_000);

  it('keeps pictures to their owner and the routes to holders of transPic:use', async () => {
    for (const url of [`/api/transPic/view/${png}`, `/api/transPic/picture/${png}/target`, `/api/transPic/download/${png}`, `/api/transPic/download/${png}?kind=text`]) {
      expect((await call(d.kernel, 'GET', url, other.token)).status, url).toBe(404);
      expect((await call(d.kernel, 'GET', url, plain.token)).status, url).toBe(403);
    }
    expect((await call(d.kernel, 'PUT', `/api/transFile/units/${png}/0`, other.token, { target: 'mine' })).status).toBe(404);
    expect((await call(d.kernel, 'DELETE', `/api/transPic/delete?ids=${png}`, other.token)).status).toBe(404);
    expect((await call(d.kernel, 'GET', `/api/transPic/view/${png}`, owner.token)).body.data.blocks[0].target).toBe('SALIDA');
  });

  it('reads the size of a picture from its header, for every type the canvas and ffmpeg write', () => {
    const c = createCanvas(123, 45);
    c.getContext('2d').fillRect(0, 0, 10, 10);
    for (const bytes of [c.toBuffer('image/png'), c.toBuffer('image/jpeg'), c.toBuffer('image/webp')]) expect(headerSize(bytes)).toEqual({ width: 123, height: 45 });
    const from = join(dir, 'size.png');
    writeFileSync(from, c.toBuffer('image/png'));
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', from, `${from}.bmp`]);
    expect(headerSize(readFileSync(`${from}.bmp`))).toEqual({ width: 123, height: 45 });
    expect(headerSize(Buffer.from('not a picture at all, just words'))).toBeNull();
    expect(headerSize(c.toBuffer('image/jpeg').subarray(0, 12))).toBeNull();
  });

  it('refuses what is not a picture and pictures over the limits, in both languages, storing nothing', async () => {
    const count = async () => (await call(d.kernel, 'GET', '/api/transPic/list', owner.token)).body.data.total;
    const before = await count();
    const fake = await uploadPictures(owner.token, [{ name: 'fake.png', content: 'this is text, not a picture' }]);
    expect(fake.status).toBe(400);
    expect(fake.body.msg).toContain('fake.png: not a supported picture');
    const zh = await uploadPictures(owner.token, [{ name: 'fake.png', content: 'this is text, not a picture' }], ZH);
    expect(zh.body.msg).toContain('不是支持的图片');
    const txt = await uploadPictures(owner.token, [{ name: 'note.txt', content: 'plain text' }]);
    expect(txt.status).toBe(400);

    expect((await call(d.kernel, 'PUT', '/api/transPic/settings', owner.token, { pictureMaxMb: 20, pictureMaxMegapixels: 0.1 })).status).toBe(403);
    const set = await call(d.kernel, 'PUT', '/api/transPic/settings', d.adminToken, { pictureMaxMb: 20, pictureMaxMegapixels: 0.1 });
    expect(set.body.data).toEqual({ pictureMaxMb: 20, pictureMaxMegapixels: 0.1 });
    const big = await uploadPictures(owner.token, [{ name: 'big.png', content: sign('BIG', 'too many pixels') }]);
    expect(big.status).toBe(400);
    expect(big.body.msg).toContain('640×300');
    expect((await uploadPictures(owner.token, [{ name: 'big.png', content: sign('BIG', 'too many pixels') }], ZH)).body.msg).toContain('百万像素');
    await call(d.kernel, 'PUT', '/api/transPic/settings', d.adminToken, { pictureMaxMb: 20, pictureMaxMegapixels: 40 });
    expect(await count()).toBe(before);
  });
});
