import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest, registryRouteOf, type RegistryRoute } from '@linguaport/sdk/shared';
import { pageBehaviour } from '../src/shell/page.js';

const root = join(import.meta.dirname, '..', '..', '..');
/** The registry routes of the repository's plugins, as the server sends them. */
function manifestRoutes(...ids: string[]): Record<string, RegistryRoute> {
  const out: Record<string, RegistryRoute> = {};
  for (const id of ids) {
    const m = parseManifest(JSON.parse(readFileSync(join(root, 'plugins', id, 'plugin.json'), 'utf8')));
    for (const r of m.routes) out[r.path] = registryRouteOf(m.id, r);
  }
  return out;
}
const session = (entries: Record<string, string>) => ({ getItem: (k: string) => entries[k] ?? null });

describe('page behaviour from the manifests', () => {
  it('lays a page out fluid only when its manifest route says so', () => {
    const route: RegistryRoute = { plugin: 'notes', view: 'Notes', title: 'notes:title', fluid: true };
    expect(pageBehaviour(route, '/notes', null).fluid).toBe(true);
    expect(pageBehaviour({ ...route, fluid: false }, '/notes', null).fluid).toBe(false);
    // No list of paths in the shell: a page the registry does not mark fluid has the minimum width.
    expect(pageBehaviour(undefined, '/transText', null).fluid).toBe(false);
    expect(pageBehaviour(undefined, '/custom', null).fluid).toBe(true);
  });

  it('keeps spec 01 2.7 through the manifests: the text translation and text tools pages are fluid', () => {
    const routes = manifestRoutes('trans-text', 'text-tools');
    for (const path of ['/transText', '/clause', '/participle', '/language']) expect(pageBehaviour(routes[path], path, null).fluid).toBe(true);
  });

  it("adds the crumb a detail route names from its parent page's choice", () => {
    const routes = manifestRoutes('dictionary');
    const store = session({ dictType: JSON.stringify({ id: 3, dictTypeName: 'Medical' }) });
    expect(pageBehaviour(routes['/dictionarySetting'], '/dictionarySetting', store).crumb).toBe('Medical');
    expect(pageBehaviour(routes['/dictionarySetting'], '/dictionarySetting', session({})).crumb).toBeNull();
    const other: RegistryRoute = { plugin: 'notes', view: 'NoteHistory', title: 'notes:history', parent: '/notes', fluid: false, crumb: { session: 'noteBook' } };
    expect(pageBehaviour(other, '/noteHistory', session({ noteBook: 'Travel', dictType: '"Medical"' })).crumb).toBe('Travel');
    expect(pageBehaviour({ ...other, crumb: undefined }, '/noteHistory', store).crumb).toBeNull();
  });
});
