import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';

/**
 * Checks made before anything is created, so that a start that cannot succeed fails in one clear
 * line and leaves nothing behind (no database, no administrator password printed for nothing).
 */

/** Creates `dir` one level at a time: Node's recursive mkdir never returns under /proc. */
export function ensureWritableDir(dir: string): void {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      if (!statSync(cur).isDirectory()) throw new Error(`data directory ${dir} is not writable: ${cur} is not a directory`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw reword(dir, err);
      missing.unshift(cur);
      const parent = dirname(cur);
      if (parent === cur) break;
      cur = parent;
    }
  }
  try {
    for (const d of missing) mkdirSync(d);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw reword(dir, err);
  }
}

function reword(dir: string, err: unknown): Error {
  if (err instanceof Error && err.message.startsWith('data directory')) return err;
  const e = err as NodeJS.ErrnoException;
  return new Error(`data directory ${dir} is not writable: ${e.code ?? e.message}`);
}

/** Resolves when host:port can be bound now; rejects with the listen error (EADDRINUSE, ...). */
export function probePort(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * External programs the server's features run, each with the Debian package that provides it
 * (`scripts/setup.mjs` installs the same packages). A missing one is reported by name at start
 * and in `GET /api/health`, and makes only its feature unavailable: the server still starts.
 */
export type ToolFeature = 'apertium' | 'apertium-html' | 'office' | 'pdf' | 'ocr';

export interface ExternalTool {
  name: string;
  debianPackage: string;
  feature: ToolFeature;
  /** Found on PATH by name, or a custom probe (an interpreter with a module). */
  probe?: (env: NodeJS.ProcessEnv) => boolean;
}

export interface ToolStatus {
  name: string;
  debianPackage: string;
  feature: ToolFeature;
  ok: boolean;
}

/** Debian's interpreter: the first `python3` on PATH may be another one, without tornado. */
export const APY_PYTHON = '/usr/bin/python3';

export const EXTERNAL_TOOLS: readonly ExternalTool[] = [
  { name: 'apertium', debianPackage: 'apertium', feature: 'apertium' },
  { name: 'apertium-wblank-mode', debianPackage: 'apertium', feature: 'apertium' },
  { name: 'lt-proc', debianPackage: 'lttoolbox', feature: 'apertium' },
  { name: 'apertium-apy', debianPackage: 'apertium-apy', feature: 'apertium' },
  {
    name: `${APY_PYTHON} with tornado and apertium_apy`,
    debianPackage: 'apertium-apy',
    feature: 'apertium',
    probe: (env) => spawnSync(APY_PYTHON, ['-c', 'import tornado, apertium_apy'], { env, stdio: 'ignore', timeout: 10_000 }).status === 0,
  },
  { name: 'tf-extract', debianPackage: 'transfuse', feature: 'apertium-html' },
  { name: 'tf-inject', debianPackage: 'transfuse', feature: 'apertium-html' },
  { name: 'soffice', debianPackage: 'libreoffice-writer-nogui', feature: 'office' },
  { name: 'pdftotext', debianPackage: 'poppler-utils', feature: 'pdf' },
  { name: 'pdftoppm', debianPackage: 'poppler-utils', feature: 'pdf' },
  { name: 'tesseract', debianPackage: 'tesseract-ocr', feature: 'ocr' },
];

export const FEATURE_NAMES: Record<ToolFeature, string> = {
  apertium: 'the built-in Apertium engine',
  'apertium-html': 'html translation with the built-in Apertium engine',
  office: 'legacy office formats (doc, xls, ppt, rtf) and conversion to PDF through LibreOffice',
  pdf: 'reading PDF documents (poppler)',
  ocr: 'text recognition in scanned documents and pictures (tesseract)',
};

/** An executable called `name` in one of PATH's directories. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      const file = join(dir, name);
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      // Not in this directory.
    }
  }
  return false;
}

export function checkExternalTools(env: NodeJS.ProcessEnv = process.env, tools: readonly ExternalTool[] = EXTERNAL_TOOLS): ToolStatus[] {
  return tools.map((t) => ({ name: t.name, debianPackage: t.debianPackage, feature: t.feature, ok: t.probe ? t.probe(env) : onPath(t.name, env) }));
}

/** Why `feature` is unavailable (`tf-extract, tf-inject missing (Debian package transfuse)`), or null when it is available. */
export function featureUnavailable(feature: ToolFeature, statuses: readonly ToolStatus[]): string | null {
  const missing = statuses.filter((t) => t.feature === feature && !t.ok);
  if (missing.length === 0) return null;
  const packages = [...new Set(missing.map((t) => t.debianPackage))];
  return `${missing.map((t) => t.name).join(', ')} missing (Debian package${packages.length > 1 ? 's' : ''} ${packages.join(', ')})`;
}

/** One log line per unavailable feature, naming the missing tools; empty when all are there. */
export function describeMissingTools(statuses: readonly ToolStatus[]): string[] {
  const features = [...new Set(statuses.filter((t) => !t.ok).map((t) => t.feature))];
  return features.map((f) => `${FEATURE_NAMES[f]} is unavailable: ${featureUnavailable(f, statuses)}`);
}
