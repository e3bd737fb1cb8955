// Database: none
import { parseManifest } from '@linguaport/sdk/shared';
import { describe, expect, it } from 'vitest';
import type { DeployedPlugin } from '../src/plugins/deployment.js';
import { planStart } from '../src/plugins/start-plan.js';

function plugin(id: string, extra: Record<string, unknown> = {}, version = '1.0.0'): DeployedPlugin {
  const manifest = parseManifest({ id, version, name: { 'zh-CN': id, 'en-US': id }, sdk: '^1.0.0', i18n: [id.replace(/-/g, '')], ...extra });
  return { id, dir: `/plugins/${id}`, enabled: true, manifest };
}
const ids = (list: DeployedPlugin[]) => list.map((p) => p.id);
const reasons = (m: Map<string, { 'en-US': string }>) => Object.fromEntries([...m].map(([k, v]) => [k, v['en-US']]));

describe('the order plugins start in', () => {
  it('starts dependencies and service providers first, otherwise in the deployment order', () => {
    const plan = planStart([
      plugin('cat', { dependsOn: [{ id: 'term' }], consumes: [{ service: 'memory.match' }] }),
      plugin('home'),
      plugin('term', { provides: ['term.lookup'] }),
      plugin('tm', { provides: ['memory.match'], consumes: [{ service: 'term.lookup', optional: true }] }),
    ]);
    expect(ids(plan.order)).toEqual(['home', 'term', 'tm', 'cat']);
    expect(plan.blocked.size).toBe(0);
  });

  it('holds back a plugin whose dependency is not on, or not in a version it accepts, and whoever needs it', () => {
    const plan = planStart([
      plugin('cat', { dependsOn: [{ id: 'term', version: '^2.0.0' }] }),
      plugin('term'),
      plugin('proofread', { dependsOn: [{ id: 'cat' }] }),
      plugin('docs', { dependsOn: [{ id: 'ocr' }] }),
      plugin('home'),
    ]);
    expect(ids(plan.order)).toEqual(['term', 'home']);
    expect(reasons(plan.blocked)).toEqual({
      cat: 'needs plugin term ^2.0.0, found 1.0.0',
      docs: 'needs plugin ocr, which is not enabled',
      proofread: 'needs plugin cat, which cannot start (needs plugin term ^2.0.0, found 1.0.0)',
    });
    expect(plan.blocked.get('docs')!['zh-CN']).toContain('ocr');
  });

  it('holds back a consumer of a service nobody provides, but not of an optional one', () => {
    const plan = planStart([plugin('cat', { consumes: [{ service: 'memory.match' }] }), plugin('text', { consumes: [{ service: 'memory.match', optional: true }] })]);
    expect(ids(plan.order)).toEqual(['text']);
    expect(reasons(plan.blocked)).toEqual({ cat: 'needs service memory.match, which no enabled plugin provides' });
  });

  it('holds back a second provider of one service and every plugin of a cycle', () => {
    const plan = planStart([
      plugin('tm', { provides: ['memory.match'] }),
      plugin('tm2', { provides: ['memory.match'] }),
      plugin('aa', { dependsOn: [{ id: 'bb' }] }),
      plugin('bb', { dependsOn: [{ id: 'aa' }] }),
    ]);
    expect(ids(plan.order)).toEqual(['tm']);
    expect(reasons(plan.blocked)).toEqual({
      tm2: 'service memory.match is already provided by plugin tm',
      aa: 'dependency cycle among plugins: aa → bb',
      bb: 'dependency cycle among plugins: aa → bb',
    });
  });
});

describe('manifest dependencies and services', () => {
  it('refuses a plugin depending on itself, a service both provided and consumed, and a badly named service', () => {
    expect(() => plugin('term', { dependsOn: [{ id: 'term' }] })).toThrow(/depends on itself/);
    expect(() => plugin('term', { provides: ['term.lookup'], consumes: [{ service: 'term.lookup' }] })).toThrow(/both provided and consumed/);
    expect(() => plugin('term', { provides: ['lookup'] })).toThrow(/area\.thing/);
    expect(() => plugin('cat', { dependsOn: [{ id: 'term', version: 'soon' }] })).toThrow(/semver range/);
  });
});
