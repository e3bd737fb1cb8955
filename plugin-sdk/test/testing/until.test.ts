import { afterEach, describe, expect, it, vi } from 'vitest';
import { available, requirePostgres, requireTool, until } from '../../src/testing/index.js';

describe('until', () => {
  it('resolves with the first truthy answer, asking again after each falsy one or error', async () => {
    let calls = 0;
    const value = await until(async () => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls >= 3 ? { ready: calls } : null;
    }, { interval: 1 });
    expect(value).toEqual({ ready: 3 });
    expect(calls).toBe(3);
  });

  it('times out with what was awaited and the last value', async () => {
    const started = Date.now();
    const err = (await until(() => 0, { timeout: 120, interval: 10, what: 'the file to be translated' }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('timed out after 120 ms waiting for the file to be translated; last value: 0');
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('names the condition by its source and gives the last error when none is named', async () => {
    const status = { health: 'starting' };
    const err = (await until(() => status.health === 'healthy', { timeout: 30, interval: 5 }).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^timed out after 30 ms waiting for \(\) => status\.health === "healthy"|'healthy'/);
    expect(err.message).toContain('status.health');
    expect(err.message).toMatch(/last value: false$/);
    const thrown = (await until(() => { throw new Error('connection refused'); }, { timeout: 30, interval: 5, what: 'the peer' }).catch((e: unknown) => e)) as Error;
    expect(thrown.message).toBe('timed out after 30 ms waiting for the peer; last error: connection refused');
    const seen: string[] = [];
    setTimeout(() => seen.push('ws.ready'), 5);
    const late = (await until(() => seen.includes('task.changed'), { timeout: 40, interval: 5, what: () => `task.changed (received: ${seen.join(', ')})` }).catch((e: unknown) => e)) as Error;
    expect(late.message).toBe('timed out after 40 ms waiting for task.changed (received: ws.ready); last value: false');
  });

  it('runs each pause through the given wrapper (React act)', async () => {
    let n = 0;
    const pauses: number[] = [];
    await until(() => ++n > 2, { interval: 1, pause: async (wait) => { pauses.push(n); await wait(); } });
    expect(pauses).toEqual([1, 2]);
  });
});

describe('tests that need a tool or PostgreSQL', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('skip on a developer machine and fail with CI set, naming what is missing', () => {
    vi.stubEnv('CI', '');
    expect(available('slapd', true)).toBe(true);
    expect(available('slapd', false)).toBe(false);
    expect(requireTool('sh')).toBe(true);
    expect(requireTool('no-such-tool-xyz', { debian: 'xyz-tools' })).toBe(false);
    expect(requireTool('sh', { files: ['/no/such/model'] })).toBe(false);
    vi.stubEnv('CI', 'true');
    expect(requireTool('sh')).toBe(true);
    expect(() => available('slapd', false)).toThrow(/^slapd is missing, and with CI set a test that needs it fails instead of skipping/);
    expect(() => requireTool('no-such-tool-xyz', { debian: 'xyz-tools' })).toThrow(/^no-such-tool-xyz \(Debian package xyz-tools\) is missing.*apt-get install xyz-tools/);
    expect(() => requireTool('sh', { files: ['/no/such/model'] })).toThrow(/^\/no\/such\/model \(for sh\) is missing/);
  });

  it('PostgreSQL: runs with DATABASE_URL, skips in the PGlite stage, fails in the PostgreSQL stage or under CI without it', () => {
    vi.stubEnv('DATABASE_URL', 'postgres://u@127.0.0.1/db');
    expect(requirePostgres()).toBe(true);
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('CI', 'true');
    vi.stubEnv('LINGUAPORT_TEST_DATABASE', 'pglite');
    expect(requirePostgres()).toBe(false);
    vi.stubEnv('LINGUAPORT_TEST_DATABASE', 'postgres');
    expect(() => requirePostgres()).toThrow(/DATABASE_URL is not set in the PostgreSQL stage/);
    vi.stubEnv('LINGUAPORT_TEST_DATABASE', '');
    expect(() => requirePostgres()).toThrow(/^PostgreSQL \(DATABASE_URL\) is missing/);
    vi.stubEnv('CI', '');
    expect(requirePostgres()).toBe(false);
  });
});
