import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { openPackage, PackageError, PACKAGE_LIMITS, type OpenedPackage, type TrustedKey } from '@linguaport/sdk/package';
import type { LocalizedText } from '@linguaport/sdk/server';
import { compareVersions, SDK_VERSION, type RegistryPlugin } from '@linguaport/sdk/shared';
import { corePermissionKeys } from '../access/core-permissions.js';
import { rasteriseSvg, SvgRefusal } from '../system/svg-picture.js';
import { ENTRY_FILE, ORIGINAL_DIR, type PluginRuntime } from './runtime.js';
import type { KernelTables } from '../db/schema.js';

/** A refusal of the platform's own checks, said in both languages (the package reader's own refusals are English). */
export class PackageRefusal extends PackageError {
  constructor(readonly messages: LocalizedText) {
    super(messages['en-US']);
  }
}

/**
 * Upload verification beyond the package itself (conflicts, version order, the form's fields)
 * and the install: files go to a temporary folder renamed into DATA_DIR/plugins/<id>/<version>/,
 * then the state row is written. Any refusal happens before anything is written.
 */

export interface UploadInput {
  file: { filename: string; data: Buffer };
  logo: { filename: string; data: Buffer } | null;
  version: string;
  type: 'console' | 'download';
  description: string | null;
}

export interface InstallResult {
  id: string;
  version: string;
  /** `new`: first install, unpublished; `staged`: a newer version waiting for upgrade. */
  status: 'new' | 'staged';
}

const LOGO_TYPES = new Set(['.png', '.svg', '.jpg', '.jpeg', '.gif', '.webp']);

export async function trustedKeyLookup(db: Kysely<KernelTables>): Promise<(keyId: string) => TrustedKey | null> {
  const rows = await db.selectFrom('plugin_trusted_keys').selectAll().execute();
  const byId = new Map<string, TrustedKey>(rows.map((r) => [r.key_id, { keyId: r.key_id, publicKeyPem: r.public_key, allowServer: r.allow_server }]));
  return (keyId) => byId.get(keyId) ?? null;
}

/** Routes and permission keys must not collide with any other plugin the deployment holds. */
function checkConflicts(pkg: OpenedPackage, runtime: PluginRuntime): void {
  const m = pkg.manifest;
  const builtin = runtime.builtin(m.id);
  if (builtin) throw new PackageRefusal({ 'zh-CN': `插件编号 ${m.id} 属于内置插件`, 'en-US': `plugin id ${m.id} belongs to a built-in plugin` });
  const others = [
    ...runtime.builtinList().map((p) => p.manifest),
    ...runtime
      .allRows()
      .filter((r) => r.source === 'package' && r.id !== m.id)
      .map((r) => runtime.installedVersion(r.id, r.current_version).plugin.manifest),
  ];
  // The console's router ignores case and a trailing slash: `/Notes/` would shadow `/notes`.
  const same = (a: string, b: string) => a.toLowerCase().replace(/\/+$/, '') === b.toLowerCase().replace(/\/+$/, '');
  for (const r of m.routes) {
    const owner = others.find((o) => o.routes.some((x) => same(x.path, r.path)));
    if (owner) throw new PackageRefusal({ 'zh-CN': `路由 ${r.path} 已属于插件 ${owner.id}`, 'en-US': `route ${r.path} is already owned by plugin ${owner.id}` });
    if (r.parent && !m.routes.some((x) => x.path === r.parent && x.menu)) {
      throw new PackageRefusal({ 'zh-CN': `详情路由 ${r.path} 的上级 ${r.parent} 不是本插件包的菜单路由`, 'en-US': `detail route ${r.path} has parent ${r.parent}, which is not a menu route of this package` });
    }
  }
  for (const p of m.permissions) {
    if (p.menu && !m.routes.some((x) => x.path === p.menu && x.menu)) {
      throw new PackageRefusal({ 'zh-CN': `权限 ${p.key} 指定的菜单 ${p.menu} 不是本插件包的菜单路由`, 'en-US': `permission ${p.key} names menu ${p.menu}, which is not a menu route of this package` });
    }
    if (corePermissionKeys.has(p.key)) throw new PackageRefusal({ 'zh-CN': `权限键 ${p.key} 已属于平台`, 'en-US': `permission key ${p.key} is already owned by the platform` });
    const owner = others.find((o) => o.permissions.some((x) => x.key === p.key));
    if (owner) throw new PackageRefusal({ 'zh-CN': `权限键 ${p.key} 已属于插件 ${owner.id}`, 'en-US': `permission key ${p.key} is already owned by plugin ${owner.id}` });
  }
}

