import { z } from 'zod';
import { ApiError, defineServerPlugin, localizedTextSchema, pageOf, pageOffset, pageQuery, pageSchema, say, timestampSchema, type EngineAdapterDefinition, type EngineNodeRecord, type EngineRecord, type EngineWrite, type ServerPluginContext, uploadedFileSchema } from '@linguaport/sdk/server';
import { describeIssues, idSchema } from '@linguaport/sdk/shared';
import { registerLanguagePacks } from './language-packs.js';

/**
 * Engine management (spec 01 section 7.5): engines, nodes, start/stop, authorization files,
 * language abbreviations and models. The records belong to the kernel's translation service;
 * this plugin edits them through `ctx.engineAdmin` and tells the service to reload (`ctx.engines.nodes.reload`).
 */

const VIEW = { permission: 'service:view' } as const;
const EDIT = { permission: 'service:edit' } as const;
const CONTROL = { permission: 'service:control' } as const;
const LICENCE = { permission: 'service:licence' } as const;
const PACKS = { permission: 'service:languagePacks' } as const;

const id = idSchema;
const lang = z.string().trim().min(2).max(20);
const page = z.object({ ...pageQuery, name: z.string().optional() });

const engineFields = {
  name: z.string().trim().min(1, 'Engine name is required').max(100),
  imageName: z.string().trim().min(1, 'Image name is required').max(200),
  sourceLanguage: lang.nullable().optional(),
  targetLanguage: lang.nullable().optional(),
  domain: z.string().trim().max(100).nullable().optional(),
  consumer: z.string().trim().max(100).nullable().optional(),
  nodeIds: z.array(idSchema).optional(),
  expiresAt: z.string().datetime().nullable().optional(),
  enabled: z.boolean().optional(),
  containerCount: z.number().int().min(1).max(16).optional(),
};

/**
 * A node: the spec's fields, its adapter kind (registered by a plugin; `GET translServiceNode/kinds`)
 * and the adapter's own fields, in `config` or, as older callers send them, beside the others.
 */
const nodeBody = z.looseObject({
  kind: z.string().trim().regex(/^[a-z][a-z0-9-]{1,39}$/, 'kind: an adapter kind such as libretranslate'),
  containerName: z.string().trim().min(1).max(100),
  ip: z.string().trim().max(100).optional(),
  gpuCard: z.string().trim().max(50).optional(),
  sshPort: z.number().int().min(1).max(65535).optional(),
  userName: z.string().trim().max(100).optional(),
  password: z.string().max(200).optional(),
  resourcePath: z.string().max(500).optional(),
  configPath: z.string().max(500).optional(),
  incrementalSupport: z.boolean().optional(),
  createService: z.boolean().optional(),
  authenticationFile: z.string().trim().min(1, 'A node needs an authentication file').max(500),
  libraryAddress: z.string().max(500).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  engineId: idSchema.optional(),
});

/** A node's adapter config from the body, validated with its adapter's schema; secrets sealed for storage. */
function nodeConfig(ctx: ServerPluginContext, def: EngineAdapterDefinition, body: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.keys(def.config.shape);
  const given = Object.fromEntries(fields.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));
  const parsed = def.config.safeParse({ ...given, ...((body.config as Record<string, unknown>) ?? {}) });
  if (!parsed.success) throw new ApiError(400, { 'zh-CN': describeIssues(parsed.error.issues, 'zh-CN'), 'en-US': describeIssues(parsed.error.issues, 'en-US') });
  const config: Record<string, unknown> = { ...parsed.data };
  for (const secret of def.secrets ?? []) {
    if (typeof config[secret] === 'string' && config[secret] !== '') config[secret] = ctx.engines.seal(config[secret] as string);
    else delete config[secret];
  }
  return config;
}

/** The config as the screens may see it: secrets left out (only whether each is set). */
function publicConfig(ctx: ServerPluginContext, kind: string, config: Record<string, unknown>) {
  const secrets = new Set(ctx.engines.adapter(kind)?.secrets ?? ['apiKey']);
  const shown = Object.fromEntries(Object.entries(config ?? {}).filter(([k]) => !secrets.has(k)));
  const stored = [...secrets].filter((k) => typeof config?.[k] === 'string' && config[k] !== '');
  return { shown, stored };
}

// ---------- answers, as the API document states them ----------
const pairSchema = z.object({ source: z.string(), target: z.string() });

