import { parseManifest, type PluginManifest } from '../shared/manifest.js';
import { satisfies } from '../shared/semver.js';
import { FILES_LIST, filesListSchema, PACKAGE_LIMITS, sha256, SIGNATURE_FILE, signatureSchema, verifyFilesList, type FilesList, type PackageSignature } from './format.js';
import { PackageError, readTarGz } from './tar.js';

/** A publisher key the deployment trusts, looked up by key id. */
export interface TrustedKey {
  keyId: string;
  publicKeyPem: string;
  /** Packages with a server part are accepted only from keys trusted for server code. */
  allowServer: boolean;
}

export interface OpenedPackage {
  manifest: PluginManifest;
  list: FilesList;
  signature: PackageSignature;
  /** Every file of the package by its path (files.json and signature.json excluded). */
  files: Map<string, Buffer>;
  key: TrustedKey;
}

export interface VerifyOptions {
  trustedKey(keyId: string): TrustedKey | null | undefined;
  sdkVersion: string;
  limits?: Partial<typeof PACKAGE_LIMITS>;
}

function parseJson(data: Buffer | undefined, name: string): unknown {
  if (!data) return undefined;
  try {
    return JSON.parse(data.toString('utf8'));
  } catch (err) {
    throw new PackageError(`${name} is not valid JSON: ${(err as Error).message}`);
  }
}

const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) => e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

/**
 * Checks a package end to end and returns its contents, or throws a PackageError whose message
 * names the failed check: size, archive safety, the files list, the signature and its key, every
 * hash, the manifest and its SDK range, and the server-part rule. Nothing is written anywhere.
 */
export function openPackage(archive: Buffer, options: VerifyOptions): OpenedPackage {
  const limits = { ...PACKAGE_LIMITS, ...options.limits };
  if (archive.length >= limits.maxPackageBytes) {
    throw new PackageError(`the package is ${archive.length} bytes; it must be under ${limits.maxPackageBytes} bytes (2 MB)`);
  }
  const entries = readTarGz(archive, limits);
  const byPath = new Map(entries.map((e) => [e.path, e.data]));

  const listJson = parseJson(byPath.get(FILES_LIST), FILES_LIST);
  if (listJson === undefined) throw new PackageError(`the package has no ${FILES_LIST}: it was not made by pack-plugin`);
  const listParsed = filesListSchema.safeParse(listJson);
  if (!listParsed.success) throw new PackageError(`${FILES_LIST} is invalid: ${issues(listParsed.error)}`);
  const list = listParsed.data;

  const sigJson = parseJson(byPath.get(SIGNATURE_FILE), SIGNATURE_FILE);
  if (sigJson === undefined) throw new PackageError(`the package is unsigned (no ${SIGNATURE_FILE})`);
  const sigParsed = signatureSchema.safeParse(sigJson);
  if (!sigParsed.success) throw new PackageError(`${SIGNATURE_FILE} is invalid: ${issues(sigParsed.error)}`);
  const signature = sigParsed.data;
  const key = options.trustedKey(signature.keyId);
  if (!key) throw new PackageError(`the package is signed by key ${signature.keyId}, which is not a trusted publisher key`);
  if (!verifyFilesList(list, signature, key.publicKeyPem)) {
    throw new PackageError(`the signature does not match ${FILES_LIST} for key ${signature.keyId}: the package was altered after signing`);
  }

  const files = new Map<string, Buffer>();
  const listed = new Set<string>();
  for (const f of list.files) {
    if (listed.has(f.path)) throw new PackageError(`${FILES_LIST} lists ${f.path} twice`);
    listed.add(f.path);
    const data = byPath.get(f.path);
    if (!data) throw new PackageError(`${f.path} is listed in ${FILES_LIST} but missing from the archive`);
    if (data.length !== f.size || sha256(data) !== f.sha256) throw new PackageError(`${f.path} does not match its SHA-256 in ${FILES_LIST}: the file was altered`);
    files.set(f.path, data);
  }
  for (const path of byPath.keys()) {
    if (path !== FILES_LIST && path !== SIGNATURE_FILE && !listed.has(path)) throw new PackageError(`${path} is in the archive but not listed in ${FILES_LIST}`);
  }

  let manifest: PluginManifest;
  try {
    manifest = parseManifest(parseJson(files.get('plugin.json'), 'plugin.json') ?? {}, 'plugin.json');
  } catch (err) {
    throw new PackageError(files.has('plugin.json') ? (err as Error).message : 'the package has no plugin.json');
  }
  if (manifest.id !== list.id || manifest.version !== list.version) {
    throw new PackageError(`plugin.json says ${manifest.id} ${manifest.version} but ${FILES_LIST} says ${list.id} ${list.version}`);
  }
  if (!satisfies(options.sdkVersion, manifest.sdk)) {
    throw new PackageError(`plugin ${manifest.id} needs SDK ${manifest.sdk}; this platform provides SDK ${options.sdkVersion}`);
  }
  const needed = [list.bundle, ...(list.css ? [list.css] : []), ...Object.values(list.locales), ...(list.logo ? [list.logo] : []), ...(list.server ? [list.server] : [])];
  for (const path of needed) if (!files.has(path)) throw new PackageError(`${FILES_LIST} names ${path}, which the package does not hold`);
  for (const locale of ['zh-CN', 'en-US']) if (!list.locales[locale]) throw new PackageError(`the package has no ${locale} locale file`);
  if ((list.server || manifest.server) && !key.allowServer) {
    throw new PackageError(`plugin ${manifest.id} has a server part, and key ${key.keyId} is not trusted for server code (partner packages are console-only)`);
  }
  return { manifest, list, signature, files, key };
}
