import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM build code without type declarations
import { hostPageFromMetafile } from '../lib/host.mjs';
// @ts-expect-error: plain ESM build code without type declarations
import { renderIndexHtml } from '../lib/html.mjs';

// The shape of esbuild's metafile for a split build (paths relative to the working directory).
const metafile = {
  inputs: {},
  outputs: {
    'dist/console/assets/main-AAA.js': {
      entryPoint: 'core/console/src/main.tsx',
      cssBundle: 'dist/console/assets/main-CCC.css',
      imports: [
        { path: 'dist/console/assets/chunk-B.js', kind: 'import-statement' },
        { path: 'dist/console/assets/Login-L.js', kind: 'dynamic-import' },
      ],
    },
    'dist/console/assets/chunk-B.js': { imports: [{ path: 'dist/console/assets/chunk-D.js', kind: 'import-statement' }] },
    'dist/console/assets/chunk-D.js': { imports: [] },
    'dist/console/assets/Login-L.js': { entryPoint: 'core/console/src/pages/Login.tsx', imports: [] },
    'dist/console/assets/main-CCC.css': { imports: [] },
  },
};

describe('host page', () => {
  it('references the entry, its CSS bundle and preloads only the chunks imported statically', () => {
    const page = hostPageFromMetafile(metafile, { rootDir: '/repo', assetsDir: '/repo/dist/console/assets', entryFile: '/repo/core/console/src/main.tsx' });
    expect(page).toEqual({
      script: '/assets/main-AAA.js',
      styles: ['/assets/main-CCC.css'],
      preloads: ['/assets/chunk-B.js', '/assets/chunk-D.js'],
    });
  });

  it('renders a module script, the stylesheet, a title and the mount point with a loading state', () => {
    const html = renderIndexHtml({ title: 'Linguaport', script: '/assets/main-AAA.js', styles: ['/assets/main-CCC.css'], preloads: [] });
    expect(html).toContain('<script type="module" src="/assets/main-AAA.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/main-CCC.css">');
    expect(html).toContain('<title>Linguaport</title>');
    expect(html).toMatch(/<div id="root"><div id="lp-boot"[^>]*>/);
  });
});
