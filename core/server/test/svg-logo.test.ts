import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startKernel, type TestKernel } from './support/kernel.js';

// An uploaded SVG picture (the system logo) is stored as a PNG drawn from it: no script, event
// attribute, foreign HTML or outside reference survives, nothing is fetched while drawing it, and an
// ordinary logo still shows in its colours and proportions.

let k: TestKernel;
let admin: string;
let server: Server;
let base: string;
const requests: string[] = [];
let magentaFile: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const c = createCanvas(50, 50);
  const g = c.getContext('2d');
  g.fillStyle = '#ff00ff';
  g.fillRect(0, 0, 50, 50);
  magentaFile = join(mkdtempSync(join(tmpdir(), 'svg-logo-')), 'other-user.png');
  writeFileSync(magentaFile, await c.encode('png'));
  k = await startKernel();
  admin = await k.login('admin', ADMIN_PASSWORD);
}, 60_000);
afterAll(async () => {
  await k?.shutdown();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function upload(configKey: string, filename: string, data: Buffer) {
  const boundary = '----svg' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="configKey"\r\n\r\n${configKey}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/svg+xml\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return k.app.inject({ method: 'POST', url: '/api/systemConfig/updatePictureConfig', headers: { jwt: admin, 'accept-language': 'en-US', 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
}

async function pixels(png: Buffer) {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const data = g.getImageData(0, 0, img.width, img.height).data;
  const at = (x: number, y: number) => Array.from(data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));
  let magenta = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! > 200) magenta++;
  return { width: img.width, height: img.height, at, magenta };
}

describe('an uploaded SVG logo', () => {
  it('is stored as a PNG without script, event attributes, foreign HTML or outside references, and nothing is fetched', async () => {
    const hostile = `<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100" onload="alert(document.cookie)">
  <script>alert(document.cookie)</script>
  <style>@import url(${base}/style.css); rect { fill: #0000ff }</style>
  <rect width="200" height="100" fill="#0000ff"/>
  <foreignObject width="200" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="${base}/frame"></iframe></div></foreignObject>
  <image href="${base}/remote.png" width="100" height="100"/>
  <image xlink:href="file://${magentaFile}" x="100" width="100" height="100"/>
  <rect x="0" y="0" width="10" height="10" fill="url(${base}/paint.svg#p)"/>
  <a href="javascript:alert(1)"><text x="5" y="50">x</text></a>
</svg>`;
    const res = await upload('COMPANY_LOGO', 'logo.svg', Buffer.from(hostile));
    expect(res.statusCode).toBe(200);
    const url: string = res.json().data.configValue;
    expect(url).toMatch(/^\/api\/systemConfig\/picture\/company_logo-[0-9a-f]{16}\.png$/);
    const served = await k.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const body = served.rawPayload;
    expect(body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    for (const word of ['script', 'onload', 'foreignObject', 'alert', '127.0.0.1', 'file:']) expect(body.includes(word)).toBe(false);
    const p = await pixels(body);
    expect(p.width / p.height).toBeCloseTo(2, 1);
    expect(p.magenta).toBe(0);
    expect(requests).toEqual([]);
  });

  it('still shows an ordinary logo, sharp at twice the entry\'s size, in its colours', async () => {
    const logo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10"><defs><linearGradient id="g"><stop offset="0" stop-color="#00aa00"/><stop offset="1" stop-color="#00aa00"/></linearGradient></defs><rect width="20" height="10" fill="url(#g)"/><rect x="20" width="20" height="10" style="fill:#dd0000"/></svg>`;
    const res = await upload('COMPANY_LOGO', 'logo.svg', Buffer.from(logo));
    expect(res.statusCode).toBe(200);
    const { width, height } = res.json().data;
    const served = await k.app.inject({ method: 'GET', url: res.json().data.configValue });
    expect(served.headers['content-type']).toBe('image/png');
    const p = await pixels(served.rawPayload);
    // Fits twice the entry's box with the logo's own proportions (4:1).
    expect(p.width <= width * 2 && p.height <= height * 2).toBe(true);
    expect(p.width === width * 2 || p.height === height * 2).toBe(true);
    expect(p.width / p.height).toBeCloseTo(4, 0);
    const [r1, g1] = p.at(Math.floor(p.width / 4), Math.floor(p.height / 2));
    const [r2, g2] = p.at(Math.floor((3 * p.width) / 4), Math.floor(p.height / 2));
    expect(g1! > 150 && r1! < 30).toBe(true);
    expect(r2! > 200 && g2! < 30).toBe(true);
  });

  it('refuses an SVG it cannot read with a clear 400, changing nothing', async () => {
    const before = (await k.app.inject({ method: 'GET', url: '/api/systemConfig/getOneConfigInfo?configKey=COMPANY_LOGO', headers: { jwt: admin } })).json().data.configValue;
    const res = await upload('COMPANY_LOGO', 'broken.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('SVG');
    const after = (await k.app.inject({ method: 'GET', url: '/api/systemConfig/getOneConfigInfo?configKey=COMPANY_LOGO', headers: { jwt: admin } })).json().data.configValue;
    expect(after).toBe(before);
  });
});
