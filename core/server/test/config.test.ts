// Database: none
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('uses the defaults, with paths made absolute against the repository root', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: resolve(process.cwd(), 'data'),
      databaseUrl: null,
      distDir: resolve(process.cwd(), 'dist'),
      registryFile: resolve(process.cwd(), 'registry.json'),
      adminPassword: null,
      logLevel: 'info',
      trustProxy: false,
      rootDir: process.cwd(),
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/lp',
      DATABASE_URL: 'postgres://u:p@db:5432/lp',
      DIST_DIR: 'build/out',
      REGISTRY_FILE: 'conf/registry.json',
      ADMIN_PASSWORD: 'Secret#1',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config.port).toBe(9000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe('/var/lib/lp');
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/lp');
    expect(config.distDir).toBe(resolve(process.cwd(), 'build/out'));
    expect(config.registryFile).toBe(resolve(process.cwd(), 'conf/registry.json'));
    expect(config.adminPassword).toBe('Secret#1');
    expect(config.logLevel).toBe('debug');
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({ port: 8080, databaseUrl: null });
  });

  it.each([['0'], ['65536'], ['80a'], ['-1'], ['1.5']])('rejects PORT=%s in one line naming PORT', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/^PORT must be a whole number from 1 to 65535, got "/);
  });

  it('rejects a DATABASE_URL that is not a PostgreSQL URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@y/z' })).toThrow(/^DATABASE_URL must start with postgres:\/\//);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/^DATABASE_URL is not a valid URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@y' })).toThrow(/^DATABASE_URL must name a database/);
  });

  it('does not echo a rejected DATABASE_URL (it may hold a password)', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:hunter2@h' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });

  it('rejects an unknown LOG_LEVEL', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });

  it('reads TRUST_PROXY as off, any, a hop count or addresses, and rejects anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,loopback' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1,loopback');
    expect(() => loadConfig({ TRUST_PROXY: 'my proxy' })).toThrow(/^TRUST_PROXY must be true, false, a hop count, or addresses\/CIDR ranges separated by commas, got "my proxy"/);
  });

  it('rejects a HOST with spaces', () => {
    expect(() => loadConfig({ HOST: 'my host' })).toThrow(/^HOST must be a host name or IP address/);
  });
});
