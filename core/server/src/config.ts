import { isAbsolute, resolve } from 'node:path';

/** The server's settings, read once from the environment at start. */
export interface Config {
  port: number;
  host: string;
  /** Absolute; PGlite data, files and plugin configs live under it. */
  dataDir: string;
  /** PostgreSQL when set; embedded PGlite in `dataDir` when null. */
  databaseUrl: string | null;
  distDir: string;
  registryFile: string;
  /** Password for the first administrator on a fresh database; null keeps the default flow. */
  adminPassword: string | null;
  logLevel: LogLevel;
  /**
   * Which proxies to believe for the client address (sign-in throttling, the operation log):
   * false (none, the default), true (any), a hop count, or addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string;
  /** The repository root, against which relative paths are resolved. */
  rootDir: string;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type Env = Record<string, string | undefined>;

/** Unset and blank mean the same thing: an empty `PORT=` in a unit file should not be "invalid". */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 8080;
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be a whole number from 1 to 65535, got "${raw}"`);
  }
  return port;
}

function parseDatabaseUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL (expected postgres://user:password@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`DATABASE_URL must start with postgres:// or postgresql://, got "${url.protocol}//"`);
  }
  if (!url.pathname || url.pathname === '/') {
    throw new Error('DATABASE_URL must name a database (postgres://user:password@host:port/database)');
  }
  return raw;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  if (raw === undefined) return 'info';
  const level = raw.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level as LogLevel;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = raw.split(',').map((p) => p.trim());
  const address = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]+)(?:\/\d{1,3})?$|^(?:loopback|linklocal|uniquelocal)$/i;
  const bad = parts.find((p) => !address.test(p));
  if (bad !== undefined) throw new Error(`TRUST_PROXY must be true, false, a hop count, or addresses/CIDR ranges separated by commas, got "${bad}"`);
  return parts.join(',');
}

export function loadConfig(env: Env = process.env): Config {
  const rootDir = process.cwd();
  const path = (raw: string) => (isAbsolute(raw) ? resolve(raw) : resolve(rootDir, raw));
  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (/\s|\//.test(host)) throw new Error(`HOST must be a host name or IP address, got "${host}"`);
  return {
    port: parsePort(read(env, 'PORT')),
    host,
    dataDir: path(read(env, 'DATA_DIR') ?? './data'),
    databaseUrl: parseDatabaseUrl(read(env, 'DATABASE_URL')),
    distDir: path(read(env, 'DIST_DIR') ?? './dist'),
    registryFile: path(read(env, 'REGISTRY_FILE') ?? './registry.json'),
    adminPassword: env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null,
    logLevel: parseLogLevel(read(env, 'LOG_LEVEL')),
    trustProxy: parseTrustProxy(read(env, 'TRUST_PROXY')),
    rootDir,
  };
}
