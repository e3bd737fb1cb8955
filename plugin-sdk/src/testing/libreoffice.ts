import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

/**
 * Debian's LibreOffice in tests, as a writer of sample files and as the other tool that reads ours
 * back. Each start of `soffice` costs several seconds of CPU (tens on a machine busy with the rest of
 * the suite), so files LibreOffice makes from a sample are made once per machine and shared by every
 * test file (cached by content and LibreOffice's build), and files read back are read in one start.
 */

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const CACHE = join(REPO_ROOT, '.tmp', 'test-cache', 'libreoffice');
const VERSION_FILE = '/usr/lib/libreoffice/program/versionrc';

function soffice(dir: string, args: string[]): void {
  execFileSync('soffice', ['--headless', '--norestore', '--nolockcheck', ...args], { cwd: dir, env: { ...process.env, HOME: dir }, timeout: 300_000, stdio: 'ignore' });
}

let build: string | undefined;
function libreOfficeBuild(): string {
  build ??= existsSync(VERSION_FILE) ? readFileSync(VERSION_FILE, 'utf8') : 'unknown';
  return build;
}

/**
 * The file LibreOffice writes from `source` with the filter `to` (`docx:MS Word 2007 XML`, `pdf`), as
 * bytes. Made on first use and kept under `.tmp/test-cache`: test files running at the same time may
 * both make it; the last rename wins and both copies are LibreOffice's.
 */
export function madeByLibreOffice(source: { name: string; content: string | Uint8Array }, to: string): Buffer {
  const ext = to.split(':')[0]!;
  const key = createHash('sha256').update(libreOfficeBuild()).update('\0').update(source.name).update('\0').update(to).update('\0').update(source.content).digest('hex').slice(0, 32);
  const cached = join(CACHE, `${key}.${ext}`);
  if (existsSync(cached)) return readFileSync(cached);
  const dir = mkdtempSync(join(tmpdir(), 'libreoffice-made-'));
  try {
    writeFileSync(join(dir, source.name), source.content);
    soffice(dir, ['--convert-to', to, '--outdir', join(dir, 'out'), join(dir, source.name)]);
    const bytes = readFileSync(join(dir, 'out', `${source.name.slice(0, -extname(source.name).length)}.${ext}`));
    mkdirSync(CACHE, { recursive: true });
    const partial = `${cached}.${process.pid}.part`;
    writeFileSync(partial, bytes);
    renameSync(partial, cached);
    return bytes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Opens every file in one LibreOffice start and converts each with the filter `to` (`txt:Text
 * (encoded):UTF8`, a CSV filter, `pdf`, `fodt`): answers, per file name, the paths of what LibreOffice
 * wrote for it (several for a workbook exported sheet by sheet), sorted. Names must differ in their
 * base name. The folder is the caller's to remove (`dir`).
 */
export function openedByLibreOffice(files: Record<string, Uint8Array>, to: string): { dir: string; outputs: Record<string, string[]> } {
  const dir = mkdtempSync(join(tmpdir(), 'libreoffice-opened-'));
  const names = Object.keys(files);
  const bases = names.map((n) => n.slice(0, -extname(n).length));
  if (new Set(bases).size !== bases.length) throw new Error(`file names must differ before their extension: ${names.join(', ')}`);
  for (const name of names) writeFileSync(join(dir, name), files[name]!);
  soffice(dir, ['--convert-to', to, '--outdir', join(dir, 'out'), ...names.map((n) => join(dir, n))]);
  const written = existsSync(join(dir, 'out')) ? readdirSync(join(dir, 'out')).sort() : [];
  const ext = to.split(':')[0]!;
  const outputs = Object.fromEntries(
    names.map((name, i) => [name, written.filter((w) => w === `${bases[i]}.${ext}` || (w.startsWith(`${bases[i]}-`) && w.endsWith(`.${ext}`))).map((w) => join(dir, 'out', w))]),
  );
  return { dir, outputs };
}

/** What LibreOffice reads in each file, as text: `openedByLibreOffice` with every output read as UTF-8 and joined. */
export function textSeenByLibreOffice(files: Record<string, Uint8Array>, to: string): Record<string, string> {
  const { dir, outputs } = openedByLibreOffice(files, to);
  try {
    return Object.fromEntries(Object.entries(outputs).map(([name, paths]) => [name, paths.map((p) => readFileSync(p, 'utf8')).join('\n')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
