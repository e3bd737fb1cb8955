import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineError, limitConcurrency, type EngineHealth, type OcrAdapter, type OcrLine, type OcrPage } from '@linguaport/sdk/server';
import { inScratch, runTool, ToolError } from '@linguaport/spawner';

/**
 * Tesseract (Debian's `tesseract-ocr` and its language packs) as the areas that read pictures and
 * scanned pages call it: which packs are installed, which to read a given language with, and the
 * built-in OCR engine (an `OcrAdapter`, the SDK's contract).
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

