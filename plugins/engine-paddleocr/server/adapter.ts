import { z } from 'zod';
import {
  EngineError,
  engineFetch,
  errorForStatus,
  parseJson,
  pictureSize,
  trimSlash,
  type EngineHealth,
  type OcrAdapter,
  type OcrAdapterDefinition,
  type OcrLine,
  type OcrPage,
  type OcrWord,
  ocrCapability,
} from '@linguaport/sdk/server';

/**
 * A remote OCR node speaking PaddleOCR's PaddleHub Serving API (`deploy/hubserving/ocr_system`, the
 * detection + angle classification + recognition service a team runs on a GPU with
 * `hub serving start -m ocr_system`, port 8868 by default):
 * `POST {base}/predict/ocr_system` with `{"images": ["<base64 picture>"]}`, answered with
 * `{"msg": "", "status": "000", "results": [[{"text", "confidence", "text_region": [[x, y] x4]}, ...]]}`
 * (one list per picture; a failure has another status and its message in `msg`). The service reads
 * lines, not words: a line's words are placed along its box by their share of its characters.
 */

export interface PaddleOcrOptions {
  /** The server, e.g. `http://10.0.0.7:8868`. */
  url: string;
  /** The hub module served (`ocr_system`). */
  module: string;
  /** Languages the served models read, in platform codes (the service has no list to ask). */
  languages: string[];
  timeoutMs?: number;
}

const point = z.tuple([z.number().finite(), z.number().finite()]);
const resultShape = z.object({ text: z.string(), confidence: z.number().finite(), text_region: z.array(point).min(1) });
const replyShape = z.object({ status: z.string(), msg: z.string().optional(), results: z.unknown() });

/** The base language of a code (`zh-CN` -> `zh`), how the node's languages are matched. */
const base = (code: string) => code.split('-')[0]!.toLowerCase();

/** Words of a line spread along its box by their share of its characters (the service gives line boxes only). */
function wordsAlong(text: string, box: { x0: number; y0: number; x1: number; y1: number }, confidence: number): OcrWord[] {
  const pieces = text.split(/(\s+)/);
  const total = Math.max(1, text.length);
  const width = box.x1 - box.x0;
  const out: OcrWord[] = [];
  let at = 0;
  for (const piece of pieces) {
    const from = box.x0 + (width * at) / total;
    at += piece.length;
    if (!piece.trim()) continue;
    out.push({ text: piece, x0: Math.round(from), y0: box.y0, x1: Math.round(box.x0 + (width * at) / total), y1: box.y1, confidence });
  }
  return out;
}

/** The lines of one picture's results, top to bottom then left to right, each its own block. */
export function readPaddleResults(results: unknown, size: { width: number; height: number }): OcrPage {
  const list = z.array(z.array(resultShape)).safeParse(results);
  if (!list.success || list.data.length !== 1) throw new EngineError('bad-response', `PaddleOCR answer has no result list for the picture: ${list.success ? `${list.data.length} lists` : list.error.issues[0]?.message}`);
  const lines: OcrLine[] = list.data[0]!
    .filter((r) => r.text.trim())
    .map((r) => {
      const xs = r.text_region.map((p) => p[0]);
      const ys = r.text_region.map((p) => p[1]);
      const box = { x0: Math.max(0, Math.min(...xs)), y0: Math.max(0, Math.min(...ys)), x1: Math.max(...xs), y1: Math.max(...ys) };
      const confidence = Math.round(Math.min(1, Math.max(0, r.confidence)) * 10000) / 100;
      const text = r.text.trim();
      return { text, ...box, confidence, words: wordsAlong(text, box, confidence), block: 0, paragraph: 0 };
    })
    .sort((a, b) => (Math.abs(a.y0 - b.y0) > Math.min(a.y1 - a.y0, b.y1 - b.y0) / 2 ? a.y0 - b.y0 : a.x0 - b.x0));
  lines.forEach((l, i) => {
    l.block = i + 1;
    l.paragraph = 1;
  });
  return { ...size, lines };
}

