// A throwaway PostgreSQL server from Debian's packages, for tests: a fresh cluster in a temp
// directory, on loopback and a free port, with trust auth. Builtins only, so scripts can use it
// before anything else is set up.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const APT_LINE =
  'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 postgresql';

/** The newest installed server's bin directory, or null. */
function findBinDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')) && existsSync(join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}): ${(result.stderr || result.stdout || '').trim()}`);
  }
  return result.stdout;
}

function ensureInstalled() {
  let bin = findBinDir();
  if (bin) return bin;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(`PostgreSQL is not installed; install it as root with: ${APT_LINE}`);
  }
  run('apt-get', ['update'], { stdio: 'inherit' });
  run('apt-get', ['install', '-y', '-o', 'DPkg::Lock::Timeout=600', 'postgresql'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  bin = findBinDir();
  if (!bin) throw new Error('PostgreSQL was installed but no server binaries were found under /usr/lib/postgresql');
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The server refuses to run as root, so root runs it as `postgres`; anyone else runs it as themselves. */
function asServerUser(bin, args, options = {}) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) return run('runuser', ['-u', 'postgres', '--', bin, ...args], options);
  return run(bin, args, options);
}

/**
 * Start a fresh cluster. Resolves to `{ url, stop() }` where url names the database
 * `linguaport_test` as user `postgres` on 127.0.0.1.
 */
export async function startPostgres({ port } = {}) {
  const bin = ensureInstalled();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'linguaport-pg-'));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const listenPort = port ?? (await freePort());
  let started = false;
  const stop = async () => {
    if (started) {
      try {
        asServerUser(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } catch {
        // Already gone: nothing to stop.
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asServerUser(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
      cwd: dir,
    });
    // Loopback only, trust auth; the socket lives in our directory, not /var/run.
    appendFileSync(
      join(dataDir, 'postgresql.conf'),
      [
        `listen_addresses = '127.0.0.1'`,
        `port = ${listenPort}`,
        `unix_socket_directories = '${dir}'`,
        `fsync = off`,
        `synchronous_commit = off`,
        `full_page_writes = off`,
        `max_connections = 200`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dataDir, 'pg_hba.conf'),
      ['local all all trust', 'host all all 127.0.0.1/32 trust', ''].join('\n'),
    );
    asServerUser(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start'], { cwd: dir });
    started = true;
    asServerUser(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(listenPort), '-U', 'postgres', 'linguaport_test'], {
      cwd: dir,
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `postgres://postgres@127.0.0.1:${listenPort}/linguaport_test`, stop };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const server = await startPostgres();
  console.log(server.url);
  if (args.includes('--check')) {
    await server.stop();
  } else {
    // Keep running until interrupted, then clean up.
    const shutdown = async () => {
      await server.stop();
      process.exit(0);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
    setInterval(() => {}, 1 << 30);
  }
}