/** An engine as every engine route answers it (`engineView`). */
const engineSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  imageName: z.string(),
  sourceLanguage: z.string().nullable(),
  targetLanguage: z.string().nullable(),
  domain: z.string().nullable(),
  consumer: z.string().nullable(),
  nodeIds: z.array(z.number().int()),
  expiresAt: timestampSchema.nullable(),
  enabled: z.boolean(),
  containerCount: z.number().int(),
  /** The verified authorization file, once one is uploaded. */
  licence: z
    .object({ engine: z.string(), pairs: z.array(pairSchema), nodeLimit: z.number().int(), expiresAt: z.string(), issuedTo: z.string().optional(), keyName: z.string(), fileName: z.string() })
    .nullable(),
  languageAbbreviations: z.record(z.string(), z.string()),
});

/** A node as every node route answers it (`nodeView`): never a secret, only which are set. */
const nodeSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  containerName: z.string(),
  ip: z.string().nullable(),
  gpuCard: z.string().nullable(),
  sshPort: z.number().int().nullable(),
  userName: z.string().nullable(),
  hasPassword: z.boolean(),
  hasApiKey: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  secretsSet: z.array(z.string()),
  unavailable: z.string().nullable(),
  resourcePath: z.string().nullable(),
  configPath: z.string().nullable(),
  incrementalSupport: z.boolean(),
  createService: z.boolean(),
  authenticationFile: z.string().nullable(),
  libraryAddress: z.string().nullable(),
  model: z.string().nullable(),
  baseUrl: z.string().nullable(),
  languages: z.array(z.string()),
  desiredState: z.enum(['running', 'stopped']),
  running: z.boolean(),
  health: z.enum(['unknown', 'healthy', 'unhealthy', 'stopped']),
  lastError: z.string().nullable(),
  lastCheckedAt: timestampSchema.nullable(),
  pairs: z.array(pairSchema),
});

/** A registered adapter kind (`ctx.engines.adapterKinds()`): the node form is built from its schema. */
const adapterKindSchema = z.object({
  kind: z.string(),
  name: localizedTextSchema,
  /** A registered capability's id (`GET translServiceNode/capabilities`). */
  capability: z.string(),
  local: z.boolean(),
  plugin: z.string(),
  schema: z.record(z.string(), z.unknown()),
  secrets: z.array(z.string()),
  fields: z.record(z.string(), z.object({ label: localizedTextSchema, help: localizedTextSchema.optional(), placeholder: z.string().optional() })),
});

/** A registered capability (`ctx.engines.capabilities()`): the engines page has a card per capability routed by language. */
const capabilitySchema = z.object({
  id: z.string(),
  name: localizedTextSchema,
  node: localizedTextSchema,
  routing: z.enum(['pairs', 'language']),
  plugins: z.array(z.string()),
  console: z.object({ title: localizedTextSchema, help: localizedTextSchema.optional(), addNode: localizedTextSchema.optional(), noNodes: localizedTextSchema.optional(), icon: z.string().optional() }),
});

export function engineView(r: Record<string, any>) {
  return {
    id: r.id,
    name: r.name,
    imageName: r.image_name,
    sourceLanguage: r.source_language,
    targetLanguage: r.target_language,
    domain: r.domain,
    consumer: r.consumer,
    nodeIds: r.node_ids,
    expiresAt: r.expires_at ? new Date(r.expires_at).toISOString() : null,
    enabled: r.enabled,
    containerCount: r.container_count,
    licence: r.licence,
    languageAbbreviations: r.language_abbreviations,
  };
}

function nodeView(ctx: ServerPluginContext, r: Record<string, any>) {
  const live = ctx.engines.nodes.status(r.id);
  const { shown, stored } = publicConfig(ctx, r.kind, r.config);
  return {
    id: r.id,
    kind: r.kind,
    containerName: r.container_name,
    ip: r.ip,
    gpuCard: r.gpu_card,
    sshPort: r.ssh_port,
    userName: r.user_name,
    // Never sent back: only whether one is stored.
    hasPassword: !!r.password_sealed,
    hasApiKey: stored.includes('apiKey'),
    /** The adapter's fields (no secrets) and the secret fields that are set. */
    config: shown,
    secretsSet: stored,
    /** Why the node cannot run (no adapter of its kind is registered), or null. */
    unavailable: live.unavailable ?? null,
    resourcePath: r.resource_path,
    configPath: r.config_path,
    incrementalSupport: r.incremental_support,
    createService: r.create_service,
    authenticationFile: r.authentication_file,
    libraryAddress: r.library_address,
    model: (shown.model as string | undefined) ?? null,
    baseUrl: (shown.baseUrl as string | undefined) ?? null,
    languages: (shown.languages as string[] | undefined) ?? [],
    desiredState: r.desired_state,
    running: live.running,
    health: live.health,
    lastError: live.lastError ?? r.last_error,
    lastCheckedAt: r.last_checked_at ? new Date(r.last_checked_at).toISOString() : null,
    pairs: live.running ? live.pairs : r.pairs,
  };
}

