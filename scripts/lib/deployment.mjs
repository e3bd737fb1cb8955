import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BuildError } from './errors.mjs';

/**
 * The deployment set `{plugins: [{id, path, enabled}]}`: which plugins ship and which are on.
 * Paths are relative to the file itself. Returns `[{id, dir, enabled}]` in file order.
 */
export function parseDeploymentSet(json, file) {
  if (!json || typeof json !== 'object' || !Array.isArray(json.plugins)) {
    throw new BuildError(`${file}: expected {"plugins": [{"id", "path", "enabled"}]}`);
  }
  const base = dirname(resolve(file));
  const seen = new Set();
  return json.plugins.map((p, i) => {
    const where = `${file}: plugins.${i}`;
    if (!p || typeof p.id !== 'string' || !p.id) throw new BuildError(`${where}.id: a plugin id is required`);
    if (typeof p.path !== 'string' || !p.path) throw new BuildError(`${where}.path: the plugin folder is required`);
    if (p.enabled !== undefined && typeof p.enabled !== 'boolean') throw new BuildError(`${where}.enabled: must be true or false`);
    if (seen.has(p.id)) throw new BuildError(`${where}.id: plugin ${p.id} is listed twice`);
    seen.add(p.id);
    return { id: p.id, dir: resolve(base, p.path), enabled: p.enabled !== false };
  });
}

export function readDeploymentSet(file) {
  let json;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BuildError(err.code === 'ENOENT' ? `deployment set ${file} does not exist` : `${file} is not valid JSON: ${err.message}`);
  }
  return parseDeploymentSet(json, file);
}
