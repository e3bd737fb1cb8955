import { loadConfig, type Config } from './config.js';
import { createServer, type KernelServer } from './server.js';
import { ensureWritableDir, probePort } from './preflight.js';

/**
 * The process entry: config -> server -> listen. A start-up failure prints one clear line to
 * stderr and exits 1; SIGINT/SIGTERM close the server gracefully.
 */

function fail(message: string): never {
  process.stderr.write(`linguaport: ${message.split('\n')[0]}\n`);
  process.exit(1);
}

function reason(err: unknown, config: Config | null): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE' && config) return `port ${config.port} on ${config.host} is already in use (set PORT to use another)`;
  if (e?.code === 'EADDRNOTAVAIL' && config) return `cannot listen on ${config.host}: the address is not available on this machine (set HOST)`;
  if (e?.code === 'EACCES' && config) return `not allowed to listen on port ${config.port} (set PORT to 1024 or above)`;
  return e instanceof Error ? e.message : String(err);
}

async function main(): Promise<void> {
  let config: Config | null = null;
  let server: KernelServer | null = null;
  try {
    config = loadConfig();
    ensureWritableDir(config.dataDir);
    await probePort(config.port, config.host);
    server = await createServer(config, { engineAutostart: true });
    await server.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    if (server) await server.close().catch(() => {});
    fail(reason(err, config));
  }
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      server!.app.log.info(`${signal}: closing`);
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      server!.close().then(
        () => process.exit(0),
        (err) => fail(`error while closing: ${reason(err, config)}`),
      );
    });
  }
}

void main();