/** Reads one row by id, or answers 404 naming what was asked for. */
const notFound = (rowId: number, what: { 'zh-CN': string; 'en-US': string }) => new ApiError(404, { 'zh-CN': `找不到编号为 ${rowId} 的${what['zh-CN']}`, 'en-US': `No ${what['en-US']} with id ${rowId}` });
const engineOr404 = async (ctx: ServerPluginContext, rowId: number): Promise<EngineRecord> => {
  const row = await ctx.engineAdmin.engines.get(rowId);
  if (!row) throw notFound(rowId, { 'zh-CN': '引擎', 'en-US': 'engine' });
  return row;
};
const nodeOr404 = async (ctx: ServerPluginContext, rowId: number): Promise<EngineNodeRecord> => {
  const row = await ctx.engineAdmin.nodes.get(rowId);
  if (!row) throw notFound(rowId, { 'zh-CN': '翻译节点', 'en-US': 'translation node' });
  return row;
};

/** The adapter kind of an engine: its image name is kind and model (`openai:qwen2.5-7b`). */
const adapterKind = (engine: EngineRecord) => String(engine.image_name).split(':')[0];

function engineColumns(b: Partial<z.infer<z.ZodObject<typeof engineFields>>>): EngineWrite {
  return {
    name: b.name,
    image_name: b.imageName,
    source_language: b.sourceLanguage,
    target_language: b.targetLanguage,
    domain: b.domain,
    consumer: b.consumer,
    node_ids: b.nodeIds,
    expires_at: b.expiresAt === undefined ? undefined : b.expiresAt === null ? null : new Date(b.expiresAt),
    enabled: b.enabled,
    container_count: b.containerCount,
  };
}

