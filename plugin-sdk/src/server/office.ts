import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Headless LibreOffice (Debian's `soffice`) and poppler's tools, for every area that converts documents: documents to
 * PDF, PDF to docx, documents to page images. One conversion at a time per server (LibreOffice takes
 * a core and a few hundred MB each; two cores are shared with the engines), each in a scratch folder
 * of its own with a profile this process owns, and killed at its deadline or when the caller aborts.
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
      await mkdir(profile, { recursive: true });
      await writeFile(input, bytes);
      const args = ['--headless', '--norestore', '--nolockcheck', `-env:UserInstallation=${pathToFileURL(profile).href}`];
      if (options.infilter) args.push(`--infilter=${options.infilter}`);
      args.push('--convert-to', to, '--outdir', out, input);
      await run(SOFFICE, args, { cwd: dir, timeoutMs: options.timeoutMs ?? 180_000, signal: options.signal, env: { ...process.env, HOME: dir, LC_ALL: 'C.UTF-8' } });
      const produced = await readdir(out);
      if (produced.length === 0) throw new ConversionError(`LibreOffice could not convert ${fileName} to ${to.split(':')[0]}`);
      return readFile(join(out, produced[0]!));
    }),
  );
}

/** Page images of a PDF (PNG, `dpi` dots per inch), pages `firstPage` (default 1) to `maxPages`. */
export function pdfPages(pdf: Uint8Array, options: { dpi?: number; firstPage?: number; maxPages?: number; signal?: AbortSignal } = {}): Promise<Buffer[]> {
  return scratch(async (dir) => {
    const input = join(dir, 'input.pdf');
    await writeFile(input, pdf);
    await run('pdftoppm', ['-png', '-r', String(options.dpi ?? 60), '-f', String(options.firstPage ?? 1), '-l', String(options.maxPages ?? 50), input, join(dir, 'page')], { timeoutMs: 120_000, signal: options.signal });
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
