import { createReadStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError, localizedTextSchema, pageOf, pageQuery, pageSchema, requestLocale, timestampSchema, type Caller, type RouteDefinition, uploadedFileSchema } from '@linguaport/sdk/server';
import { keyIdOf, PACKAGE_LIMITS, PackageError, publicKeyFromPem } from '@linguaport/sdk/package';
import { Codes, pluginIdSchema, type ManifestPermission } from '@linguaport/sdk/shared';
import { installPackage, PackageRefusal } from './install.js';
import { ORIGINAL_DIR, PLUGIN_UPGRADED, type PluginRuntime, type PluginStateRow } from './runtime.js';
import type { KernelTables } from '../db/schema.js';

/**
 * The plug-in management API (`/api/plugIn/...`) and the console's failure reports. The routes
 * belong to plugin `plug-in` (its manifest declares the same keys), so switching that plugin off
 * would switch them off too; the API refuses to do that.
 */

export const MANAGEMENT_PLUGIN_ID = 'plug-in';

export const managementPermissions: ManifestPermission[] = [
  { key: 'plugIn:view', type: 'api', name: { 'zh-CN': '查看插件', 'en-US': 'View plug-ins' }, menu: '/plugIn' },
  { key: 'plugIn:upload', type: 'button', name: { 'zh-CN': '上传与升级插件', 'en-US': 'Upload and upgrade plug-ins' }, menu: '/plugIn' },
  { key: 'plugIn:publish', type: 'button', name: { 'zh-CN': '发布与下架插件', 'en-US': 'Publish and unpublish plug-ins' }, menu: '/plugIn' },
  { key: 'plugIn:delete', type: 'button', name: { 'zh-CN': '删除插件', 'en-US': 'Delete plug-ins' }, menu: '/plugIn' },
  { key: 'plugIn:feature', type: 'button', name: { 'zh-CN': '启用与停用功能', 'en-US': 'Enable and disable feature areas' }, menu: '/plugIn' },
  { key: 'plugIn:trustedKeys', type: 'button', name: { 'zh-CN': '管理可信发布者密钥', 'en-US': 'Manage trusted publisher keys' }, menu: '/plugIn' },
];

/** A plugin is flagged after this many load failures of one version from this many distinct users. */
export const FAILURE_FLAG = { reports: 5, users: 3 };

const idParams = z.object({ id: pluginIdSchema });

/** One plug-in as the list, the details and every state change answer it. */
const pluginRow = z.object({
  id: z.string(),
  name: localizedTextSchema,
  source: z.enum(['builtin', 'package']),
  type: z.enum(['console', 'download']),
  version: z.string(),
  previousVersion: z.string().nullable(),
  stagedVersion: z.string().nullable().describe('An uploaded upgrade waiting for POST /plugIn/upgrade'),
  fileName: z.string().nullable(),
  description: z.string().nullable(),
  published: z.boolean(),
  enabled: z.boolean(),
  deployed: z.boolean(),
  live: z.boolean().describe('Enabled and running in this deployment'),
  publisher: z.string().nullable(),
  signatureState: z.string().describe('built-in, or verified for a package signed by a trusted key'),
  logo: z.string().nullable(),
  serverPart: z.enum(['running', 'off', 'failed']).nullable(),
  serverError: z.string().nullable(),
  updateTime: timestampSchema,
  failures: z.number().int().min(0),
  failureUsers: z.number().int().min(0),
  flagged: z.boolean(),
});
const pluginDetails = pluginRow.extend({
  routes: z.array(z.object({ path: z.string(), view: z.string(), menu: z.boolean(), parent: z.string().nullable() })),
  menus: z.array(z.object({ path: z.string(), key: z.string(), group: z.string().nullable() })),
  permissions: z.array(z.object({ key: z.string(), type: z.string(), name: localizedTextSchema })),
  sdk: z.string(),
  recentFailures: z.array(z.object({ version: z.string(), kind: z.string(), message: z.string(), user_id: z.number().int(), created_at: timestampSchema })),
});
const trustedKey = z.object({ keyId: z.string() });

function refuse(err: unknown): never {
  if (err instanceof PackageError) {
    // The platform's checks say why in both languages; the package reader's (archive, signature) in its own English words.
    const zh = err instanceof PackageRefusal ? err.messages['zh-CN'] : err.message;
    throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `插件包被拒绝：${zh}。未安装任何内容。`, 'en-US': `Package refused: ${err.message}. Nothing was installed.` });
  }
  throw err;
}

