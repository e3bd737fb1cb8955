import { basename } from 'node:path';
import { BuildError } from './errors.mjs';

/**
 * The runtime registry (`Registry` in plugin-sdk/src/shared/manifest.ts), keyed by plugin id and by
 * route path, assembled from every plugin of the deployment set. It is checked both ways: every
 * path has exactly one owner, and every detail route's parent is a menu route that ships enabled.
 *
 * `plugins`: [{ id, dir, enabled, manifest, source, built: { bundle, integrity, css, cssIntegrity, locales } }]
 * `sdk`: { SDK_VERSION, satisfies, registryRouteOf, slotTable } from the SDK (scripts/lib/sdk.mjs): the
 * route and slot entries are the SDK's, the same the server computes per caller.
 */
export function assembleRegistry(plugins, sdk) {
  checkDeployment(plugins, sdk);
  const registry = { sdkVersion: sdk.SDK_VERSION, plugins: {}, routes: {} };
  for (const p of plugins.filter((x) => x.enabled)) {
    registry.plugins[p.id] = registryEntry(p);
    for (const r of p.manifest.routes) registry.routes[r.path] = sdk.registryRouteOf(p.id, r);
  }
  // The server cuts routes and slots down per caller and recomputes both; `paths` stays whole.
  registry.paths = Object.keys(registry.routes).sort();
  registry.slots = sdk.slotTable(Object.values(registry.plugins));
  return registry;
}

/** The checks that need no build output; the build runs them first so a wrong set fails fast. */
export function checkDeployment(plugins, sdk) {
  for (const p of plugins) checkIdentity(p, sdk);
  const enabled = plugins.filter((p) => p.enabled);

  const owners = new Map();
  for (const p of enabled) {
    for (const r of p.manifest.routes) {
      const other = owners.get(r.path);
      if (other) throw new BuildError(`route ${r.path} is declared by two plugins: ${other.id} and ${p.id}`);
      owners.set(r.path, { id: p.id, route: r });
    }
  }
  for (const p of enabled) {
    for (const r of p.manifest.routes) {
      if (!r.parent) continue;
      const parent = owners.get(r.parent);
      if (!parent) throw new BuildError(`${p.source}: detail route ${r.path} has parent ${r.parent}, which no enabled plugin declares`);
      if (!parent.route.menu) throw new BuildError(`${p.source}: detail route ${r.path} has parent ${r.parent}, which is not a menu route`);
    }
  }
}

/** The set's id, the folder name and the manifest's id must agree, and the SDK range must accept this SDK. */
export function checkIdentity(p, sdk) {
  if (p.manifest.id !== p.id) throw new BuildError(`${p.source}: id is ${p.manifest.id} but the deployment set lists it as ${p.id}`);
  if (basename(p.dir) !== p.id) throw new BuildError(`${p.source}: plugin ${p.id} sits in folder ${basename(p.dir)}; the folder must be named after the id`);
  if (!sdk.satisfies(sdk.SDK_VERSION, p.manifest.sdk)) {
    throw new BuildError(`${p.source}: sdk range ${p.manifest.sdk} does not accept the platform SDK ${sdk.SDK_VERSION}`);
  }
}

export function registryEntry({ manifest: m, built }) {
  if (!built) throw new BuildError(`plugin ${m.id} has no build output`);
  return {
    id: m.id,
    version: m.version,
    name: m.name,
    type: m.type,
    sdk: m.sdk,
    bundle: built.bundle,
    integrity: built.integrity,
    css: built.css ?? null,
    cssIntegrity: built.cssIntegrity ?? null,
    locales: built.locales,
    i18n: m.i18n,
    routes: m.routes,
    permissions: m.permissions,
    views: m.views ?? [],
    slots: m.slots ?? [],
    offers: m.offers ?? [],
  };
}
