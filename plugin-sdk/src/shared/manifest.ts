import { z } from 'zod';
import { apiKeyScopeSchema } from './api-keys.js';
import { isValidRange, parseVersion } from './semver.js';

/**
 * `plugins/<id>/plugin.json`: the contract between a plugin and the platform. The build, the
 * server at start and any upload validate it with this one schema.
 */

export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];

const localized = z.object({ 'zh-CN': z.string().min(1), 'en-US': z.string().min(1) }).strict();

export const pluginIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,39}$/, 'plugin id: 2-40 characters, lower-case letters, digits and dashes, starting with a letter');

/** A route path the console navigates to: a slash then a name (spec 01 section 2.3). */
export const routePathSchema = z.string().regex(/^\/[A-Za-z][A-Za-z0-9/_-]*$/, 'route path must start with a slash followed by a letter');

/**
 * Console paths no plugin may claim: the kernel's own pages (the public sign-in pages among them),
 * the menu groups' directories (`/group/<key>`), and the prefixes the server answers itself. Each
 * covers the path and everything under it; the console's router matches paths ignoring case.
 */
export const KERNEL_ROUTE_PATHS = ['/login', '/loginSelect', '/sso', '/quickAccess', '/redirect', '/401', '/404', '/custom', '/group', '/plugins', '/assets', '/health'] as const;

/** True for a kernel path or anything below one; `/api/...` is the API (`/api` alone is a screen). */
export function isKernelRoutePath(path: string): boolean {
  const p = path.toLowerCase().replace(/\/+$/, '');
  return p.startsWith('/api/') || KERNEL_ROUTE_PATHS.some((k) => p === k.toLowerCase() || p.startsWith(`${k.toLowerCase()}/`));
}

/** Permission keys read `area:action` or `area:sub:action`. */
export const permissionKeySchema = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9-]*(:[a-zA-Z][a-zA-Z0-9-]*){1,3}$/, 'permission key reads area:action, letters, digits and dashes');

/**
 * The built-in team roles (besides the normal user and the super administrator) a manifest may
 * grant a menu or permission to; they also hold what `defaultGrant` gives the normal user.
 */
