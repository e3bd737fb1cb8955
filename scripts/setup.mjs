#!/usr/bin/env node
// Set-up shared by `npm start` and `npm test`: Node check, npm dependencies, Debian packages, build.
// Only Node built-ins here: this runs on a fresh clone before `node_modules` exists.
// Each step skips itself when its work is already done, so a second run is quick.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync, accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian packages by purpose. `runtime` features degrade when missing; `test` ones are needed by `npm test`. */
export const SYSTEM_PACKAGES = {
  runtime: [
    { pkg: 'apertium', check: '/usr/bin/apertium', feature: 'built-in Apertium translation engine' },
    { pkg: 'apertium-apy', check: '/usr/bin/apertium-apy', feature: 'built-in Apertium translation engine' },
    { pkg: 'apertium-eng-spa', feature: 'built-in Apertium translation engine' },
    { pkg: 'apertium-eng-cat', feature: 'built-in Apertium translation engine' },
    { pkg: 'apertium-fr-es', feature: 'built-in Apertium translation engine' },
    // The default language packs: English, Spanish, Catalan, French, Portuguese, Italian, Romanian, Basque and
    // Galician, through the pairs Debian has (the others are installed from the engines screen).
    ...['apertium-spa-cat', 'apertium-es-pt', 'apertium-spa-ita', 'apertium-es-ro', 'apertium-eu-es', 'apertium-eu-en', 'apertium-es-gl', 'apertium-en-gl', 'apertium-fra-cat', 'apertium-por-cat'].map(
      (pkg) => ({ pkg, feature: 'built-in Apertium translation engine (default language packs)' }),
    ),
    // Apertium's html and rtf formats run through transfuse (tf-extract, tf-inject).
    { pkg: 'transfuse', check: '/usr/bin/tf-extract', feature: 'html and rtf input to the built-in Apertium engine' },
    // Documents: legacy office formats and PDF output through headless LibreOffice; PDF reading; OCR.
    { pkg: 'libreoffice-writer-nogui', check: '/usr/bin/soffice', feature: 'doc, rtf and odt conversion, PDF output' },
    { pkg: 'libreoffice-calc-nogui', feature: 'xls and ods conversion' },
    { pkg: 'libreoffice-impress-nogui', feature: 'ppt and odp conversion' },
    { pkg: 'poppler-utils', check: '/usr/bin/pdftotext', feature: 'PDF reading and page images' },
    { pkg: 'tesseract-ocr', check: '/usr/bin/tesseract', feature: 'OCR of scanned documents and pictures' },
    { pkg: 'tesseract-ocr-eng', feature: 'OCR of English' },
    { pkg: 'tesseract-ocr-chi-sim', feature: 'OCR of Chinese' },
    // Translated pictures are drawn with a font that has Chinese and Latin glyphs.
    { pkg: 'fonts-noto-cjk', check: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', feature: 'translated pictures (CJK-capable font)' },
    { pkg: 'fonts-dejavu-core', feature: 'translated pictures (Latin font)' },
    // Audio and video: probing, audio extraction, conversion and burned-in subtitles; English speech recognition.
    { pkg: 'ffmpeg', check: '/usr/bin/ffmpeg', feature: 'audio and video translation and conversion (ffmpeg, ffprobe)' },
    { pkg: 'pocketsphinx', check: '/usr/bin/pocketsphinx_continuous', feature: 'built-in speech recognition (English)' },
    { pkg: 'pocketsphinx-en-us', feature: 'built-in speech recognition (English model)' },
  ],
  test: [
    { pkg: 'chromium', check: '/usr/bin/chromium', feature: 'end-to-end tests in Chromium' },
    // Test speech: distinct, repeatable voices for speech recognition, interpretation and voiceprint tests.
    { pkg: 'espeak-ng', check: '/usr/bin/espeak-ng', feature: 'test speech for the speech and voiceprint tests' },
    { pkg: 'postgresql', check: '/usr/lib/postgresql', feature: 'integration tests against PostgreSQL' },
    { pkg: 'slapd', check: '/usr/sbin/slapd', feature: 'directory (LDAP) sign-in tests against OpenLDAP' },
    { pkg: 'ldap-utils', check: '/usr/bin/ldapadd', feature: 'directory (LDAP) sign-in tests against OpenLDAP' },
    // The engine tests check which address APy listens on with ss.
    { pkg: 'iproute2', check: '/usr/bin/ss', feature: 'listening-socket checks in the Apertium engine tests (ss)' },
    // Interchange checks: our TMX, TBX, XLIFF and PO read back by another tool; XML checked against DTDs and schemas.
    { pkg: 'translate-toolkit', check: '/usr/bin/po2tmx', feature: 'TMX, TBX, XLIFF and PO read back by translate-toolkit in the tests' },
    // PO files written by the platform are checked with msgfmt -c.
    { pkg: 'gettext', check: '/usr/bin/msgfmt', feature: 'PO results checked by msgfmt -c in the tests' },
    { pkg: 'libxml2-utils', check: '/usr/bin/xmllint', feature: 'TMX and TBX validated against their DTD and schema in the tests' },
    // Archives and office packages written by the platform are read back by Info-ZIP in the tests.
    { pkg: 'zip', check: '/usr/bin/zip', feature: 'archive translation tests (zip)' },
    { pkg: 'unzip', check: '/usr/bin/unzip', feature: 'archive and office package checks in the tests (unzip)' },
  ],
};

const say = (line) => process.stdout.write(`[setup] ${line}\n`);

export class SetupError extends Error {}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (res.error) throw new SetupError(`${cmd} could not be run: ${res.error.message}`);
  if (res.status !== 0) throw new SetupError(`${cmd} ${args.join(' ')} failed with exit code ${res.status}`);
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 11)) {
    throw new SetupError(`Node ${process.versions.node} is too old: Node 20.11 or newer is needed`);
  }
}

