import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '@linguaport/sdk/shared';
import { KERNEL_PACKAGES, manifestPackages, ROOT, systemPackages } from '../setup.mjs';
import { readDeploymentSet } from '../lib/deployment.mjs';

/** Set-up installed these before the plugins declared their tools (scripts/setup.mjs, issue 24). */
const BEFORE = {
  runtime: [
    'apertium', 'apertium-apy', 'apertium-eng-spa', 'apertium-eng-cat', 'apertium-fr-es', 'apertium-spa-cat', 'apertium-es-pt', 'apertium-spa-ita', 'apertium-es-ro',
    'apertium-eu-es', 'apertium-eu-en', 'apertium-es-gl', 'apertium-en-gl', 'apertium-fra-cat', 'apertium-por-cat', 'transfuse', 'libreoffice-writer-nogui',
    'libreoffice-calc-nogui', 'libreoffice-impress-nogui', 'poppler-utils', 'tesseract-ocr', 'tesseract-ocr-eng', 'tesseract-ocr-chi-sim', 'fonts-noto-cjk',
    'fonts-dejavu-core', 'ffmpeg', 'pocketsphinx', 'pocketsphinx-en-us',
  ],
  test: ['chromium', 'espeak-ng', 'postgresql', 'slapd', 'ldap-utils', 'iproute2', 'translate-toolkit', 'gettext', 'libxml2-utils', 'zip', 'unzip'],
};

const registry = join(ROOT, 'registry.json');
const plugins = readDeploymentSet(registry).filter((p: { enabled: boolean }) => p.enabled) as { id: string; dir: string }[];
const manifestOf = (dir: string) => parseManifest(JSON.parse(readFileSync(join(dir, 'plugin.json'), 'utf8')), join(dir, 'plugin.json'));
const names = (list: { pkg: string }[]) => list.map((p) => p.pkg).sort();

function sources(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) out = out.concat(sources(file));
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) out.push(file);
  }
  return out;
}

/** A literal program name handed to a spawning call: `runTool('pdfinfo'`, `spawn('apt-get'`, `execFile('nvidia-smi'`. */
const SPAWN = /\b(?:runTool|startWarmTool|spawnTool|spawn|spawnSync|execFile|execFileSync|execSync|run)\(\s*['"]([^'"\s]+)['"]/g;
/** Helpers of the SDK and of the workspace packages (@linguaport/media, @linguaport/ocr) that run a program on the calling plugin's behalf. */
const SDK_HELPERS: Record<string, string[]> = {
  convertWithOffice: ['soffice'],
  pdfPages: ['pdfinfo', 'pdftoppm'],
  pdfPageCount: ['pdfinfo'],
  probeMedia: ['ffprobe'],
  probeUpload: ['ffprobe'],
  runFfmpeg: ['ffmpeg'],
  extractAudio: ['ffmpeg'],
  convertMedia: ['ffmpeg'],
  cutMedia: ['ffmpeg'],
  burnSubtitles: ['ffmpeg'],
  tesseractLanguages: ['tesseract'],
  createTesseractAdapter: ['tesseract'],
};
/** The POSIX shell every Debian has (its package is essential): a pipeline's runner, not a tool. */
const BASE = new Set(['/bin/sh', 'sh']);

describe('Debian packages from the manifests', () => {
  it('installs on a new machine the same packages as the hard-coded lists did (lttoolbox named: apertium depends on it)', () => {
    const now = systemPackages(registry);
    expect(names(now.runtime)).toEqual([...BEFORE.runtime, 'lttoolbox'].sort());
    expect(names(now.test)).toEqual([...BEFORE.test].sort());
  });

  it("is the kernel's own list and the union of the enabled plugins' declared packages, nothing else", () => {
    const declared = { runtime: new Set<string>(), test: new Set<string>() };
    for (const p of plugins) for (const t of manifestOf(p.dir).tools) if (t.package) declared[t.stage].add(t.package);
    const fromManifests = manifestPackages(registry);
    expect(new Set(names(fromManifests.runtime))).toEqual(declared.runtime);
    expect(new Set(names(fromManifests.test))).toEqual(declared.test);
    const now = systemPackages(registry);
    expect(new Set(names(now.runtime))).toEqual(new Set([...names(KERNEL_PACKAGES.runtime), ...declared.runtime]));
    expect(new Set(names(now.test))).toEqual(new Set([...names(KERNEL_PACKAGES.test), ...declared.test].filter((p) => !declared.runtime.has(p))));
  });

  it('every program a plugin runs from its server code is declared in its own manifest', () => {
    const undeclared: string[] = [];
    for (const p of plugins) {
      const commands = new Set(manifestOf(p.dir).tools.map((t) => t.command).filter((c): c is string => !!c));
      let files: string[];
      try {
        files = sources(join(p.dir, 'server'));
      } catch {
        continue;
      }
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const used = [...text.matchAll(SPAWN)].map((m) => m[1]!);
        for (const [helper, runs] of Object.entries(SDK_HELPERS)) if (new RegExp(`\\b${helper}\\(`).test(text)) used.push(...runs);
        for (const command of used) if (!BASE.has(command) && !commands.has(command)) undeclared.push(`${relative(ROOT, file)}: ${command} (add it to tools in plugins/${p.id}/plugin.json)`);
      }
    }
    expect([...new Set(undeclared)]).toEqual([]);
  });
});
