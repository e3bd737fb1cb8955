import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTesseractAdapter } from '@linguaport/ocr';

/**
 * A protocol-faithful PaddleHub Serving OCR server on 127.0.0.1, as `hub serving start -m ocr_system`
 * answers: `GET /` its index page; `POST /predict/<module>` with `{"images": [<base64>]}` answered
 * `{"msg": "", "results": [[{text, confidence, text_region}]], "status": "000"}`; a body it cannot
 * use answered `{"msg": "Please check data format!", "results": "", "status": "-1"}`; an unknown
 * module 404. The reading itself is real: Debian's tesseract reads the picture (the peer has no
 * PaddleOCR model), each line becomes one result with its four-point region and a 0..1 confidence.
 */
export interface PaddlePeerOptions {
  /** The modules served (`ocr_system` by default). */
  modules?: string[];
  /** Platform languages the peer reads with (tesseract packs behind them). */
  languages?: string[];
  /** `down`: 503 to everything; `garbage`: status 000 with results that are not lists. */
  misbehave?: 'down' | 'garbage';
}

export interface PaddlePeerRequest {
  module: string;
  images: number;
  bytes: number;
}

export interface PaddlePeer {
  url: string;
  options: PaddlePeerOptions;
  requests: PaddlePeerRequest[];
  close(): Promise<void>;
}

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const result = (status: string, msg: string, results: unknown) => ({ msg, results, status });

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startPaddlePeer(options: PaddlePeerOptions = {}): Promise<PaddlePeer> {
  const requests: PaddlePeerRequest[] = [];
  const reader = createTesseractAdapter({ timeoutMs: 60_000 });
  const state: PaddlePeer['options'] = options;
  const server = createServer(async (req, res) => {
    try {
      if (state.misbehave === 'down') return reply(res, 503, { message: 'Service Unavailable' });
      const url = new URL(req.url ?? '/', 'http://peer');
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body>PaddleHub Serving</body></html>');
      }
      const m = /^\/predict\/([\w-]+)$/.exec(url.pathname);
      if (req.method !== 'POST' || !m) return reply(res, 404, { message: 'Not Found' });
      const module = m[1]!;
      if (!(state.modules ?? ['ocr_system']).includes(module)) return reply(res, 404, result('-1', `Module ${module} is not available.`, ''));
      const raw = await bodyOf(req);
      let images: unknown;
      try {
        images = (JSON.parse(raw.toString('utf8')) as { images?: unknown }).images;
      } catch {
        return reply(res, 200, result('-1', 'Please check data format!', ''));
      }
      if (!Array.isArray(images) || !images.every((i) => typeof i === 'string')) return reply(res, 200, result('-1', 'Please check data format!', ''));
      const pictures = (images as string[]).map((b64) => Buffer.from(b64, 'base64'));
      requests.push({ module, images: pictures.length, bytes: pictures.reduce((n, p) => n + p.length, 0) });
      if (state.misbehave === 'garbage') return reply(res, 200, result('000', '', 'all good'));
      const results = [];
      for (const picture of pictures) {
        let page;
        try {
          page = await reader.recognize(new Uint8Array(picture), { languages: state.languages ?? ['en'] });
        } catch (err) {
          return reply(res, 200, result('-1', `Please check data format! ${(err as Error).message}`, ''));
        }
        results.push(page.lines.map((l) => ({ text: l.text, confidence: l.confidence / 100, text_region: [[l.x0, l.y0], [l.x1, l.y0], [l.x1, l.y1], [l.x0, l.y1]] })));
      }
      reply(res, 200, result('000', '', results));
    } catch (err) {
      reply(res, 500, { message: (err as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    options: state,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
