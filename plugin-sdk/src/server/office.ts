import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { neutraliseDocument, UncheckableDocument } from './office-references.js';
import { pdfPageSizes, renderDpi } from './pictures.js';

/**
 * Headless LibreOffice (Debian's `soffice`) and poppler's tools, for every area that converts documents: documents to
 * PDF, PDF to docx, documents to page images. One conversion at a time per server (LibreOffice takes
 * a core and a few hundred MB each; two cores are shared with the engines), each in a scratch folder
 * of its own with a profile this process owns, and killed at its deadline or when the caller aborts.
 *
 * A document is a user's: LibreOffice would fetch the `http` addresses it names and embed the local
 * files it names (another user's pictures). So the document's own references are removed first
 * (office-references.ts), the profile refuses linked content and link updates, and LibreOffice runs
 * in a network namespace of its own (no network at all) where the server may make one (as root).
 */

export class ConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionError';
  }
}

const SOFFICE = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((p) => existsSync(p)) ?? 'soffice';
let chain: Promise<unknown> = Promise.resolve();
const profile = join(tmpdir(), `linguaport-office-${process.pid}`);

/**
 * The profile's settings, written before every run: links from documents outside trusted locations
 * are blocked (linked pictures, media, included files), links are never updated (Writer 0, Calc 1 are
 * "never"), formulas are not recalculated on load, macros never run, and any address LibreOffice would
 * fetch goes to a proxy on the discard port, which refuses it, when there is a network at all.
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'CheckDocumentEvents', 'true'],
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', '0'],
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', '1'],
  ['/org.openoffice.Office.Calc/Formula/Load', 'OOXMLRecalcMode', '1'],
  ['/org.openoffice.Office.Calc/Formula/Load', 'ODFRecalcMode', '1'],
  ['/org.openoffice.Inet/Settings', 'ooInetProxyType', '2'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyName', '127.0.0.1'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPProxyPort', '9'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyName', '127.0.0.1'],
  ['/org.openoffice.Inet/Settings', 'ooInetHTTPSProxyPort', '9'],
  ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyName', '127.0.0.1'],
  ['/org.openoffice.Inet/Settings', 'ooInetFTPProxyPort', '9'],
  ['/org.openoffice.Inet/Settings', 'ooInetNoProxy', ''],
]
  .map(([path, name, value]) => `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`)
  .join('\n')}
</oor:items>
`;

/** How LibreOffice is started without a network: `unshare -n` as root, `unshare -rn` where user namespaces are allowed, else not at all. */
let isolation: string[] | null | undefined;
function networkIsolation(): string[] | null {
  if (isolation === undefined) {
    isolation = [['-n'], ['-r', '-n']].find((flags) => spawnSync('unshare', [...flags, 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0) ?? null;
  }
  return isolation;
}

/** For tests: `false` runs LibreOffice with the host's network (the profile and the checks must hold alone); `undefined` probes again. */
export function setOfficeNetworkIsolation(on: false | undefined): void {
  isolation = on === false ? null : undefined;
}

/** Runs `fn` after every conversion queued before it (one LibreOffice at a time). */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const next = chain.then(fn, fn);
  chain = next.catch(() => undefined);
  return next;
}

function run(command: string, args: string[], options: { cwd?: string; timeoutMs: number; signal?: AbortSignal; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(kill, options.timeoutMs);
    const onAbort = () => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new ConversionError(`${command} could not start: ${err.message}`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) reject(options.signal.reason ?? new Error('aborted'));
      else if (code === 0) resolve({ stdout, stderr });
      else reject(new ConversionError(`${command} ended with ${sig ?? `code ${code}`}: ${(stderr || stdout).trim().split('\n').slice(-2).join(' ').slice(0, 300)}`));
    });
  });
}

async function scratch<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'linguaport-convert-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Converts a document with LibreOffice: `to` is the output extension with an optional filter
 * (`pdf`, `docx`, `docx:"MS Word 2007 XML"`); `infilter` forces an import filter (a PDF opened as a
 * Writer document for editing: `writer_pdf_import`).
 */
