import { BuildError } from './errors.mjs';

/**
 * A locale file is `{ <namespace>: { key: text } }` (nested objects allowed, as i18next reads
 * them). Every namespace the manifest declares must be there, and every route title
 * (`ns:key`, or `key` in the default namespace) must resolve to text, in every locale.
 */
export function checkLocaleResources(manifest, resources, sourceOf) {
  for (const [locale, data] of Object.entries(resources)) {
    const source = sourceOf(locale);
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new BuildError(`${source}: expected an object keyed by i18n namespace`);
    }
    for (const ns of manifest.i18n) {
      if (!data[ns] || typeof data[ns] !== 'object') throw new BuildError(`${source}: namespace ${ns} (declared in i18n) is missing`);
    }
    for (const route of manifest.routes) {
      const [ns, key] = route.title.includes(':') ? splitOnce(route.title, ':') : [manifest.i18n[0], route.title];
      if (typeof lookup(data[ns], key) !== 'string') {
        throw new BuildError(`${source}: title ${route.title} of route ${route.path} has no text`);
      }
    }
  }
}

function splitOnce(text, sep) {
  const i = text.indexOf(sep);
  return [text.slice(0, i), text.slice(i + 1)];
}

/** i18next semantics: a flat key wins, otherwise dots walk nested objects. */
function lookup(tree, key) {
  if (!tree || typeof tree !== 'object') return undefined;
  if (key in tree) return tree[key];
  let node = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}
