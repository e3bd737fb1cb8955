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

/**
 * The console's own policy. Script only from this origin; 'unsafe-eval' because the plugin loader
 * checks a bundle's integrity itself and hands the verified text to SystemJS, which evaluates it
 * (no second download). Blueprint and the boot spinner style elements inline. Images may be data:
 * and blob: URLs (previews), frames any page (type-4 custom menu entries), connections only this
 * origin (the API and the WebSocket).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  'frame-src http: https:',
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * Under /plugins/ live uploaded packages: an uploaded file must never run as a page of this origin.
 * Every answer already carries the kernel's sandboxing CSP and nosniff (http/app.ts); an SVG is
 * also sent as a download, so opening its address saves it instead of rendering it (an <img> still
 * shows it, and images never run script). The uploaded original is not served here at all: it is
 * downloaded through the signed-in API (`/api/plugIn/download/:id`).
 */
const isOriginal = (path: string) => /^\/?[^/]+\/[^/]+\/original(\/|$)/.test(path);

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
      allowedPath: (path: string) => !isOriginal(path),
      setHeaders: (reply: FastifyReply, path: string) => {
        reply.header('cache-control', IMMUTABLE);
        if (path.toLowerCase().endsWith('.svg')) reply.header('content-disposition', 'attachment');
      },
    });
  } else {
    app.log.warn(`${pluginsDir} does not exist: plugin bundles are not served (run npm run build)`);
  }

  if (existsSync(join(consoleDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: consoleDir,
      prefix: '/',
      cacheControl: false,
      setHeaders: (reply: FastifyReply, path: string) => {
        reply.header('cache-control', path.endsWith('index.html') ? 'no-cache' : path.includes('/assets/') ? IMMUTABLE : 'public, max-age=0');
        if (path.endsWith('index.html')) reply.header('content-security-policy', CONSOLE_CSP);
      },
    });
    kernel.setPageFallback((request, reply) => {
      const path = request.url.split('?')[0];
      if (path.startsWith('/plugins/')) return reply.status(404).type('text/plain').send('Not found');
      // Read per request (it is small) so a rebuild is picked up without a restart.
      return readFile(join(consoleDir, 'index.html'), 'utf8').then((html) => reply.header('cache-control', 'no-cache').header('content-security-policy', CONSOLE_CSP).type('text/html; charset=utf-8').send(html));
    });
  } else {
    app.log.warn(`${consoleDir}/index.html does not exist: the console is not served (run npm run build)`);
  }
}
