import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { KernelApp } from '../http/app.js';

/**
 * Serves the build output: plugin bundles under /plugins/ (content-hashed, so cached forever) and
 * the console at / with index.html uncached and every unknown page path falling back to it (SPA).
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function serveDist(kernel: KernelApp, distDir: string, installedDir?: string): Promise<void> {
  const { app } = kernel;
  const pluginsDir = join(distDir, 'plugins');
  // Uploaded packages live in DATA_DIR/plugins/<id>/<version>/ and are served under the same
  // prefix with the same headers: a version folder never changes once installed.
  if (installedDir) mkdirSync(installedDir, { recursive: true });
  const consoleDir = join(distDir, 'console');

  if (existsSync(pluginsDir) || installedDir) {
    await app.register(fastifyStatic, {
      root: [pluginsDir, ...(installedDir ? [installedDir] : [])].filter((d) => existsSync(d)),
      prefix: '/plugins/',
      decorateReply: false,
      cacheControl: false,
      setHeaders: (reply: FastifyReply) => void reply.header('cache-control', IMMUTABLE),
    });
  } else {
    app.log.warn(`${pluginsDir} does not exist: plugin bundles are not served (run npm run build)`);
  }

  if (existsSync(join(consoleDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: consoleDir,
      prefix: '/',
      cacheControl: false,
      setHeaders: (reply: FastifyReply, path: string) =>
        void reply.header('cache-control', path.endsWith('index.html') ? 'no-cache' : path.includes('/assets/') ? IMMUTABLE : 'public, max-age=0'),
    });
    kernel.setPageFallback((request, reply) => {
      const path = request.url.split('?')[0];
      if (path.startsWith('/plugins/')) return reply.status(404).type('text/plain').send('Not found');
      // Read per request (it is small) so a rebuild is picked up without a restart.
      return readFile(join(consoleDir, 'index.html'), 'utf8').then((html) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html));
    });
  } else {
    app.log.warn(`${consoleDir}/index.html does not exist: the console is not served (run npm run build)`);
  }
}
