import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * Names a scaffolded plugin derives from its id. Ids are the manifest's (2-40 lower-case letters,
 * digits, dashes, starting with a letter); we also refuse leading, trailing or doubled dashes so
 * every derived name is clean.
 */
export function validatePluginId(id) {
  if (!/^[a-z][a-z0-9-]{1,39}$/.test(id)) return `invalid plugin id "${id}": use 2-40 lower-case letters, digits and dashes, starting with a letter`;
  if (/--|-$/.test(id)) return `invalid plugin id "${id}": no doubled or trailing dashes`;
  return null;
}

export function pluginNames(id) {
  const camel = id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
  return {
    __ID__: id,
    __CAMEL__: camel,
    __PASCAL__: camel[0].toUpperCase() + camel.slice(1),
    // SQL identifiers unquoted: dashes become underscores.
    __TABLE__: `${id.replace(/-/g, '_')}_items`,
  };
}

/**
 * Writes the template's files into `target` with the names filled in (file names and contents).
 * `names` are `pluginNames(id)` plus `__SDK_MAJOR__`.
 */
export function renderTemplate(templates, target, names) {
  const fill = (text) => text.replace(/__(ID|CAMEL|PASCAL|TABLE|SDK_MAJOR)__/g, (token) => names[token]);
  for (const file of readdirSync(templates, { recursive: true, withFileTypes: true })) {
    if (!file.isFile()) continue;
    const from = join(file.parentPath ?? file.path, file.name);
    const to = join(target, fill(relative(templates, from)));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, fill(readFileSync(from, 'utf8')));
  }
}

/** The SDK's major version, which a new plugin's manifest asks for (`^N.0.0`). */
export function sdkMajor(root) {
  return /SDK_VERSION\s*=\s*'(\d+)\./.exec(readFileSync(join(root, 'plugin-sdk', 'src', 'shared', 'version.ts'), 'utf8'))?.[1] ?? null;
}