const sha384 = (data: Buffer) => `sha384-${createHash('sha384').update(data).digest('base64')}`;

function registryEntry(pkg: OpenedPackage): RegistryPlugin & { manifest: OpenedPackage['manifest'] } {
  const m = pkg.manifest;
  const url = (path: string) => `/plugins/${m.id}/${m.version}/${path}`;
  return {
    id: m.id,
    version: m.version,
    name: m.name,
    type: m.type,
    sdk: m.sdk,
    bundle: url(pkg.list.bundle),
    integrity: sha384(pkg.files.get(pkg.list.bundle)!),
    css: pkg.list.css ? url(pkg.list.css) : null,
    cssIntegrity: pkg.list.css ? sha384(pkg.files.get(pkg.list.css)!) : null,
    locales: { 'zh-CN': url(pkg.list.locales['zh-CN']), 'en-US': url(pkg.list.locales['en-US']) },
    i18n: m.i18n,
    routes: m.routes,
    permissions: m.permissions,
    views: m.views,
    slots: m.slots,
    offers: m.offers,
    manifest: m,
  };
}

export async function installPackage(db: Kysely<KernelTables>, runtime: PluginRuntime, input: UploadInput): Promise<InstallResult> {
  if (input.file.data.length >= PACKAGE_LIMITS.maxPackageBytes) {
    throw new PackageRefusal({ 'zh-CN': `插件包文件大小为 ${input.file.data.length} 字节，必须小于 2 MB`, 'en-US': `the package file is ${input.file.data.length} bytes; it must be under 2 MB` });
  }
  if (input.logo) {
    if (input.logo.data.length >= PACKAGE_LIMITS.maxLogoBytes) throw new PackageRefusal({ 'zh-CN': `图标大小为 ${input.logo.data.length} 字节，必须小于 200 KB`, 'en-US': `the logo is ${input.logo.data.length} bytes; it must be under 200 KB` });
    if (!LOGO_TYPES.has(extname(input.logo.filename).toLowerCase())) throw new PackageRefusal({ 'zh-CN': `图标必须是 PNG、SVG、JPEG、GIF 或 WebP 图片，而不是 ${input.logo.filename}`, 'en-US': `the logo must be a PNG, SVG, JPEG, GIF or WebP image, not ${input.logo.filename}` });
  }
  let logo = input.logo ? { ext: extname(input.logo.filename).toLowerCase(), data: input.logo.data } : null;
  if (logo?.ext === '.svg') {
    // An uploaded SVG may carry script and outside references: it is kept drawn as a PNG (at most 256 pixels a side).
    try {
      logo = { ext: '.png', data: await rasteriseSvg(logo.data, { width: 256, height: 256 }) };
    } catch (err) {
      if (!(err instanceof SvgRefusal)) throw err;
      throw new PackageRefusal({ 'zh-CN': `无法读取 SVG 图标 ${input.logo!.filename}`, 'en-US': `the SVG logo ${input.logo!.filename} cannot be read: ${err.message}` });
    }
  }
  const pkg = openPackage(input.file.data, { trustedKey: await trustedKeyLookup(db), sdkVersion: SDK_VERSION });
  const m = pkg.manifest;
  // The version names a folder and a URL segment; semver's pre-release part would otherwise allow '/'.
  if (!/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/.test(m.version)) {
    throw new PackageRefusal({ 'zh-CN': `版本 ${m.version} 在 x.y.z 之后只能包含数字、字母、点和连字符`, 'en-US': `version ${m.version} may hold only digits, letters, dots and dashes after x.y.z` });
  }
  // Install writes its own files beside the package's; a package may not claim their names.
  for (const path of pkg.files.keys()) {
    if (path === ENTRY_FILE || path === 'upload.json' || path.startsWith(`${ORIGINAL_DIR}/`) || path.startsWith('uploaded-logo')) {
      throw new PackageRefusal({ 'zh-CN': `插件包路径 ${path} 为平台保留`, 'en-US': `the package path ${path} is reserved by the platform` });
    }
  }
  if (m.version !== input.version) throw new PackageRefusal({ 'zh-CN': `版本字段为 ${input.version}，但插件包的版本是 ${m.version}`, 'en-US': `the version field says ${input.version} but the package is version ${m.version}` });
  if (m.type !== input.type) throw new PackageRefusal({ 'zh-CN': `类型字段为 ${input.type}，但插件包的类型是 ${m.type}`, 'en-US': `the type field says ${input.type} but the package is of type ${m.type}` });
  checkConflicts(pkg, runtime);

  const row = runtime.row(m.id);
  if (row) {
    const known = [row.current_version, row.previous_version, row.staged_version].filter(Boolean) as string[];
    if (compareVersions(m.version, row.current_version) <= 0) {
      throw new PackageRefusal({ 'zh-CN': `插件 ${m.id} 已安装 ${row.current_version}；上传的版本必须更高，而不是 ${m.version}`, 'en-US': `plugin ${m.id} ${row.current_version} is installed; an upload must be a higher version, not ${m.version}` });
    }
    if (known.includes(m.version)) throw new PackageRefusal({ 'zh-CN': `插件 ${m.id} ${m.version} 已上传`, 'en-US': `plugin ${m.id} ${m.version} is already uploaded` });
  }

  const dir = runtime.packageDir(m.id, m.version);
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    for (const [path, data] of pkg.files) {
      mkdirSync(dirname(join(tmp, path)), { recursive: true });
      writeFileSync(join(tmp, path), data);
    }
    mkdirSync(join(tmp, ORIGINAL_DIR), { recursive: true });
    writeFileSync(join(tmp, ORIGINAL_DIR, safeFileName(input.file.filename)), input.file.data);
    if (logo) writeFileSync(join(tmp, `uploaded-logo${logo.ext}`), logo.data);
    writeFileSync(join(tmp, ENTRY_FILE), JSON.stringify(registryEntry(pkg)));
    writeFileSync(join(tmp, 'upload.json'), JSON.stringify({ fileName: input.file.filename, logo: logo ? `uploaded-logo${logo.ext}` : pkg.list.logo, keyId: pkg.key.keyId, server: pkg.list.server }));
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }

  const common = { file_name: input.file.filename, description: input.description, publisher: pkg.key.keyId, signature_state: 'verified', updated_at: new Date() };
  if (row) {
    // Install an upgrade as staged; any earlier staged version is dropped.
    if (row.staged_version && row.staged_version !== m.version) rmSync(runtime.packageDir(m.id, row.staged_version), { recursive: true, force: true });
    await db.updateTable('plugin_state').set({ staged_version: m.version, ...common }).where('id', '=', m.id).execute();
    await runtime.reload();
    return { id: m.id, version: m.version, status: 'staged' };
  }
  await db
    .insertInto('plugin_state')
    .values({ id: m.id, source: 'package', type: m.type, enabled: true, published: false, current_version: m.version, ...common })
    .execute();
  await runtime.reload();
  return { id: m.id, version: m.version, status: 'new' };
}

function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() || 'package.tgz';
  return base.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'package.tgz';
}