export default defineServerPlugin({
  async setup(ctx) {
    const admin = ctx.engineAdmin;
    await registerLanguagePacks(ctx, { view: VIEW, manage: PACKS });
    // After an edit the translation service reloads its engines; the caller gets the engine as stored now.
    const reloadedEngine = async (engineId: number) => {
      await ctx.engines.nodes.reload();
      return engineView(await engineOr404(ctx, engineId));
    };

    // ---------- engines ----------
    ctx.route({
      method: 'GET',
      url: '/translServiceInfo/getTranslationServiceByPage',
      access: VIEW,
      summary: 'List engines by page',
      schema: { query: page },
      response: { data: pageSchema(engineSchema) },
      async handler({ query }) {
        const { total, engines } = await admin.engines.page({ name: query.name || undefined, offset: pageOffset(query), limit: query.pageSize });
        return pageOf(query, engines.map(engineView), total);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/translServiceInfo/add',
      access: EDIT,
      summary: 'Add engine',
      schema: { body: z.object(engineFields) },
      response: { data: engineSchema },
      async handler({ body }) {
        const row = await admin.engines.create(engineColumns(body));
        await ctx.engines.nodes.reload();
        return engineView(row);
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/translServiceInfo/update',
      access: EDIT,
      summary: 'Update engine',
      schema: { body: z.object({ id, ...engineFields, name: engineFields.name.optional(), imageName: engineFields.imageName.optional() }) },
      response: { data: engineSchema, errors: [404] },
      async handler({ body }) {
        await engineOr404(ctx, body.id);
        await admin.engines.update(body.id, engineColumns(body));
        return reloadedEngine(body.id);
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/translServiceInfo/delete/:id',
      access: EDIT,
      summary: 'Delete engine',
      schema: { params: z.object({ id }) },
      response: { data: z.null(), errors: [404] },
      async handler({ params }) {
        await engineOr404(ctx, params.id);
        await admin.engines.remove(params.id);
        await ctx.engines.nodes.reload();
        return null;
      },
    });

    ctx.route({
      method: 'GET',
      url: '/translServiceInfo/getTranslationServiceByIdLanguage/:id',
      access: VIEW,
      summary: "List an engine's language pairs",
      schema: { params: z.object({ id }) },
      response: { data: z.array(pairSchema.extend({ abbreviation: z.string().nullable() })), errors: [404] },
      async handler({ params }) {
        const engine = await engineOr404(ctx, params.id);
        const nodes = await admin.nodes.list({ ids: engine.node_ids });
        const seen = new Set<string>();
        const pairs: { source: string; target: string; abbreviation: string | null }[] = [];
        for (const n of nodes) {
          const live = ctx.engines.nodes.status(n.id);
          for (const p of live.running ? live.pairs : n.pairs) {
            const key = `${p.source}|${p.target}`;
            if (seen.has(key)) continue;
            if ((engine.source_language && engine.source_language !== p.source) || (engine.target_language && engine.target_language !== p.target)) continue;
            seen.add(key);
            pairs.push({ ...p, abbreviation: engine.language_abbreviations?.[p.source] ?? null });
          }
        }
        return pairs;
      },
    });

    ctx.route({
      method: 'POST',
      url: '/translServiceInfo/addUseLanguageAbbreviation',
      access: EDIT,
      summary: 'Set language abbreviations',
      schema: { body: z.object({ id, abbreviations: z.record(lang, z.string().trim().min(1).max(20)) }) },
      response: { data: z.record(z.string(), z.string()), errors: [404] },
      async handler({ body }) {
        const engine = await engineOr404(ctx, body.id);
        const merged = { ...(engine.language_abbreviations ?? {}), ...body.abbreviations };
        await admin.engines.update(body.id, { language_abbreviations: merged });
        return merged;
      },
    });

    ctx.route({
      method: 'GET',
      url: '/translServiceInfo/getServiceInfo',
      access: VIEW,
      summary: 'Get an engine with its nodes',
      schema: { query: z.object({ id }) },
      response: { data: z.object({ engine: engineSchema, nodes: z.array(nodeSchema) }), errors: [404] },
      async handler({ query }) {
        const engine = await engineOr404(ctx, query.id);
        const nodes = await admin.nodes.list({ ids: engine.node_ids });
        return { engine: engineView(engine), nodes: nodes.map((n) => nodeView(ctx, n)) };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/translServiceInfo/selectUsedModel',
      access: EDIT,
      summary: 'Select model',
      schema: { body: z.object({ id, model: z.string().trim().min(1).max(200) }) },
      response: { data: engineSchema, errors: [404] },
      async handler({ body }) {
        await engineOr404(ctx, body.id);
        // The engine and those of its nodes whose adapter has a model field run the chosen model.
        await admin.engines.setModel(body.id, body.model);
        return reloadedEngine(body.id);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/translServiceInfo/selectModelLanguage',
      access: EDIT,
      summary: 'Select model language',
      schema: { body: z.object({ id, sourceLanguage: lang.nullable(), targetLanguage: lang.nullable() }) },
      response: { data: engineSchema, errors: [404] },
      async handler({ body }) {
        await engineOr404(ctx, body.id);
        await admin.engines.update(body.id, { source_language: body.sourceLanguage, target_language: body.targetLanguage });
        return reloadedEngine(body.id);
      },
    });

    // ---------- nodes ----------
    ctx.route({
      method: 'GET',
      url: '/translServiceNode/kinds',
      access: VIEW,
      summary: 'List engine adapter kinds',
      response: { data: z.array(adapterKindSchema) },
      async handler() {
        return ctx.engines.adapterKinds();
      },
    });

    ctx.route({
      method: 'GET',
      url: '/translServiceNode/capabilities',
      access: VIEW,
      summary: 'List engine capabilities (declared by plugins)',
      response: { data: z.array(capabilitySchema) },
      async handler() {
        return ctx.engines.capabilities();
      },
    });

    ctx.route({
      method: 'POST',
      url: '/translServiceNode/add',
      access: EDIT,
      summary: 'Add node',
      schema: { body: nodeBody },
      response: { data: nodeSchema, errors: [404] },
      async handler({ body, headers }) {
        const def = ctx.engines.adapter(body.kind);
        if (!def) {
          const known = ctx.engines.adapterKinds().map((k) => k.kind).join(', ');
          throw new ApiError(400, say(headers, `kind: 没有已注册的引擎适配器 "${body.kind}"（可用：${known}）`, `kind: no engine adapter of kind "${body.kind}" is registered (registered: ${known})`));
        }
        const config = nodeConfig(ctx, def, body);
        if (body.engineId) await engineOr404(ctx, body.engineId);
        const row = await admin.nodes.create(
          {
            kind: body.kind,
            container_name: body.containerName,
            ip: body.ip ?? null,
            gpu_card: body.gpuCard ?? null,
            ssh_port: body.sshPort ?? null,
            user_name: body.userName ?? null,
            password_sealed: body.password ? ctx.engines.seal(body.password) : null,
            resource_path: body.resourcePath ?? null,
            config_path: body.configPath ?? null,
            incremental_support: body.incrementalSupport ?? false,
            create_service: body.createService ?? false,
            authentication_file: body.authenticationFile,
            library_address: body.libraryAddress ?? null,
            config,
          },
          body.engineId,
        );
        await ctx.engines.nodes.reload();
        return nodeView(ctx, row);
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/translServiceNode/delete',
      access: EDIT,
      summary: 'Delete node',
      schema: { query: z.object({ id }) },
      response: { data: z.null(), errors: [404] },
      async handler({ query }) {
        await nodeOr404(ctx, query.id);
        await ctx.engines.nodes.stop(query.id);
        await admin.nodes.remove(query.id);
        await ctx.engines.nodes.reload();
        return null;
      },
    });

    ctx.route({
      method: 'GET',
      url: '/translServiceNode/getTranslationServiceNodeById/:id',
      access: VIEW,
      summary: 'Get a node',
      schema: { params: z.object({ id }) },
      response: { data: nodeSchema, errors: [404] },
      async handler({ params }) {
        return nodeView(ctx, await nodeOr404(ctx, params.id));
      },
    });

    // Nodes of a capability routed by language (`speechNodes`, `ocrNodes`, `ttsNodes`...): not under an engine (their
    // routing picks any running, healthy node of the capability for the language); their languages are what the
    // health check learnt, stored on the node. Static routes of this prefix win over this one.
    ctx.route({
      method: 'GET',
      url: '/translServiceNode/:list',
      access: VIEW,
      summary: 'List the nodes of a capability routed by language (<capability>Nodes) with their health and languages',
      schema: { params: z.object({ list: z.string().max(60) }) },
      response: { data: z.array(nodeSchema), errors: [404] },
      async handler({ params }) {
        const capability = /^([a-z][a-z0-9-]{1,39})Nodes$/.exec(params.list)?.[1];
        const declared = ctx.engines.capabilities().find((c) => c.id === capability && c.routing === 'language');
        if (!declared) throw new ApiError(404, { 'zh-CN': `找不到 ${params.list}：没有这样的引擎能力`, 'en-US': `No such list ${params.list}: no engine capability of that name is registered` });
        const kinds = ctx.engines.adapterKinds().filter((k) => k.capability === declared.id).map((k) => k.kind);
        if (!kinds.length) return [];
        const rows = await admin.nodes.list({ kinds });
        return rows.map((r) => {
          const view = nodeView(ctx, r);
          return { ...view, languages: Array.isArray(r.languages) && r.languages.length ? r.languages : view.languages };
        });
      },
    });

    ctx.route({
      method: 'GET',
      url: '/translServiceNode/getTranslServiceNodesByLanguage',
      access: VIEW,
      summary: 'List nodes serving a language pair',
      schema: { query: z.object({ sourceLanguage: lang, targetLanguage: lang }) },
      response: { data: z.array(nodeSchema) },
      async handler({ query }) {
        const rows = await admin.nodes.list();
        return rows
          .map((r) => nodeView(ctx, r))
          .filter((n) => (n.pairs as { source: string; target: string }[]).some((p) => p.source === query.sourceLanguage && p.target === query.targetLanguage));
      },
    });

    // Start and stop differ only in what they ask of the node.
    for (const [action, url, summary] of [
      ['start', '/translServiceNode/startTranslationService', 'Start node'],
      ['stop', '/translServiceNode/stopTranslationService', 'Stop node'],
    ] as const) {
      ctx.route({
        method: 'GET',
        url,
        access: CONTROL,
        summary,
        schema: { query: z.object({ id }) },
        response: { data: nodeSchema, errors: [404] },
        async handler({ query }) {
          await nodeOr404(ctx, query.id);
          await ctx.engines.nodes[action](query.id);
          return nodeView(ctx, await nodeOr404(ctx, query.id));
        },
      });
    }

    ctx.route({
      method: 'POST',
      url: '/translServiceNode/uploadAuthorizationFile',
      access: LICENCE,
      summary: 'Upload authorization file',
      upload: { maxBytes: 1024 * 1024 },
      schema: { body: z.object({ engineId: id, file: uploadedFileSchema }) },
      response: { data: engineSchema, errors: [404] },
      async handler({ body }) {
        const engine = await engineOr404(ctx, body.engineId);
        const verdict = await ctx.engines.verifyLicence(body.file.data.toString('utf8'));
        if (!verdict.ok) throw new ApiError(400, verdict.reason);
        if (verdict.licence.engine !== engine.name && verdict.licence.engine !== adapterKind(engine)) {
          throw new ApiError(400, { 'zh-CN': `该许可证属于引擎“${verdict.licence.engine}”，而不是“${engine.name}”`, 'en-US': `The licence is for engine "${verdict.licence.engine}", not "${engine.name}"` });
        }
        if (engine.node_ids.length > verdict.licence.nodeLimit) {
          throw new ApiError(400, { 'zh-CN': `该许可证允许 ${verdict.licence.nodeLimit} 个节点；该引擎有 ${engine.node_ids.length} 个`, 'en-US': `The licence allows ${verdict.licence.nodeLimit} node(s); the engine has ${engine.node_ids.length}` });
        }
        await admin.engines.update(body.engineId, { licence: { ...verdict.licence, keyName: verdict.keyName, fileName: body.file.filename }, expires_at: new Date(verdict.licence.expiresAt) });
        return reloadedEngine(body.engineId);
      },
    });

    // ---------- trusted licence keys (super administrator only) ----------
    const superOnly = (caller: { isSuperAdmin: boolean } | null) => {
      if (!caller?.isSuperAdmin) throw new ApiError(403, { 'zh-CN': '无权限：只有超级管理员可以管理受信任的许可证密钥', 'en-US': 'Permission denied: only the super administrator manages trusted licence keys' });
    };
    ctx.route({
      method: 'GET',
      url: '/translServiceNode/trustedKeys',
      access: LICENCE,
      summary: 'List trusted licence keys',
      response: { data: z.array(z.object({ id: z.number().int(), name: z.string(), publicKey: z.string(), createdAt: timestampSchema })) },
      async handler() {
        return (await admin.trustedKeys.list()).map((k) => ({ ...k, createdAt: k.createdAt.toISOString() }));
      },
    });
    ctx.route({
      method: 'POST',
      url: '/translServiceNode/addTrustedKey',
      access: LICENCE,
      summary: 'Add trusted licence key',
      schema: { body: z.object({ name: z.string().trim().min(1).max(100), publicKey: z.string().trim().min(40).max(200) }) },
      response: { data: z.object({ id: z.number().int() }), errors: [409] },
      async handler({ body, caller }) {
        superOnly(caller);
        try {
          const { createPublicKey } = await import('node:crypto');
          if (createPublicKey({ key: Buffer.from(body.publicKey, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyType !== 'ed25519') throw new Error('not ed25519');
        } catch {
          throw new ApiError(400, { 'zh-CN': 'publicKey: 不是 ed25519 公钥（base64 DER，即 scripts/licence.mjs keygen 输出的格式）', 'en-US': 'publicKey: not an ed25519 public key (base64 DER, as scripts/licence.mjs keygen prints)' });
        }
        const keyId = await admin.trustedKeys.add({ name: body.name, publicKey: body.publicKey });
        if (keyId === null) throw new ApiError(409, { 'zh-CN': '该密钥已受信任', 'en-US': 'This key is already trusted' });
        return { id: keyId };
      },
    });
    ctx.route({
      method: 'DELETE',
      url: '/translServiceNode/trustedKey/:id',
      access: LICENCE,
      summary: 'Remove trusted licence key',
      schema: { params: z.object({ id }) },
      response: { data: z.null() },
      async handler({ params, caller }) {
        superOnly(caller);
        await admin.trustedKeys.remove(params.id);
        return null;
      },
    });
  },
});
