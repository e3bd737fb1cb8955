import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A Debian package repository on disk, for tests of what installs packages (language packs): real
 * `.deb` files built with dpkg-deb, a `Packages` index, and the apt options that make apt-get and
 * apt-cache read only this repository (their own lists and cache; dpkg's database stays the
 * system's, so an install is real). No network. Needs Debian's dpkg-deb and apt.
 */
export interface AptPackage {
  name: string;
  version?: string;
  description: string;
  /** Files the package installs: absolute path -> content. */
  files: Record<string, string>;
}

export interface AptRepository {
  dir: string;
  /** `-o` options for apt-get and apt-cache. */
  options: string[];
  remove(): void;
}

/** Folders 0755 and files 0644 below `dir`, as a package builder expects. */
function publicModes(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) publicModes(path);
    else chmodSync(path, 0o644);
  }
}

export function buildAptRepository(packages: AptPackage[]): AptRepository {
  const dir = mkdtempSync(join(tmpdir(), 'apt-repo-'));
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  const index: string[] = [];
  for (const p of packages) {
    const version = p.version ?? '1.0-1';
    const tree = join(dir, 'tree', p.name);
    mkdirSync(join(tree, 'DEBIAN'), { recursive: true });
    for (const [path, content] of Object.entries(p.files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), content);
    }
    const control = [`Package: ${p.name}`, `Version: ${version}`, 'Architecture: all', 'Maintainer: Test <test@example.org>', `Description: ${p.description}`];
    writeFileSync(join(tree, 'DEBIAN', 'control'), `${control.join('\n')}\n`);
    // dpkg-deb refuses a control folder outside 0755..0775, and the package installs its files with the
    // modes they have here: set them, whatever umask the process has (a server started in the same
    // test process sets a private one).
    publicModes(tree);
    const file = `${p.name}_${version}_all.deb`;
    execFileSync('dpkg-deb', ['--root-owner-group', '--build', tree, join(repo, file)], { stdio: 'ignore' });
    const sha256 = createHash('sha256').update(readFileSync(join(repo, file))).digest('hex');
    index.push([...control, `Filename: ./${file}`, `Size: ${statSync(join(repo, file)).size}`, `SHA256: ${sha256}`].join('\n'));
  }
  writeFileSync(join(repo, 'Packages'), `${index.join('\n\n')}\n\n`);
  writeFileSync(join(dir, 'local.list'), `deb [trusted=yes] file:${repo} ./\n`);
  for (const d of ['parts', 'lists/partial', 'cache/archives/partial']) mkdirSync(join(dir, d), { recursive: true });
  const options = [
    '-o', `Dir::Etc::SourceList=${join(dir, 'local.list')}`,
    '-o', `Dir::Etc::SourceParts=${join(dir, 'parts')}`,
    '-o', `Dir::State::Lists=${join(dir, 'lists')}`,
    '-o', `Dir::Cache=${join(dir, 'cache')}`,
  ];
  execFileSync('apt-get', [...options, 'update'], { stdio: 'ignore' });
  return { dir, options, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