export const TEAM_ROLES = ['translator', 'reviewer', 'projectManager'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
const teamRolesSchema = z.array(z.enum(TEAM_ROLES)).max(TEAM_ROLES.length).optional();

export const menuDefaultsSchema = z
  .object({
    /** A Blueprint icon name. */
    icon: z.string().min(1).default('application'),
    /** Position among siblings, smaller first. */
    order: z.number().int().positive().default(100),
    /** Key of the menu group this entry sits under in the default tree (e.g. `system`); none for top level. */
    group: z.string().regex(/^[a-z][a-zA-Z0-9-]*$/).optional(),
    showInShortcut: z.boolean().default(false),
    /** Granted to the default normal-user role when the menu is first installed (administrators may revoke it). */
    defaultGrant: z.boolean().optional(),
    /** Built-in team roles granted this menu when it (or the role) is first installed. */
    roles: teamRolesSchema,
  })
  .strict();

export const routeSchema = z
  .object({
    path: routePathSchema,
    /** The name of the view the plugin module exports for this route. */
    view: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'view names are PascalCase'),
    /** i18n key of the screen title, in one of the plugin's namespaces (`ns:key`). */
    title: z.string().min(1),
    /** A menu route appears in the permission tree with these defaults. */
    menu: menuDefaultsSchema.optional(),
    /** A detail route is reachable only when this parent menu path is permitted (spec 01 section 2.4). */
    parent: routePathSchema.optional(),
    /** The page has no minimum width (spec 01 section 2.7). */
    fluid: z.boolean().default(false),
    /**
     * A detail page's breadcrumb adds what its parent page chose, kept in session storage under
     * `session`: the JSON object's `field`, or the stored text (spec 01 2.7, dictionarySetting).
     */
    crumb: z
      .object({ session: z.string().regex(/^[A-Za-z][A-Za-z0-9._-]{0,63}$/, 'a session storage key'), field: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((r) => !(r.menu && r.parent), { message: 'a route is either a menu route (menu) or a detail route (parent), not both' })
  .refine((r) => r.menu || r.parent, { message: 'a route needs menu defaults (menu) or a parent menu (parent)' })
  .refine((r) => !r.crumb || r.parent, { message: 'only a detail route (parent) adds a crumb from its parent page' });

export const permissionSchema = z
  .object({
    key: permissionKeySchema,
    /** button: gates a control in the UI and the API calls behind it; api: an API call only. */
    type: z.enum(['button', 'api']),
    name: localized,
    /** The menu path this permission belongs to in the tree. */
    menu: routePathSchema.optional(),
    /** Granted to the default normal-user role when first installed (administrators may revoke it). */
    defaultGrant: z.boolean().optional(),
    /** Built-in team roles granted this permission when it (or the role) is first installed. */
    roles: teamRolesSchema,
    /**
     * An administration permission (every user's data, quotas, limits, global settings): ticking its
     * menu in the grant tree does not grant it; it is ticked on its own.
     */
    admin: z.boolean().optional(),
  })
  .strict();

/** A console slot's name: the offering area, a dot, the place (`home.tiles`, `transText.sidePanel`). */
export const slotNameSchema = z
  .string()
  .regex(/^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/, 'slot names read area.place, camelCase parts joined by dots');

const viewNameSchema = z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'view names are PascalCase');

/** A slot this plugin fills: the console renders `view` wherever the slot is placed. */
export const slotContributionSchema = z
  .object({
    slot: slotNameSchema,
    /** A view the plugin module exports: a route's view or one listed in `views`. */
    view: viewNameSchema,
    /** Position among the slot's contributions, smaller first. */
    order: z.number().int().min(0).default(100),
    /** A button permission of this plugin the user must also hold to see the contribution. */
    permission: permissionKeySchema.optional(),
  })
  .strict();

/** A slot this plugin places in its own views, for others to fill (documentation and checks). */
export const slotOfferSchema = z
  .object({
    slot: slotNameSchema,
    /** What a contribution receives in `props` and where it shows. */
    description: z.string().min(1).optional(),
  })
  .strict();

/** A typed service between plugins: `area.thing` (`term.lookup`, `memory.match`). */
export const serviceNameSchema = z.string().regex(/^[a-z][a-zA-Z0-9-]*\.[a-z][a-zA-Z0-9.-]*$/, 'service names read area.thing');

export const dependencySchema = z
  .object({
    id: pluginIdSchema,
    /** The versions of it this plugin works with (a semver range); any when absent. */
    version: z.string().min(1).refine(isValidRange, 'version must be a semver range such as ^1.0.0').optional(),
  })
  .strict();

export const consumedServiceSchema = z
  .object({
    service: serviceNameSchema,
    /** An optional service may be missing: the plugin starts and works without it. */
    optional: z.boolean().default(false),
  })
  .strict();

/** A feature key a plugin's tools switch (`ocr`, `apertium-html`); `featureUnavailable(key)` asks about it. */
export const toolFeatureSchema = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'tool features read like ocr or apertium-html');

/**
 * An external program (or a Debian package) a plugin needs. Set-up (`scripts/setup.mjs`) installs the
 * `package` of every enabled plugin's entries; the server checks each `command` at start and in
 * `GET /api/health`, and a missing one makes only its `feature` unavailable.
 */
export const toolSchema = z
  .object({
    /** A program name found on PATH, or an absolute path. */
    command: z
      .string()
      .regex(/^(\/[A-Za-z0-9._+-]+)+$|^[A-Za-z0-9._+-]+$/, 'a tool command is a program name or an absolute path')
      .max(200)
      .optional(),
    /** Run the command with these arguments to check it: present when it exits 0 (an interpreter with its modules). */
    probe: z.array(z.string().max(200)).min(1).max(8).optional(),
    /** The Debian package providing it; absent when set-up does not install it (a driver's tool, the base system's). */
    package: z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/, 'a Debian package name').optional(),
    feature: toolFeatureSchema,
    /** What a missing one costs, in English, for set-up's and the server's log lines. */
    purpose: z.string().min(1).max(200),
    /** runtime: the feature needs it; test: only the tests do (`npm test` installs it). */
    stage: z.enum(['runtime', 'test']).default('runtime'),
  })
  .strict()
  .refine((t) => t.command || t.package, { message: 'a tool needs a command, a package or both' })
  .refine((t) => !t.probe || t.command, { message: 'a probe runs the command: name it' });

/** A word a plugin adds to one of the kernel's lists, with its name in both languages. */
const listWord = z.string().regex(/^[a-z][a-zA-Z0-9]{1,39}$/, 'a camelCase word');

/** An API key scope this plugin's routes offer (`apiKey` on a route names it). */
export const apiKeyScopeDeclarationSchema = z.object({ scope: apiKeyScopeSchema, name: localized }).strict();
/** A type of the messages this plugin sends (`ctx.messages.send({ type })`), shown by the message centre. */
export const messageTypeDeclarationSchema = z.object({ type: listWord, name: localized }).strict();
/** A usage channel this plugin's translations count under (`channel` of a translation, `recordUsage`). */
export const usageChannelDeclarationSchema = z.object({ channel: listWord, name: localized }).strict();

export const manifestSchema = z
  .object({
    id: pluginIdSchema,
    version: z.string().refine((v) => parseVersion(v) !== null, 'version must be x.y.z'),
    name: localized,
    description: localized.optional(),
    /** The SDK versions this plugin works with, as a semver range. */
    sdk: z.string().min(1).refine(isValidRange, 'sdk must be a semver range such as ^1.0.0'),
    /** console: a feature area loaded into the console; download: a file users download. */
    type: z.enum(['console', 'download']).default('console'),
    routes: z.array(routeSchema).default([]),
    permissions: z.array(permissionSchema).default([]),
    /** Views the console module exports besides its routes' views (slot contributions name them). */
    views: z.array(viewNameSchema).default([]),
    /** Slots of other areas (or its own) this plugin fills (spec: extension points over edits). */
    slots: z.array(slotContributionSchema).default([]),
    /** Slots this plugin places in its views for other plugins to fill. */
    offers: z.array(slotOfferSchema).default([]),
    /** i18n namespaces; the first is the plugin's default. Resources live in locales/<locale>.json. */
    i18n: z.array(z.string().regex(/^[a-z][a-zA-Z0-9-]*$/)).min(1),
    /** The console entry, relative to the plugin folder. */
    console: z.string().default('console/index.tsx'),
    /** The server entry, relative to the plugin folder, when the plugin has a server part. */
    server: z.string().optional(),
    /** Plugins that must be on (and start first) for this one to start. */
    dependsOn: z.array(dependencySchema).default([]),
    /** Typed services this plugin offers other plugins (`ctx.services.provide`). */
    provides: z.array(serviceNameSchema).default([]),
    /** Typed services it uses (`ctx.services.use`); their providers start first. */
    consumes: z.array(consumedServiceSchema).default([]),
    /** External programs and Debian packages it needs (set-up installs them, the server checks them). */
    tools: z.array(toolSchema).max(100).default([]),
    /** API key scopes its routes offer besides the kernel's (`translate`). */
    apiKeyScopes: z.array(apiKeyScopeDeclarationSchema).max(20).default([]),
    /** Types of the messages it sends besides the kernel's. */
    messageTypes: z.array(messageTypeDeclarationSchema).max(20).default([]),
    /** Usage channels its translations count under besides the kernel's (`api`). */
    usageChannels: z.array(usageChannelDeclarationSchema).max(20).default([]),
  })
  .strict()
  .superRefine((m, ctx) => {
    const paths = new Set<string>();
    // Issues point at the offending entry (`routes.3.path`) so the message names the field to fix.
    m.routes.forEach((r, i) => {
      if (paths.has(r.path)) ctx.addIssue({ code: 'custom', message: `route ${r.path} is declared twice`, path: ['routes', i, 'path'] });
      paths.add(r.path);
      if (isKernelRoutePath(r.path)) ctx.addIssue({ code: 'custom', message: `route ${r.path} belongs to the platform (its own pages, menu groups and server paths)`, path: ['routes', i, 'path'] });
    });
    m.routes.forEach((r, i) => {
      if (r.parent && paths.has(r.parent) && m.routes.find((x) => x.path === r.parent)?.parent) {
        ctx.addIssue({ code: 'custom', message: `detail route ${r.path} has a detail route as parent`, path: ['routes', i, 'parent'] });
      }
    });
    const keys = new Set<string>();
    m.permissions.forEach((p, i) => {
      if (keys.has(p.key)) ctx.addIssue({ code: 'custom', message: `permission ${p.key} is declared twice`, path: ['permissions', i, 'key'] });
      keys.add(p.key);
    });
    const views = new Set([...m.routes.map((r) => r.view), ...m.views]);
    const filled = new Set<string>();
    m.slots.forEach((c, i) => {
      if (!views.has(c.view)) ctx.addIssue({ code: 'custom', message: `slot ${c.slot} names view ${c.view}, which no route and no entry of views declares`, path: ['slots', i, 'view'] });
      if (filled.has(`${c.slot} ${c.view}`)) ctx.addIssue({ code: 'custom', message: `view ${c.view} fills slot ${c.slot} twice`, path: ['slots', i, 'view'] });
      filled.add(`${c.slot} ${c.view}`);
      const own = m.permissions.find((p) => p.key === c.permission);
      if (c.permission && own?.type !== 'button') {
        ctx.addIssue({ code: 'custom', message: `slot ${c.slot} needs permission ${c.permission}, which is not a button permission of this plugin`, path: ['slots', i, 'permission'] });
      }
    });
    m.dependsOn.forEach((d, i) => {
      if (d.id === m.id) ctx.addIssue({ code: 'custom', message: `plugin ${m.id} depends on itself`, path: ['dependsOn', i, 'id'] });
      if (m.dependsOn.findIndex((x) => x.id === d.id) !== i) ctx.addIssue({ code: 'custom', message: `dependency ${d.id} is listed twice`, path: ['dependsOn', i, 'id'] });
    });
    m.provides.forEach((name, i) => {
      if (m.provides.indexOf(name) !== i) ctx.addIssue({ code: 'custom', message: `service ${name} is provided twice`, path: ['provides', i] });
      if (m.consumes.some((c) => c.service === name)) ctx.addIssue({ code: 'custom', message: `service ${name} is both provided and consumed`, path: ['provides', i] });
    });
    m.consumes.forEach((c, i) => {
      if (m.consumes.findIndex((x) => x.service === c.service) !== i) ctx.addIssue({ code: 'custom', message: `service ${c.service} is consumed twice`, path: ['consumes', i, 'service'] });
    });
    m.tools.forEach((t, i) => {
      const same = m.tools.findIndex((x) => x.command === t.command && x.package === t.package && x.feature === t.feature && x.stage === t.stage && String(x.probe) === String(t.probe));
      if (same !== i) ctx.addIssue({ code: 'custom', message: `tool ${t.command ?? t.package} is declared twice for ${t.feature}`, path: ['tools', i] });
    });
    const twice = (list: string[], field: string, what: string) =>
      list.forEach((v, i) => {
        if (list.indexOf(v) !== i) ctx.addIssue({ code: 'custom', message: `${what} ${v} is declared twice`, path: [field, i] });
      });
    twice(m.apiKeyScopes.map((s) => s.scope), 'apiKeyScopes', 'API key scope');
    twice(m.messageTypes.map((s) => s.type), 'messageTypes', 'message type');
    twice(m.usageChannels.map((s) => s.channel), 'usageChannels', 'usage channel');
    const offered = new Set<string>();
    m.offers.forEach((o, i) => {
      if (offered.has(o.slot)) ctx.addIssue({ code: 'custom', message: `slot ${o.slot} is offered twice`, path: ['offers', i, 'slot'] });
      offered.add(o.slot);
    });
  });

export type PluginManifest = z.infer<typeof manifestSchema>;
export type ManifestRoute = PluginManifest['routes'][number];
export type ManifestPermission = PluginManifest['permissions'][number];
export type ManifestSlot = PluginManifest['slots'][number];
export type ManifestSlotOffer = PluginManifest['offers'][number];
export type ManifestTool = PluginManifest['tools'][number];

/** Parse a manifest, throwing one readable error that names every problem. */
export function parseManifest(input: unknown, source = 'plugin.json'): PluginManifest {
  const result = manifestSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${source} is invalid: ${problems}`);
  }
  return result.data;
}

/** The runtime registry the build emits and the server serves, keyed by route path. */
export interface RegistryPlugin {
  id: string;
  version: string;
  name: Record<Locale, string>;
  type: 'console' | 'download';
  sdk: string;
  /** URL of the System.register bundle. */
  bundle: string;
  integrity: string;
  css: string | null;
  cssIntegrity: string | null;
  /** URL of each locale's resources. */
  locales: Record<Locale, string>;
  i18n: string[];
  routes: ManifestRoute[];
  permissions: ManifestPermission[];
  /** Absent in registries written before slots existed. */
  views?: string[];
  slots?: ManifestSlot[];
  offers?: ManifestSlotOffer[];
}

export interface RegistryRoute {
  plugin: string;
  view: string;
  title: string;
  /** Parent menu path for a detail route. */
  parent?: string;
  fluid: boolean;
  /** The crumb a detail page adds from its parent page's choice (the manifest route's `crumb`). */
  crumb?: { session: string; field?: string };
}

/** A manifest route as the registry sends it to the console: what the shell needs to lay the page out. */
export function registryRouteOf(plugin: string, r: ManifestRoute): RegistryRoute {
  return { plugin, view: r.view, title: r.title, ...(r.parent ? { parent: r.parent } : {}), fluid: r.fluid, ...(r.crumb ? { crumb: r.crumb } : {}) };
}

/** One contribution to a slot, as the registry sends it. */
export interface RegistrySlot {
  plugin: string;
  view: string;
  order: number;
  permission?: string;
}

export interface Registry {
  sdkVersion: string;
  plugins: Record<string, RegistryPlugin>;
  routes: Record<string, RegistryRoute>;
  /**
   * Every route path of every enabled plugin, permitted or not (paths only): the console tells "a page
   * that exists but is not yours" from "no such page" with it.
   */
  paths?: string[];
  /** Slot name -> the contributions of the plugins in `plugins`, ordered. */
  slots?: Record<string, RegistrySlot[]>;
}

/** The slot contributions of a set of plugins, by slot, in order (then by plugin id, then view). */
export function slotTable(plugins: Iterable<Pick<RegistryPlugin, 'id' | 'slots'>>): Record<string, RegistrySlot[]> {
  const out: Record<string, RegistrySlot[]> = {};
  for (const p of plugins) {
    for (const c of p.slots ?? []) {
      (out[c.slot] ??= []).push({ plugin: p.id, view: c.view, order: c.order, ...(c.permission ? { permission: c.permission } : {}) });
    }
  }
  for (const list of Object.values(out)) list.sort((a, b) => a.order - b.order || a.plugin.localeCompare(b.plugin) || a.view.localeCompare(b.view));
  return out;
}
