import type { EngineCapabilityDefinition } from './capabilities.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inScratch, runTool, ToolError } from './tools.js';
import { EngineError, limitConcurrency, type EngineHealth } from './engines.js';

/**
 * Tesseract (Debian's `tesseract-ocr` and its language packs) as the areas that read pictures and
 * scanned pages call it: which packs are installed, and which to read a given language with.
 */

let installedLanguages: Promise<string[]> | null = null;

/** Tesseract's installed languages, asked once per process. */
export function tesseractLanguages(): Promise<string[]> {
  installedLanguages ??= runTool('tesseract', ['--list-langs'], { timeoutMs: 30_000 })
    .then(({ stdout, stderr }) => (stdout + stderr).split('\n').slice(1).map((l) => l.trim()).filter((l) => /^[\w-]+$/.test(l) && l !== 'osd'))
    .catch(() => []);
  return installedLanguages;
}

/** The platform's language codes as tesseract's packs (`zh-CN` -> chi_sim). */
const TESSERACT_CODES: Record<string, string[]> = {
  en: ['eng'], zh: ['chi_sim', 'chi_tra'], 'zh-cn': ['chi_sim'], 'zh-hans': ['chi_sim'], 'zh-tw': ['chi_tra'], 'zh-hant': ['chi_tra'],
  es: ['spa'], fr: ['fra'], de: ['deu'], it: ['ita'], pt: ['por'], ru: ['rus'], ja: ['jpn'], ko: ['kor'], ar: ['ara'], ca: ['cat'], nl: ['nld'], pl: ['pol'], uk: ['ukr'],
  eu: ['eus'], gl: ['glg'], ro: ['ron'], cs: ['ces'], sv: ['swe'], da: ['dan'], nb: ['nor'], fi: ['fin'], tr: ['tur'], el: ['ell'], hi: ['hin'], ur: ['urd'], id: ['ind'], ms: ['msa'], vi: ['vie'], th: ['tha'], he: ['heb'], hu: ['hun'], bg: ['bul'], mk: ['mkd'], is: ['isl'], eo: ['epo'], oc: ['oci'],
};

/** The languages to read with: the source language's packs that are installed, else the defaults that are. */
export function ocrLanguagesFor(installed: string[], sourceLanguage: string | undefined, fallback: string[]): string[] {
  const code = sourceLanguage?.toLowerCase();
  const wanted = code ? (TESSERACT_CODES[code] ?? TESSERACT_CODES[code.split('-')[0]!] ?? []) : [];
  const own = wanted.filter((l) => installed.includes(l));
  // Latin text (brand names, numbers) shows up in pictures of every language: English goes along.
  if (own.length) return [...new Set([...own, ...(installed.includes('eng') ? ['eng'] : [])])];
  const defaults = fallback.filter((l) => installed.includes(l));
  return defaults.length ? defaults : installed.slice(0, 1);
}

// ---------- OCR engines ----------

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

/** Tesseract's packs for a platform language code (`zh-CN` -> chi_sim; none when unknown). */
export function tesseractPacksOf(code: string): string[] {
  const c = code.toLowerCase();
  return TESSERACT_CODES[c] ?? TESSERACT_CODES[c.split('-')[0]!] ?? [];
}

/** The platform code of a tesseract pack (the inverse of the table above), or null. */
export function platformLanguageOfPack(pack: string): string | null {
  for (const [code, packs] of Object.entries(TESSERACT_CODES)) if (packs[0] === pack && code !== 'zh' && code !== 'zh-hans' && code !== 'zh-hant') return code === 'zh-cn' ? 'zh-CN' : code === 'zh-tw' ? 'zh-TW' : code;
  return null;
}

// ---------- the built-in OCR engine ----------

/**
 * The installed packs to read these platform languages with, in order. English goes along when it is
 * installed: Latin text (brand names, numbers, codes) shows up in pictures of every language.
 */
export function tesseractPacksFor(installed: string[], languages: string[]): string[] {
  const out = languages.flatMap((code) => tesseractPacksOf(code)).filter((p) => installed.includes(p));
  if (out.length && installed.includes('eng')) out.push('eng');
  return [...new Set(out)];
}

/**
 * Debian's tesseract (`tesseract-ocr` 5 and its language packs) as an OCR node: one process per
 * picture (`tesseract in - -l eng+chi_sim tsv`, words with boxes and confidences), with
 * `OMP_THREAD_LIMIT=1` (0.18 s a picture instead of 0.8 s on this machine: its OpenMP threads fight
 * over two cores), as many at once as the node's container count. Its languages are the installed
 * packs (`--list-langs`) that have a platform code.
 */