function installHash() {
  const h = createHash('sha256');
  for (const f of ['package.json', 'package-lock.json']) {
    if (existsSync(join(ROOT, f))) h.update(readFileSync(join(ROOT, f)));
  }
  return h.digest('hex');
}

/** npm install when node_modules is missing or older than package.json / the lock file. */
export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules', '.linguaport-install');
  const want = installHash();
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return false;
  say('installing npm dependencies');
  // `npm install` (not `npm ci`) with the committed lock: the registry here lacks some other-platform
  // optional binaries (e.g. @node-rs/jieba for darwin), which `npm ci` refuses as an out-of-sync lock.
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
  // npm may bring the lock file up to date with new workspace members: remember the state after it.
  writeFileSync(marker, installHash());
  return true;
}

function dpkgInstalled(pkg) {
  const res = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return res.status === 0 && res.stdout.includes('install ok installed');
}

/**
 * Installs missing Debian packages when running as root. Without root it prints the exact
 * apt-get line and returns the features that stay unavailable, instead of failing.
 */
export function ensureSystemPackages(kinds) {
  const wanted = kinds.flatMap((k) => SYSTEM_PACKAGES[k]);
  const missing = wanted.filter((p) => !(p.check ? existsSync(p.check) && dpkgInstalled(p.pkg) : dpkgInstalled(p.pkg)));
  if (missing.length === 0) return [];
  const names = missing.map((p) => p.pkg);
  const line = `apt-get install -y ${names.join(' ')}`;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasApt || typeof process.getuid !== 'function' || process.getuid() !== 0) {
    say(`missing system packages: ${names.join(', ')}. Install them with: sudo ${line}`);
    for (const p of missing) say(`unavailable until then: ${p.feature}`);
    return missing.map((p) => p.feature);
  }
  say(`installing system packages: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-o', 'DPkg::Lock::Timeout=600'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  run('apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', ...names], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return [];
}

export function build(extraArgs = [], env = {}) {
  run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), ...extraArgs], { env: { ...process.env, ...env } });
}

/** The data directory must exist and be writable before the server opens its database there. */
export function ensureDataDir(dir) {
  // One level at a time: Node's recursive mkdir never returns under /proc.
  const missing = [];
  let cur = dir;
  while (!existsSync(cur) && dirname(cur) !== cur) {
    missing.unshift(cur);
    cur = dirname(cur);
  }
  try {
    for (const d of missing) mkdirSync(d);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new SetupError(`data directory ${dir} is not writable: ${err.code ?? err.message}`);
  }
}

export function setup({ packages = ['runtime'], skipBuild = false } = {}) {
  checkNode();
  ensureNodeModules();
  const unavailable = ensureSystemPackages(packages);
  if (!skipBuild) build();
  return { unavailable };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const depsOnly = process.argv.includes('--deps-only');
  const forTest = process.argv.includes('--test');
  try {
    setup({ packages: forTest ? ['runtime', 'test'] : ['runtime'], skipBuild: depsOnly });
  } catch (err) {
    process.stderr.write(`[setup] ${err.message}\n`);
    process.exit(1);
  }
}
