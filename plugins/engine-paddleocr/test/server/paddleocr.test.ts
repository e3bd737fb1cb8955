import { textPicture } from '@linguaport/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createPaddleOcrAdapter, readPaddleResults } from '../../server/adapter.js';
import { startPaddlePeer, type PaddlePeer } from '../support/paddle-peer.js';

// The remote OCR adapter against a PaddleHub Serving peer on 127.0.0.1 that parses the JSON body,
// refuses what the service refuses and reads the picture for real (tesseract behind the protocol).

const sign = () =>
  new Uint8Array(
    textPicture({
      width: 600,
      height: 220,
      lines: [
        { text: 'NO PARKING', y: 40, font: 'bold 52px "DejaVu Sans"' },
        { text: 'Tow away zone', y: 140, font: 'bold 32px "DejaVu Sans"' },
      ],
    }),
  );

let peer: PaddlePeer | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
});

describe('PaddleOCR (PaddleHub Serving) adapter', () => {
  it('posts the picture as base64 to the module and reads lines with their regions, words spread along them', async () => {
    peer = await startPaddlePeer();
    const engine = createPaddleOcrAdapter({ url: `${peer.url}/`, module: 'ocr_system', languages: ['en', 'zh-CN'] });
    const image = sign();
    const page = await engine.recognize(image, { languages: ['en'] });
    expect(peer.requests).toEqual([{ module: 'ocr_system', images: 1, bytes: image.byteLength }]);
    expect(page).toMatchObject({ width: 600, height: 220 });
    expect(page.lines.map((l) => l.text)).toEqual(['NO PARKING', 'Tow away zone']);
    const [first, second] = page.lines;
    expect(first!.y1).toBeLessThan(second!.y0);
    expect(first!.x0).toBeGreaterThanOrEqual(36);
    expect(first!.words.map((w) => w.text)).toEqual(['NO', 'PARKING']);
    expect(first!.words[0]!.x1).toBeLessThan(first!.words[1]!.x0);
    expect(first!.words[1]!.x1).toBe(first!.x1);
    expect(first!.confidence).toBeGreaterThan(50);
    expect(first!.confidence).toBeLessThanOrEqual(100);
    expect(await engine.health()).toMatchObject({ ok: true });
    expect(await engine.languages()).toEqual(['en', 'zh-CN']);
  }, 60_000);

  it('refuses a language the node is not offered for without calling it', async () => {
    peer = await startPaddlePeer();
    const engine = createPaddleOcrAdapter({ url: peer.url, module: 'ocr_system', languages: ['zh-CN'] });
    await expect(engine.recognize(sign(), { languages: ['fr'] })).rejects.toMatchObject({ name: 'EngineError', kind: 'unsupported-pair' });
    expect(peer.requests).toHaveLength(0);
  });

  it('maps a picture the service cannot read to the request, a module it does not serve and a down server to the node', async () => {
    peer = await startPaddlePeer();
    const engine = createPaddleOcrAdapter({ url: peer.url, module: 'ocr_system', languages: ['en'] });
    // A PNG header over nothing: the header is read, the service cannot decode it.
    const broken = sign().subarray(0, 200);
    await expect(engine.recognize(broken, { languages: ['en'] })).rejects.toMatchObject({ kind: 'rejected', message: expect.stringContaining('Please check data format') });
    await expect(engine.recognize(new TextEncoder().encode('no picture'), { languages: ['en'] })).rejects.toMatchObject({ kind: 'rejected' });
    const wrongModule = createPaddleOcrAdapter({ url: peer.url, module: 'ocr_rec', languages: ['en'] });
    await expect(wrongModule.recognize(sign(), { languages: ['en'] })).rejects.toMatchObject({ kind: 'unavailable', status: 404 });
    peer.options.misbehave = 'garbage';
    await expect(engine.recognize(sign(), { languages: ['en'] })).rejects.toMatchObject({ kind: 'bad-response' });
    peer.options.misbehave = 'down';
    await expect(engine.recognize(sign(), { languages: ['en'] })).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    expect(await engine.health()).toMatchObject({ ok: false, detail: '/: HTTP 503' });
    const url = peer.url;
    await peer.close();
    peer = null;
    const gone = createPaddleOcrAdapter({ url, module: 'ocr_system', languages: ['en'] });
    await expect(gone.recognize(sign(), { languages: ['en'] })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await gone.health()).toMatchObject({ ok: false });
  }, 60_000);

  it('orders results top to bottom, then left to right, each line its own block', () => {
    const results = [[
      { text: 'right', confidence: 0.9, text_region: [[300, 10], [380, 10], [380, 40], [300, 40]] },
      { text: 'below', confidence: 0.8, text_region: [[10, 100], [90, 100], [90, 130], [10, 130]] },
      { text: 'left', confidence: 0.95, text_region: [[10, 12], [80, 12], [80, 42], [10, 42]] },
      { text: '  ', confidence: 0.1, text_region: [[0, 0], [1, 0], [1, 1], [0, 1]] },
    ]];
    const page = readPaddleResults(results, { width: 400, height: 200 });
    expect(page.lines.map((l) => [l.text, l.block, l.confidence])).toEqual([['left', 1, 95], ['right', 2, 90], ['below', 3, 80]]);
    expect(() => readPaddleResults('nope', { width: 1, height: 1 })).toThrow(/no result list/);
  });
});