export function convertWithOffice(bytes: Uint8Array, fileName: string, to: string, options: { infilter?: string; signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Buffer> {
  return serial(() =>
    scratch(async (dir) => {
      const ext = extname(fileName).toLowerCase() || '.bin';
      const input = join(dir, `input${ext}`);
      const out = join(dir, 'out');
      await mkdir(out);
      await mkdir(join(profile, 'user'), { recursive: true });
      await writeFile(join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
      // Plain text is opened as plain text, whatever it holds (LibreOffice would detect HTML in it).
      const infilter = options.infilter ?? (ext === '.txt' ? 'Text (encoded):UTF8' : undefined);
      let safe: Buffer;
      try {
        safe = neutraliseDocument(bytes, { text: infilter?.startsWith('Text') ?? false });
      } catch (err) {
        if (err instanceof UncheckableDocument) throw new ConversionError(`${fileName} cannot be converted: ${err.message}`);
        throw err;
      }
      await writeFile(input, safe);
      const args = ['--headless', '--norestore', '--nolockcheck', `-env:UserInstallation=${pathToFileURL(profile).href}`];
      if (infilter) args.push(`--infilter=${infilter}`);
      args.push('--convert-to', to, '--outdir', out, input);
      const flags = networkIsolation();
      await run(flags ? 'unshare' : SOFFICE, flags ? [...flags, SOFFICE, ...args] : args, { cwd: dir, timeoutMs: options.timeoutMs ?? 180_000, signal: options.signal, env: { ...process.env, HOME: dir, LC_ALL: 'C.UTF-8' } });
      const produced = await readdir(out);
      if (produced.length === 0) throw new ConversionError(`LibreOffice could not convert ${fileName} to ${to.split(':')[0]}`);
      return readFile(join(out, produced[0]!));
    }),
  );
}

/**
 * Page images of a PDF (PNG, `dpi` dots per inch), pages `firstPage` (default 1) to `maxPages`. A page
 * too large for `dpi` within the picture limit (a PDF may declare a page of metres) is rendered at the
 * resolution that keeps it within, read from its size (`pdfinfo`), so no rendering passes MAX_PICTURE_PIXELS.
 */
export function pdfPages(pdf: Uint8Array, options: { dpi?: number; firstPage?: number; maxPages?: number; signal?: AbortSignal } = {}): Promise<Buffer[]> {
  return scratch(async (dir) => {
    const input = join(dir, 'input.pdf');
    await writeFile(input, pdf);
    const dpi = options.dpi ?? 60;
    const first = options.firstPage ?? 1;
    const last = options.maxPages ?? 50;
    const { stdout } = await run('pdfinfo', ['-f', String(first), '-l', String(last), input], { timeoutMs: 30_000, signal: options.signal });
    const sizes = pdfPageSizes(stdout);
    const at = new Map([...sizes].map(([page, size]) => [page, renderDpi(size.width, size.height, dpi)]));
    if ([...at.values()].every((d) => d === dpi)) {
      await run('pdftoppm', ['-png', '-r', String(dpi), '-f', String(first), '-l', String(last), input, join(dir, 'page')], { timeoutMs: 120_000, signal: options.signal });
    } else {
      for (const [page, pageDpi] of at) await run('pdftoppm', ['-png', '-r', String(pageDpi), '-f', String(page), '-l', String(page), input, join(dir, 'page')], { timeoutMs: 120_000, signal: options.signal });
    }
    const names = (await readdir(dir)).filter((n) => n.startsWith('page') && n.endsWith('.png')).sort((a, b) => Number(/(\d+)\.png$/.exec(a)![1]) - Number(/(\d+)\.png$/.exec(b)![1]));
    return Promise.all(names.map((n) => readFile(join(dir, n))));
  });
}

/** The number of pages of a PDF (poppler's pdfinfo), or null when it cannot be read. */
export async function pdfPageCount(pdf: Uint8Array): Promise<number | null> {
  return scratch(async (dir) => {
    const input = join(dir, 'input.pdf');
    await writeFile(input, pdf);
    try {
      const { stdout } = await run('pdfinfo', [input], { timeoutMs: 30_000 });
      const m = /^Pages:\s+(\d+)/m.exec(stdout);
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  });
}

/**
 * A target language as office documents record it. Word, PowerPoint and ODF keep three languages per
 * run (western, East Asian, complex script) and spell-check text in the one that fits its script, so a
 * language is written in the slot of its script: `kind`. Bare codes get their likely region (`fr` ->
 * `fr-FR`), as Word names languages with one.
 */
export interface OfficeLanguage {
  /** BCP 47 with a region where one is known: `fr-FR`, `zh-CN`, `sr-Latn-RS`. */
  tag: string;
  language: string;
  /** ISO 3166 region, when known. */
  region?: string;
  kind: 'western' | 'asian' | 'complex';
}

const ASIAN_SCRIPTS = new Set(['Hans', 'Hant', 'Hani', 'Jpan', 'Hira', 'Kana', 'Kore', 'Hang']);
const COMPLEX_SCRIPTS = new Set(['Arab', 'Hebr', 'Syrc', 'Thaa', 'Thai', 'Laoo', 'Khmr', 'Mymr', 'Deva', 'Beng', 'Guru', 'Gujr', 'Orya', 'Taml', 'Telu', 'Knda', 'Mlym', 'Sinh', 'Tibt']);

/** The language of a platform code (`fr`, `zh-TW`, `pt-BR`), or null when it is not a language tag. */
export function officeLanguage(code: string): OfficeLanguage | null {
  let given: Intl.Locale;
  try {
    given = new Intl.Locale(code.trim().replace(/_/g, '-'));
  } catch {
    return null;
  }
  const full = given.maximize();
  const script = full.script;
  const region = given.region ?? full.region;
  const kind = script && ASIAN_SCRIPTS.has(script) ? 'asian' : script && COMPLEX_SCRIPTS.has(script) ? 'complex' : 'western';
  // A script is named only when the code named it and the language is written in more than one (sr-Latn); zh-TW says Hant by its region.
  const named = given.script && given.language !== 'zh' ? `-${given.script}` : '';
  return { tag: `${given.language}${named}${region ? `-${region}` : ''}`, language: given.language, ...(region ? { region } : {}), kind };
}
