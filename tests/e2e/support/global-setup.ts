import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, startServer } from '../../../scripts/lib/run-server.js';
import { buildAptRepository } from '../../../plugin-sdk/src/testing/peers/apt.js';

/** The language pack the engines-screen scenario installs and removes, from a repository on disk (no network). */
export const TEST_LANGUAGE_PACK = 'apertium-qaa-qab';

export const ADMIN_PASSWORD = 'E2e-admin-Passw0rd';
export const LDAP_USER = { username: 'lena.dir', password: 'Ldap-pass-42' };
export const SSO_USER = { username: 'sam.sso', password: 'Sso-pass-42' };

type AddUser = (...args: string[]) => Promise<unknown>;

interface DeploymentSet {
  plugins: { id: string; path: string; enabled?: boolean }[];
}

/** A test service started by scripts/lib/{slapd,oidc}.mjs; the shape is A1's, so only these parts are relied on. */
interface ExternalService {
  url?: string;
  env?: Record<string, string>;
  stop?: () => Promise<void> | void;
  [key: string]: unknown;
}

/**
 * The suite's deployment set: the product plugins of registry.json plus the fixture plugins, with absolute
 * paths so the file can live in .tmp/e2e. A fixture id that a product plugin also uses would be refused by
 * the build as a duplicate, which is the wanted failure.
 */
function mergedRegistry(): DeploymentSet {
  const read = (file: string) => {
    const set = JSON.parse(readFileSync(file, 'utf8')) as DeploymentSet;
    return set.plugins.map((p) => ({ ...p, path: resolve(dirname(file), p.path) }));
  };
  const product = read(join(ROOT, 'registry.json'));
  // E2E_EXTRA_PLUGINS=user,role: product plugins not yet in registry.json (work in progress) join the run.
  const extra = (process.env.E2E_EXTRA_PLUGINS ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id && !product.some((p) => p.id === id))
    .map((id) => ({ id, path: join(ROOT, 'plugins', id), enabled: true }));
  return { plugins: [...product, ...extra, ...read(join(ROOT, 'tests', 'fixtures', 'registry.json'))] };
}

/** Starts a directory or identity-provider test server when A1's script exists; the suite runs without it otherwise. */
async function startOptional(file: string, fn: string): Promise<ExternalService | null> {
  const path = join(ROOT, 'scripts', 'lib', file);
  if (!existsSync(path)) {
    console.log(`[e2e] ${file} not present: ${fn}() skipped, the specs that need it will skip themselves`);
    return null;
  }
  const mod = (await import(pathToFileURL(path).href)) as Record<string, () => Promise<ExternalService>>;
  if (typeof mod[fn] !== 'function') {
    console.log(`[e2e] ${file} exports no ${fn}(): skipped`);
    return null;
  }
  return mod[fn]!();
}

/** JSON of a service's plain data (no functions) for the specs, which run in other processes. */
const describe = (s: ExternalService) =>
  JSON.stringify(Object.fromEntries(Object.entries(s).filter(([, v]) => typeof v !== 'function')));

/**
 * Builds the product and fixture plugins into their own dist, breaks two fixtures on purpose (a deleted
 * bundle for a 404, an altered one for an integrity failure), starts the directory and identity-provider
 * test servers when they exist, and starts one real server for the suite.
 */
export default async function globalSetup() {
  // E2E_DIR: a separate build and data folder, so two runs on one machine do not clash.
  const e2eDir = process.env.E2E_DIR ? resolve(process.env.E2E_DIR) : join(ROOT, '.tmp', 'e2e');
  // Without E2E_DIR each run still builds into its own folder: helpers run suites at once on one
  // checkout, and one run's clean-up must not delete another's console.
  const runDir = process.env.E2E_DIR ? e2eDir : join(e2eDir, `run-${process.pid}`);
  const dist = join(runDir, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const merged = JSON.stringify(mergedRegistry(), null, 2);
  // <e2e dir>/registry.json is where the suite's set can be read; the run uses its own copy.
  writeFileSync(join(e2eDir, 'registry.json'), merged);
  const registryFile = join(runDir, 'registry.json');
  writeFileSync(registryFile, merged);
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--out', dist, '--registry', registryFile], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const registry = JSON.parse(readFileSync(join(dist, 'registry.json'), 'utf8'));
  const fileOf = (url: string) => join(dist, url.replace(/^\//, ''));
  rmSync(fileOf(registry.plugins.missing.bundle));
  appendFileSync(fileOf(registry.plugins.tampered.bundle), '\n// altered after the build\n');

  const slapd = await startOptional('slapd.mjs', 'startSlapd');
  const oidc = await startOptional('oidc.mjs', 'startOidc');
  // One directory user and one identity-provider user for the sign-in specs (they run in other
  // processes and cannot call addUser themselves).
  if (typeof slapd?.addUser === 'function') await (slapd.addUser as AddUser)(LDAP_USER.username, LDAP_USER.password, 'Lena Directory');
  if (typeof oidc?.addUser === 'function') await (oidc.addUser as AddUser)('sub-e2e-1', SSO_USER.username, SSO_USER.password, 'Sam Single');
  const serviceEnv = { ...(slapd?.env ?? {}), ...(oidc?.env ?? {}) };

  // The engines screen installs language packs from this repository (plugin config `apt`): a real apt-get
  // and dpkg, a harmless package (one README), no network.
  const packs = buildAptRepository([{ name: TEST_LANGUAGE_PACK, description: 'Apertium translation data for a test pair', files: { [`/usr/share/doc/${TEST_LANGUAGE_PACK}/README`]: 'Installed by the end-to-end language-pack scenario.\n' } }]);
  const dataDir = mkdtempSync(join(ROOT, '.tmp', 'data-'));
  mkdirSync(join(dataDir, 'config'), { recursive: true });
  writeFileSync(join(dataDir, 'config', 'service.json'), JSON.stringify({ apt: packs.options }));
  const purgePack = () => spawnSync('dpkg', ['--purge', TEST_LANGUAGE_PACK], { stdio: 'ignore' });
  purgePack();

  const server = await startServer({ DATA_DIR: dataDir, DIST_DIR: dist, REGISTRY_FILE: registryFile, ADMIN_PASSWORD, LINGUAPORT_CHECK_RESPONSES: '1', ...serviceEnv });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;
  if (slapd) process.env.E2E_SLAPD = describe({ ...slapd, user: LDAP_USER });
  if (oidc) process.env.E2E_OIDC = describe({ ...oidc, user: SSO_USER });
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    purgePack();
    packs.remove();
    await oidc?.stop?.();
    await slapd?.stop?.();
    if (runDir !== e2eDir) rmSync(runDir, { recursive: true, force: true });
  };
}
