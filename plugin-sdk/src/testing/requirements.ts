import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether a test that needs `what` may run here. Where it is missing the test is skipped on a
 * developer's machine, but with `CI` set this throws an Error naming it: a machine without the
 * tool or database must not pass the tests that need it without testing anything.
 * `describe.skipIf(!available('slapd', Boolean(process.env.E2E_SLAPD)))(...)`.
 */
export function available(what: string, present: boolean, hint = 'npm run setup installs what the tests need'): boolean {
  if (present) return true;
  if (process.env.CI) throw new Error(`${what} is missing, and with CI set a test that needs it fails instead of skipping (${hint})`);
  return false;
}

export interface ToolRequirement {
  /** Files the tool needs besides its command (models, data, modes), as absolute paths. */
  files?: string[];
  /** The Debian package that brings it, for the message. */
  debian?: string;
}

const onPath = (command: string) =>
  command.includes('/')
    ? existsSync(command)
    : (process.env.PATH ?? '').split(delimiter).some((dir) => {
        try {
          accessSync(join(dir, command), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      });

/**
 * Whether the external command (on PATH, or an absolute path) and its files are here; see
 * `available` for what happens when they are not. `describe.skipIf(!requireTool('apertium-apy', ...))`.
 */
export function requireTool(command: string, requirement: ToolRequirement = {}): boolean {
  const missing = [command, ...(requirement.files ?? [])].filter((item, i) => (i === 0 ? !onPath(item) : !existsSync(item)));
  const tool = `${command}${requirement.debian ? ` (Debian package ${requirement.debian})` : ''}`;
  const what = missing.includes(command) ? tool : `${missing.join(', ')} (for ${tool})`;
  return available(what, missing.length === 0, requirement.debian ? `apt-get install ${requirement.debian}, or npm run setup` : undefined);
}

/**
 * Whether this run is on PostgreSQL (DATABASE_URL set), for the tests that need a real server.
 * scripts/test.mjs names its stage in LINGUAPORT_TEST_DATABASE: the PGlite stage skips them by
 * design (the PostgreSQL stage runs them), the PostgreSQL stage without DATABASE_URL fails, and a
 * run outside the stages follows `available` (skipped, or a failure with CI set).
 */
export function requirePostgres(): boolean {
  if (process.env.DATABASE_URL) return true;
  const stage = process.env.LINGUAPORT_TEST_DATABASE;
  if (stage === 'pglite') return false;
  if (stage === 'postgres') throw new Error('DATABASE_URL is not set in the PostgreSQL stage: the tests that need PostgreSQL cannot run');
  return available('PostgreSQL (DATABASE_URL)', false, 'set DATABASE_URL to a PostgreSQL database, or run node scripts/test.mjs --only postgres');
}