function requireSuper(caller: Caller | null): void {
  if (!caller?.isSuperAdmin) throw new ApiError(Codes.FORBIDDEN, { 'zh-CN': '无权限：只有超级管理员可以管理受信任的发布者密钥', 'en-US': 'Permission denied: only the super administrator manages trusted publisher keys' });
}

export function managementRoutes(deps: { db: Kysely<KernelTables>; runtime: PluginRuntime; bus: { publish(e: { type: string; payload: unknown }): Promise<void> } }): RouteDefinition[] {
  const { db, runtime } = deps;

  const rowOr404 = (id: string): PluginStateRow => {
    const row = runtime.row(id);
    if (!row) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `插件 ${id} 不存在`, 'en-US': `No plug-in ${id}` });
    return row;
  };
  const packageOr400 = (id: string): PluginStateRow => {
    const row = rowOr404(id);
    if (row.source !== 'package') throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `${id} 是内置功能模块：只能启用或停用，不能发布、升级或删除`, 'en-US': `${id} is a built-in feature area: it can be enabled or disabled, not published, upgraded or deleted` });
    return row;
  };

  async function failureStats(): Promise<Map<string, { reports: number; users: number }>> {
    const rows = await db
      .selectFrom('plugin_failures')
      .select(['plugin_id', 'version', db.fn.countAll<number>().as('reports'), db.fn.count<number>('user_id').distinct().as('users')])
      .groupBy(['plugin_id', 'version'])
      .execute();
    return new Map(rows.map((r) => [`${r.plugin_id}@${r.version}`, { reports: Number(r.reports), users: Number(r.users) }]));
  }

  function describe(row: PluginStateRow, stats: Map<string, { reports: number; users: number }>, locale: 'zh-CN' | 'en-US' = 'en-US') {
    const builtin = runtime.builtin(row.id);
    let manifest = builtin?.manifest;
    let logo: string | null = null;
    let serverPart: string | null = builtin?.manifest.server ? 'running' : null;
    let serverError: string | null = null;
    // A built-in held back at start (what it needs is missing) shows as failed, with the reason.
    const held = row.source === 'builtin' ? runtime.heldBack(row.id) : null;
    if (held) {
      serverPart = 'failed';
      serverError = held[locale];
    }
    if (row.source === 'package') {
      const v = runtime.installedVersion(row.id, row.current_version);
      manifest = v.plugin.manifest;
      const upload = readUpload(runtime.packageDir(row.id, row.current_version));
      logo = upload.logo ? `/plugins/${row.id}/${row.current_version}/${upload.logo}` : null;
      const part = upload.server ? runtime.serverPartState(row.id, row.current_version) : null;
      serverPart = part?.state ?? null;
      serverError = part?.error ?? null;
    }
    const s = stats.get(`${row.id}@${row.current_version}`) ?? { reports: 0, users: 0 };
    return {
      id: row.id,
      name: manifest?.name ?? { 'zh-CN': row.id, 'en-US': row.id },
      source: row.source,
      type: row.type,
      version: row.current_version,
      previousVersion: row.previous_version,
      stagedVersion: row.staged_version,
      fileName: row.file_name,
      description: row.description ?? manifest?.description?.['en-US'] ?? null,
      published: row.published,
      enabled: row.enabled,
      deployed: runtime.isDeployed(row.id),
      live: runtime.isEnabled(row.id),
      publisher: row.publisher,
      signatureState: row.signature_state,
      logo,
      serverPart,
      serverError,
      updateTime: row.updated_at,
      failures: s.reports,
      failureUsers: s.users,
      flagged: s.reports >= FAILURE_FLAG.reports && s.users >= FAILURE_FLAG.users,
    };
  }

  async function setRow(id: string, values: Record<string, unknown>, reason: string) {
    await db.updateTable('plugin_state').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();
    await runtime.changed(reason, id);
  }

  const list: RouteDefinition = {
    method: 'GET',
    url: '/plugIn/list',
    access: { permission: 'plugIn:view' },
    summary: 'List plugins',
    schema: { query: z.object({ name: z.string().optional(), source: z.enum(['builtin', 'package']).optional(), ...pageQuery }) },
    response: { data: pageSchema(pluginRow) },
    async handler({ query, headers }) {
      const stats = await failureStats();
      const q = query.name?.toLowerCase();
      const rows = runtime
        .allRows()
        .filter((r) => !query.source || r.source === query.source)
        .map((r) => describe(r, stats, requestLocale(headers)))
        .filter((d) => !q || d.id.includes(q) || Object.values(d.name).some((n) => n.toLowerCase().includes(q)))
        .sort((a, b) => (a.source === b.source ? a.id.localeCompare(b.id) : a.source === 'package' ? -1 : 1));
      return pageOf(query, rows.slice((query.pageNum - 1) * query.pageSize, query.pageNum * query.pageSize), rows.length);
    },
  };

  const details: RouteDefinition = {
    method: 'GET',
    url: '/plugIn/details/:id',
    access: { permission: 'plugIn:view' },
    summary: "Get a plugin's details",
    schema: { params: idParams },
    response: { data: pluginDetails, errors: [404] },
    async handler({ params }) {
      const row = rowOr404(params.id);
      const manifest = row.source === 'builtin' ? runtime.builtin(row.id)!.manifest : runtime.installedVersion(row.id, row.current_version).plugin.manifest;
      const failures = await db.selectFrom('plugin_failures').select(['version', 'kind', 'message', 'user_id', 'created_at']).where('plugin_id', '=', row.id).orderBy('id', 'desc').limit(20).execute();
      return {
        ...describe(row, await failureStats()),
        routes: manifest.routes.map((r) => ({ path: r.path, view: r.view, menu: !!r.menu, parent: r.parent ?? null })),
        menus: manifest.routes.filter((r) => r.menu).map((r) => ({ path: r.path, key: `menu:${r.path}`, group: r.menu!.group ?? null })),
        permissions: manifest.permissions.map((p) => ({ key: p.key, type: p.type, name: p.name })),
        sdk: manifest.sdk,
        recentFailures: failures,
      };
    },
  };

  const upload: RouteDefinition = {
    method: 'POST',
    url: '/plugIn/upload',
    access: { permission: 'plugIn:upload' },
    module: 'plugIn',
    summary: 'Upload a plugin package',
    // Room for the largest package and logo; installPackage names the part that is too big.
    upload: { maxBytes: PACKAGE_LIMITS.maxPackageBytes + PACKAGE_LIMITS.maxLogoBytes + 1024 },
    schema: {
      body: z.object({
        file: uploadedFileSchema,
        logo: uploadedFileSchema,
        version: z.string().trim().min(1),
        type: z.enum(['console', 'download']),
        description: z.string().max(500).optional(),
      }),
    },
    response: { data: z.object({ id: z.string(), version: z.string(), status: z.enum(['new', 'staged']) }) },
    async handler({ body }) {
      try {
        const result = await installPackage(db, runtime, { file: body.file, logo: body.logo, version: body.version, type: body.type, description: body.description?.trim() || null });
        return result;
      } catch (err) {
        refuse(err);
      }
    },
  };

  const publish = (value: boolean): RouteDefinition => ({
    method: 'POST',
    url: value ? '/plugIn/publish/:id' : '/plugIn/unpublish/:id',
    access: { permission: 'plugIn:publish' },
    module: 'plugIn',
    summary: value ? 'Publish a plugin' : 'Unpublish a plugin',
    schema: { params: idParams },
    response: { data: pluginRow, errors: [404] },
    async handler({ params, headers }) {
      packageOr400(params.id);
      await setRow(params.id, { published: value }, value ? 'published' : 'unpublished');
      return describe(rowOr404(params.id), await failureStats(), requestLocale(headers));
    },
  });

  const enable: RouteDefinition = {
    method: 'POST',
    url: '/plugIn/enable/:id',
    access: { permission: 'plugIn:feature' },
    module: 'plugIn',
    summary: 'Enable or disable a plugin',
    schema: { params: idParams, body: z.object({ enabled: z.boolean() }) },
    response: { data: pluginRow, errors: [404] },
    async handler({ params, body }) {
      const row = rowOr404(params.id);
      if (params.id === MANAGEMENT_PLUGIN_ID && !body.enabled) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': '插件管理不能停用自身', 'en-US': 'Plug-in management cannot disable itself' });
      if (row.source === 'builtin' && !runtime.isDeployed(row.id)) {
        throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `${row.id} 未部署：请在 registry.json 中将 enabled 设为 true 并重新构建后发布`, 'en-US': `${row.id} is not deployed: set enabled to true in registry.json and rebuild to ship it` });
      }
      await setRow(params.id, { enabled: body.enabled }, body.enabled ? 'enabled' : 'disabled');
      return describe(rowOr404(params.id), await failureStats());
    },
  };

  /**
   * Upgrade and rollback both make another stored version the current one: the row changes, the
   * running console is told which version now runs, and the caller gets the plugin as it is now.
   */
  async function makeCurrent(row: PluginStateRow, version: string, reason: string, extra: Record<string, unknown> = {}) {
    await setRow(row.id, { current_version: version, previous_version: row.current_version, ...extra }, reason);
    await deps.bus.publish({ type: PLUGIN_UPGRADED, payload: { id: row.id, version } });
    return describe(rowOr404(row.id), await failureStats());
  }

  const upgrade: RouteDefinition = {
    method: 'POST',
    url: '/plugIn/upgrade/:id',
    access: { permission: 'plugIn:upload' },
    module: 'plugIn',
    summary: 'Upgrade a plugin to its uploaded version',
    schema: { params: idParams },
    response: { data: pluginRow, errors: [404] },
    async handler({ params }) {
      const row = packageOr400(params.id);
      if (!row.staged_version) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `没有上传 ${row.id} 的新版本：请先上传`, 'en-US': `No newer version of ${row.id} is uploaded: upload it first` });
      const old = row.previous_version;
      const upgraded = await makeCurrent(row, row.staged_version, 'upgraded', { staged_version: null });
      // Only the current and the previous version are kept.
      if (old && old !== row.staged_version) rmSync(runtime.packageDir(row.id, old), { recursive: true, force: true });
      return upgraded;
    },
  };

  const rollback: RouteDefinition = {
    method: 'POST',
    url: '/plugIn/rollback/:id',
    access: { permission: 'plugIn:upload' },
    module: 'plugIn',
    summary: 'Roll a plugin back to its previous version',
    schema: { params: idParams },
    response: { data: pluginRow, errors: [404] },
    async handler({ params }) {
      const row = packageOr400(params.id);
      if (!row.previous_version) throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `${row.id} 没有可回滚的上一版本`, 'en-US': `${row.id} has no previous version to roll back to` });
      return makeCurrent(row, row.previous_version, 'rolled back');
    },
  };

  const remove: RouteDefinition = {
    method: 'DELETE',
    url: '/plugIn/delete/:id',
    access: { permission: 'plugIn:delete' },
    module: 'plugIn',
    summary: 'Delete a plugin package',
    schema: { params: idParams },
    response: { data: z.object({ id: z.string() }), errors: [404] },
    async handler({ params }) {
      packageOr400(params.id);
      await db.deleteFrom('plugin_state').where('id', '=', params.id).execute();
      await db.deleteFrom('plugin_failures').where('plugin_id', '=', params.id).execute();
      await runtime.changed('deleted', params.id);
      rmSync(join(runtime.installedRoot(), params.id), { recursive: true, force: true });
      return { id: params.id };
    },
  };

  const downloads: RouteDefinition = {
    method: 'GET',
    url: '/plugIn/downloads',
    access: 'signed-in',
    summary: 'List downloadable plugins',
    response: {
      data: z.array(z.object({ id: z.string(), name: localizedTextSchema, version: z.string(), description: z.string().nullable(), logo: z.string().nullable(), fileName: z.string().nullable(), url: z.string().nullable() })),
    },
    async handler() {
      const stats = await failureStats();
      return runtime
        .allRows()
        .filter((r) => r.source === 'package' && r.type === 'download' && runtime.isEnabled(r.id))
        .map((r) => {
          const d = describe(r, stats);
          const original = readUpload(runtime.packageDir(r.id, r.current_version)).original;
          return { id: d.id, name: d.name, version: d.version, description: d.description, logo: d.logo, fileName: d.fileName, url: original ? `/api/plugIn/download/${r.id}` : null };
        });
    },
  };

  // The uploaded original is handed out only here, to signed-in users, and only while it is published.
  const download: RouteDefinition = {
    method: 'GET',
    url: '/plugIn/download/:id',
    access: 'signed-in',
    summary: 'Download a published plugin file',
    schema: { params: idParams },
    response: { envelope: false, contentType: 'application/octet-stream', errors: [404] },
    async handler({ params }) {
      const row = runtime.row(params.id);
      if (!row || row.source !== 'package' || row.type !== 'download' || !runtime.isEnabled(row.id)) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `下载项 ${params.id} 不存在`, 'en-US': `No download ${params.id}` });
      const dir = runtime.packageDir(row.id, row.current_version);
      const original = readUpload(dir).original;
      if (!original) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `下载项 ${params.id} 不存在`, 'en-US': `No download ${params.id}` });
      return {
        raw: true as const,
        contentType: 'application/octet-stream',
        body: createReadStream(join(dir, ORIGINAL_DIR, original)),
        headers: { 'content-disposition': `attachment; filename="${original}"`, 'cache-control': 'private, no-store' },
      };
    },
  };

  const keysList: RouteDefinition = {
    method: 'GET',
    url: '/plugIn/trustedKeys',
    access: { permission: 'plugIn:trustedKeys' },
    summary: 'List trusted plugin signing keys',
    response: { data: z.array(z.object({ keyId: z.string(), name: z.string(), publicKey: z.string(), allowServer: z.boolean(), createTime: timestampSchema })) },
    async handler({ caller }) {
      requireSuper(caller);
      const rows = await db.selectFrom('plugin_trusted_keys').selectAll().orderBy('created_at').execute();
      return rows.map((r) => ({ keyId: r.key_id, name: r.name, publicKey: r.public_key, allowServer: r.allow_server, createTime: r.created_at }));
    },
  };

  const keysAdd: RouteDefinition = {
    method: 'POST',
    url: '/plugIn/trustedKeys',
    access: { permission: 'plugIn:trustedKeys' },
    module: 'plugIn',
    summary: 'Trust a plugin signing key',
    schema: { body: z.object({ name: z.string().trim().min(1).max(100), publicKey: z.string().trim().min(1), allowServer: z.boolean().default(false) }) },
    response: { data: trustedKey, errors: [409] },
    async handler({ caller, body }) {
      requireSuper(caller);
      let keyId: string;
      try {
        keyId = keyIdOf(publicKeyFromPem(body.publicKey));
      } catch (err) {
        throw new ApiError(Codes.BAD_REQUEST, { 'zh-CN': `请求无效：publicKey ${(err as Error).message}`, 'en-US': `Invalid request: publicKey is ${(err as Error).message}` });
      }
      const exists = await db.selectFrom('plugin_trusted_keys').select('key_id').where('key_id', '=', keyId).executeTakeFirst();
      if (exists) throw new ApiError(Codes.CONFLICT, { 'zh-CN': `密钥 ${keyId} 已受信任`, 'en-US': `Key ${keyId} is already trusted` });
      await db.insertInto('plugin_trusted_keys').values({ key_id: keyId, name: body.name, public_key: body.publicKey, allow_server: body.allowServer }).execute();
      return { keyId };
    },
  };

  const keysDelete: RouteDefinition = {
    method: 'DELETE',
    url: '/plugIn/trustedKeys/:keyId',
    access: { permission: 'plugIn:trustedKeys' },
    module: 'plugIn',
    summary: 'Remove a trusted plugin signing key',
    schema: { params: z.object({ keyId: z.string().regex(/^[0-9a-f]{16}$/) }) },
    response: { data: trustedKey, errors: [404] },
    async handler({ caller, params }) {
      requireSuper(caller);
      // Installed packages stay: trust is checked at upload time.
      const res = await db.deleteFrom('plugin_trusted_keys').where('key_id', '=', params.keyId).executeTakeFirst();
      if (!Number(res.numDeletedRows)) throw new ApiError(Codes.NOT_FOUND, { 'zh-CN': `密钥 ${params.keyId} 不受信任`, 'en-US': `Key ${params.keyId} is not trusted` });
      return { keyId: params.keyId };
    },
  };

  return [list, details, upload, publish(true), publish(false), enable, upgrade, rollback, remove, downloads, download, keysList, keysAdd, keysDelete];
}