export function createPaddleOcrAdapter(options: PaddleOcrOptions): OcrAdapter {
  const root = trimSlash(options.url);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const reads = (language: string) => options.languages.some((l) => base(l) === base(language));

  return {
    kind: 'paddleocr',
    async languages() {
      return [...options.languages];
    },
    async health(): Promise<EngineHealth> {
      // PaddleHub Serving answers its index page at `/` when it is up.
      const started = performance.now();
      try {
        const res = await engineFetch(`${root}/`, { timeoutMs: Math.min(timeoutMs, 10_000) });
        const latencyMs = Math.round(performance.now() - started);
        if (res.status >= 400) return { ok: false, detail: `/: HTTP ${res.status}`, latencyMs };
        return { ok: true, latencyMs };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },
    async recognize(image, { languages, signal }) {
      if (!languages.length || !reads(languages[0]!)) throw new EngineError('unsupported-pair', `this node is not offered for ${languages[0] ?? 'no language'}`);
      // The service does not say the picture's size: its header does.
      const size = pictureSize(image);
      if (!size) throw new EngineError('rejected', 'the picture is damaged: its header cannot be read');
      const res = await engineFetch(`${root}/predict/${encodeURIComponent(options.module)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ images: [Buffer.from(image).toString('base64')] }),
        signal,
        timeoutMs,
      });
      // A module the server does not serve is the node's configuration, not this picture.
      if (res.status === 404) throw new EngineError('unavailable', `PaddleOCR: the server does not serve the module ${options.module} (HTTP 404)`, 404);
      const body = parseJson(res, 'PaddleOCR');
      if (res.status < 200 || res.status >= 300) throw errorForStatus(res.status, `PaddleOCR: ${(body as { msg?: string } | null)?.msg || `HTTP ${res.status}`}`);
      const reply = replyShape.safeParse(body);
      if (!reply.success) throw new EngineError('bad-response', `PaddleOCR answer is not {status, msg, results}: ${reply.error.issues[0]?.message ?? ''}`);
      // A failed prediction (a picture the service cannot decode) is the request's, not the node's.
      if (reply.data.status !== '000') throw new EngineError('rejected', `PaddleOCR could not read the picture: ${reply.data.msg || `status ${reply.data.status}`}`);
      return readPaddleResults(reply.data.results, size);
    },
  };
}

/** A node's own fields: the server, the hub module it serves, the languages of its models. */
export const paddleOcrConfig = z.object({
  baseUrl: z.string().url(),
  module: z.string().trim().regex(/^[A-Za-z0-9_-]{1,100}$/).default('ocr_system'),
  languages: z.array(z.string().trim().min(2).max(20)).min(1),
});

export const paddleOcrDefinition: OcrAdapterDefinition<z.infer<typeof paddleOcrConfig>> = {
  kind: 'paddleocr',
  name: { 'zh-CN': 'PaddleOCR 文字识别（PaddleHub Serving）', 'en-US': 'PaddleOCR (PaddleHub Serving)' },
  capability: ocrCapability,
  config: paddleOcrConfig,
  fields: {
    baseUrl: { label: { 'zh-CN': '服务地址', 'en-US': 'Server address' }, placeholder: 'http://10.0.0.7:8868' },
    module: { label: { 'zh-CN': '服务模块', 'en-US': 'Served module' }, placeholder: 'ocr_system' },
    languages: { label: { 'zh-CN': '识别的语言', 'en-US': 'Languages read' }, help: { 'zh-CN': '所部署模型能识别的语言代码，逗号分隔，例如 zh-CN, en', 'en-US': 'Language codes the deployed models read, comma-separated, e.g. zh-CN, en' } },
  },
  create(node, helpers) {
    const c = node.config;
    return createPaddleOcrAdapter({ url: c.baseUrl, module: c.module, languages: c.languages, timeoutMs: Math.max(helpers.timeoutMs, 120_000) });
  },
};