export interface TesseractOptions {
  /** Per-picture deadline. */
  timeoutMs: number;
  /** Pictures read at once (each takes a core); more wait their turn. */
  parallel?: number;
  command?: string;
}

const env = () => ({ ...process.env, OMP_THREAD_LIMIT: '1' });

/** Words, lines, paragraphs and blocks of tesseract's TSV, in pixels, lines in reading order. */
export function readTesseractPage(tsv: string): OcrPage {
  const page = { width: 0, height: 0 };
  const lines = new Map<string, OcrLine>();
  for (const row of tsv.split('\n').slice(1)) {
    const f = row.split('\t');
    if (f.length < 12) continue;
    const level = Number(f[0]);
    const [left, top, width, height] = [Number(f[6]), Number(f[7]), Number(f[8]), Number(f[9])];
    if (level === 1) {
      page.width = width;
      page.height = height;
      continue;
    }
    const text = f.slice(11).join('\t').trim();
    if (level !== 5 || !text) continue;
    const key = `${f[2]}.${f[3]}.${f[4]}`;
    const word = { text, x0: left, y0: top, x1: left + width, y1: top + height, confidence: Math.max(0, Number(f[10])) };
    const line = lines.get(key);
    if (!line) {
      lines.set(key, { ...word, words: [word], block: Number(f[2]), paragraph: Number(f[3]) });
      continue;
    }
    line.words.push(word);
    line.x0 = Math.min(line.x0, word.x0);
    line.y0 = Math.min(line.y0, word.y0);
    line.x1 = Math.max(line.x1, word.x1);
    line.y1 = Math.max(line.y1, word.y1);
  }
  for (const line of lines.values()) {
    line.text = line.words.map((w) => w.text).join(' ');
    line.confidence = Math.round((line.words.reduce((n, w) => n + w.confidence, 0) / line.words.length) * 100) / 100;
  }
  return { ...page, lines: [...lines.values()] };
}

export function createTesseractAdapter(options: TesseractOptions): OcrAdapter {
  const command = options.command ?? 'tesseract';
  const inTurn = limitConcurrency(options.parallel ?? 1);

  /** The installed packs (asked at each health check: packs may be installed while the server runs). */
  async function packs(): Promise<string[]> {
    try {
      const { stdout, stderr } = await runTool(command, ['--list-langs'], { timeoutMs: 30_000, env: env() });
      return (stdout + stderr).split('\n').slice(1).map((l) => l.trim()).filter((l) => /^[\w-]+$/.test(l) && l !== 'osd');
    } catch (err) {
      throw new EngineError('unavailable', `${command} cannot run (Debian package tesseract-ocr): ${(err as Error).message.split('\n')[0]}`, undefined, { cause: err });
    }
  }
  let installed: Promise<string[]> | null = null;
  const known = () => (installed ??= packs().catch((err) => {
    installed = null;
    throw err;
  }));

  return {
    kind: 'tesseract-local',
    async languages() {
      installed = packs();
      const codes = (await installed).map(platformLanguageOfPack).filter((c): c is string => !!c);
      return [...new Set(codes)].sort();
    },
    async health(): Promise<EngineHealth> {
      try {
        const list = await packs();
        installed = Promise.resolve(list);
        return list.length ? { ok: true } : { ok: false, detail: 'tesseract has no language pack (Debian packages tesseract-ocr-eng, tesseract-ocr-chi-sim...)' };
      } catch (err) {
        return { ok: false, detail: (err as Error).message };
      }
    },
    async recognize(image, { languages, signal }) {
      const list = tesseractPacksFor(await known(), languages);
      if (!list.length) throw new EngineError('unsupported-pair', `no tesseract pack installed here reads ${languages.join(', ')}`);
      try {
        return await inTurn(() =>
          inScratch(async (dir) => {
            const input = join(dir, 'picture');
            await writeFile(input, image);
            const { stdout } = await runTool(command, [input, '-', '-l', list.join('+'), 'tsv'], { timeoutMs: options.timeoutMs, signal, cwd: dir, env: env() });
            return readTesseractPage(stdout);
          }),
        );
      } catch (err) {
        if (signal?.aborted) throw new EngineError('timeout', 'OCR cancelled by the caller', undefined, { cause: err });
        if (err instanceof ToolError && err.exitCode === null && /longer than/.test(err.message)) throw new EngineError('timeout', err.message, undefined, { cause: err });
        if (err instanceof ToolError && err.exitCode === null) throw new EngineError('unavailable', err.message, undefined, { cause: err });
        // Tesseract ran and refused the file: the picture is at fault, not the node.
        throw new EngineError('rejected', `the picture cannot be read (${err instanceof ToolError ? err.detail || 'tesseract refused it' : (err as Error).message})`, undefined, { cause: err });
      }
    },
  };
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
