import type { EngineCapabilityDefinition } from './capabilities.js';
import type { EngineHealth } from './engines.js';

/**
 * OCR as areas program against it: the adapter contract an OCR kind implements, the capability it
 * registers under and `ctx.engines.ocr`. The built-in tesseract adapter (and tesseract's language
 * packs) is the workspace package @linguaport/ocr, which the areas running tesseract depend on.
 */

/**
 * OCR engines: the contract between the kernel's OCR routing (`ctx.engines.ocr`: node choice,
 * health, fail-over, the same rules as speech) and one kind of OCR engine (tesseract on this
 * machine, a PaddleOCR server a team runs on a GPU...). An OCR kind registers like the others
 * (`ctx.engines.registerAdapter`, `capability: ocrCapability`); its `create` returns an `OcrAdapter`.
 * Failures are `EngineError`s: `unavailable` and `timeout` mark the node unhealthy and the next one
 * is tried; `unsupported-pair` (a language it cannot read) tries the next; the others fail the request.
 */

/** Recognised text with its box in pixels of the picture (top-left origin) and a confidence of 0..100. */
interface OcrText {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  confidence: number;
}

/** One recognised word. */
export type OcrWord = OcrText;

/** One line of words, in reading order (its confidence the mean of its words'); `block` and `paragraph` group lines as the engine saw them. */
export interface OcrLine extends OcrText {
  words: OcrWord[];
  block: number;
  paragraph: number;
}

export interface OcrPage {
  width: number;
  height: number;
  lines: OcrLine[];
}

export interface RecognizeOptions {
  /** Platform language codes of the text, main one first (`en`, `zh-CN`); the engine reads those it knows. */
  languages: string[];
  signal?: AbortSignal;
}

export interface OcrAdapter {
  /** The definition's kind (`tesseract-local`, `paddleocr`). */
  readonly kind: string;
  /** The languages it reads, in platform codes. */
  languages(): Promise<string[]>;
  health(): Promise<EngineHealth>;
  /** Words and lines of a picture (png, jpeg, webp, tiff, bmp bytes). Rejects with an `EngineError`. */
  recognize(image: Uint8Array, options: RecognizeOptions): Promise<OcrPage>;
}

/** True when `adapter` is an OCR adapter (what `create` returns for an `ocr` kind). */
export function isOcrAdapter(adapter: unknown): adapter is OcrAdapter {
  const a = adapter as Partial<OcrAdapter> | null;
  return !!a && typeof a.recognize === 'function' && typeof a.languages === 'function';
}

/** Text in pictures, routed by the text's language (`ctx.engines.ocr`); OCR kinds name it as their capability. */
export const ocrCapability: EngineCapabilityDefinition<OcrAdapter> = {
  id: 'ocr',
  name: { 'zh-CN': '文字识别（OCR）', 'en-US': 'OCR' },
  node: { 'zh-CN': '文字识别节点', 'en-US': 'OCR node' },
  routing: 'language',
  isAdapter: isOcrAdapter,
  contract: 'languages, health, recognize',
  messages: {
    noEngine: (name) => ({ 'zh-CN': `没有能识别 ${name} 文字的文字识别引擎`, 'en-US': `No OCR engine reads ${name}` }),
    refused: (detail) => ({ 'zh-CN': `文字识别引擎无法读取此图片：${detail}`, 'en-US': `The OCR engine could not read this picture: ${detail}` }),
    interrupted: { 'zh-CN': '服务中断：目前没有可用的文字识别节点，请稍后再试', 'en-US': 'Service interrupted: no OCR node is available right now. Try again later.' },
  },
  console: {
    icon: 'media',
    title: { 'zh-CN': '文字识别（OCR）节点', 'en-US': 'OCR nodes' },
    help: {
      'zh-CN': '图片和扫描版 PDF 页面由能识别其语言、正在运行且健康的文字识别节点读取。内置的 tesseract 节点识别已安装的语言包；如需更多处理能力或其他模型，请添加远程节点（PaddleOCR 服务，PaddleHub Serving）。',
      'en-US': 'Pictures and scanned PDF pages are read by a running, healthy OCR node that reads their language. The built-in tesseract node reads the installed language packs; add a remote node (a PaddleOCR server, PaddleHub Serving) for more capacity or other models.',
    },
    addNode: { 'zh-CN': '添加文字识别节点', 'en-US': 'Add OCR node' },
    noNodes: { 'zh-CN': '没有文字识别节点', 'en-US': 'No OCR node' },
  },
};

export interface OcrRecognizeRequest {
  image: Uint8Array;
  /** Main language first; a node is chosen that reads the main one. */
  languages: string[];
  /** Who asked (for the logs). */
  userId?: number;
  signal?: AbortSignal;
}

export interface OcrRecognizeResult extends OcrPage {
  /** The languages read (those of the request the node knows). */
  languages: string[];
  /** The node that answered and its kind. */
  nodeId: number;
  kind: string;
}

/** `ctx.engines.ocr`: recognition through the OCR nodes the platform runs. */
export interface OcrService {
  /** Languages some healthy OCR node reads, sorted. */
  languages(): Promise<string[]>;
  /**
   * Reads a picture on a healthy OCR node that reads the main language (least busy first), failing
   * over to the next when a node fails; 400 when no node reads the language, 503 when none is up.
   */
  recognize(request: OcrRecognizeRequest): Promise<OcrRecognizeResult>;
}

/**
 * One OCR adapter as an `OcrService`, without nodes, routing or fail-over: for tools, benches and
 * format tests that read pictures with an engine directly (the platform's areas use `ctx.engines.ocr`).
 */
export function ocrServiceOf(adapter: OcrAdapter): OcrService {
  return {
    languages: () => adapter.languages(),
    async recognize(request) {
      const page = await adapter.recognize(request.image, { languages: request.languages, signal: request.signal });
      return { ...page, languages: request.languages, nodeId: 0, kind: adapter.kind };
    },
  };
}

/** `en-US` text is read by a node that reads `en`, and the other way round. */
const sameLanguage = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || a.split('-')[0]!.toLowerCase() === b.split('-')[0]!.toLowerCase();

/**
 * The languages to ask `ctx.engines.ocr` for (platform codes, main first): the file's own when some OCR
 * node reads it, else the defaults that some node reads, else the first language read at all.
 */
export function ocrLanguagesToRead(readable: string[], sourceLanguage: string | undefined, defaults: string[]): string[] {
  if (sourceLanguage && readable.some((l) => sameLanguage(l, sourceLanguage))) return [sourceLanguage];
  const known = defaults.filter((l) => readable.some((r) => sameLanguage(r, l)));
  return known.length ? known : readable.slice(0, 1);
}
