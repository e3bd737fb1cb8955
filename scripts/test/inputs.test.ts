import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM build code without type declarations
import { parseDeploymentSet, readDeploymentSet } from '../lib/deployment.mjs';
// @ts-expect-error: plain ESM build code without type declarations
import { checkLocaleResources } from '../lib/locales.mjs';
// @ts-expect-error: plain ESM build code without type declarations
import { parseBuildArgs } from '../lib/args.mjs';

describe('deployment set', () => {
  it('resolves plugin paths relative to the set file and defaults enabled to true', () => {
    const set = parseDeploymentSet({ plugins: [{ id: 'a', path: 'plugins/a' }, { id: 'b', path: '../b', enabled: false }] }, '/srv/app/registry.json');
    expect(set).toEqual([
      { id: 'a', dir: '/srv/app/plugins/a', enabled: true },
      { id: 'b', dir: '/srv/b', enabled: false },
    ]);
  });

  it('rejects an id listed twice and a missing path, naming the entry', () => {
    expect(() => parseDeploymentSet({ plugins: [{ id: 'a', path: 'x/a' }, { id: 'a', path: 'y/a' }] }, 'r.json')).toThrow('r.json: plugins.1.id: plugin a is listed twice');
    expect(() => parseDeploymentSet({ plugins: [{ id: 'a' }] }, 'r.json')).toThrow('r.json: plugins.0.path');
    expect(() => parseDeploymentSet({}, 'r.json')).toThrow(/expected \{"plugins"/);
  });

  describe('from a file', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'lp-set-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('names the file when it is missing or not JSON', () => {
      expect(() => readDeploymentSet(join(dir, 'none.json'))).toThrow(/none\.json does not exist/);
      writeFileSync(join(dir, 'bad.json'), '{');
      expect(() => readDeploymentSet(join(dir, 'bad.json'))).toThrow(/bad\.json is not valid JSON/);
    });
  });
});

describe('locale resources', () => {
  const manifest = { i18n: ['term', 'termExtra'], routes: [{ path: '/term', title: 'term:title' }, { path: '/termDetail', title: 'detail.title' }] };
  const good = { term: { title: 'Terms', detail: { title: 'Term' } }, termExtra: {} };
  const sourceOf = (locale: string) => `plugins/term/locales/${locale}.json`;

  it('accepts resources holding every namespace and every route title (flat or nested keys)', () => {
    expect(() => checkLocaleResources(manifest, { 'en-US': good, 'zh-CN': good }, sourceOf)).not.toThrow();
  });

  it('names the file and namespace when a declared namespace is missing', () => {
    expect(() => checkLocaleResources(manifest, { 'zh-CN': { term: good.term } }, sourceOf)).toThrow(
      'plugins/term/locales/zh-CN.json: namespace termExtra (declared in i18n) is missing',
    );
  });

  it('names the route when its title has no text in a locale', () => {
    const noTitle = { term: { detail: { title: 'Term' } }, termExtra: {} };
    expect(() => checkLocaleResources(manifest, { 'en-US': noTitle }, sourceOf)).toThrow(
      'plugins/term/locales/en-US.json: title term:title of route /term has no text',
    );
  });
});

describe('build arguments', () => {
  it('reads flags, environment defaults and the ids after --watch', () => {
    expect(parseBuildArgs(['--registry', 'r.json', '--watch', 'a', 'b', '--plugins-only'], { DIST_DIR: '/d' })).toMatchObject({
      out: '/d',
      registry: 'r.json',
      pluginsOnly: true,
      watch: ['a', 'b'],
      mode: 'production',
    });
    expect(parseBuildArgs(['--watch'], {}).watch).toEqual([]);
    expect(parseBuildArgs([], {}).watch).toBeNull();
  });

  it('rejects unknown flags and flags missing their value', () => {
    expect(() => parseBuildArgs(['--outdir', 'x'], {})).toThrow('unknown argument --outdir');
    expect(() => parseBuildArgs(['--out'], {})).toThrow('--out needs a value');
    expect(() => parseBuildArgs(['--mode', 'fast'], {})).toThrow(/mode must be/);
  });
});