/** `POST /api/plugins/reportFailure`: the console's per-plugin load and render failures. */
export function reportFailureRoute(db: Kysely<KernelTables>): RouteDefinition {
  return {
    method: 'POST',
    url: '/plugins/reportFailure',
    access: 'signed-in',
    summary: 'Report a console plugin failure',
    schema: {
      body: z.object({
        pluginId: z.string().min(1).max(60),
        // The console sends an empty version when the registry entry had none.
        version: z.string().max(40).default(''),
        kind: z.string().min(1).max(40),
        message: z.string().max(2000).default(''),
      }),
    },
    response: { data: z.null() },
    async handler({ body, caller }) {
      await db.insertInto('plugin_failures').values({ plugin_id: body.pluginId, version: body.version, kind: body.kind, message: body.message.slice(0, 2000), user_id: caller!.userId }).execute();
      return null;
    },
  };
}

function readUpload(dir: string): { logo: string | null; server: string | null; original: string | null } {
  const file = join(dir, 'upload.json');
  const meta = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const originalDir = join(dir, ORIGINAL_DIR);
  let original: string | null = null;
  if (existsSync(originalDir)) original = (readdirSync(originalDir)[0] as string | undefined) ?? null;
  return { logo: meta.logo ?? null, server: meta.server ?? null, original };
}

