import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** The console's component tests (React, Blueprint, happy-dom). */
const CONSOLE_TESTS = ['core/console/test/**/*.test.{ts,tsx}', 'plugin-sdk/test/console/**/*.test.{ts,tsx}', 'plugins/*/test/console/**/*.test.{ts,tsx}'];
/** Console tests that need a process of their own: SystemJS's global `System` is set up once per process. */
const CONSOLE_ISOLATED = ['core/console/test/shared-modules.test.ts'];

// Three projects: `unit` (pure logic, SDK, workspace packages), `console` (the console's components) and `server` (integration against the
// database named by DATABASE_URL, or an embedded PGlite when unset). `npm test` runs `server`
// a second time against a real PostgreSQL.
export default defineConfig({
  test: {
    // At least two test files at once, also on 2 cores (vitest's default would be one there): the
    // server tests spend much of their time waiting on engines, tools and child servers, and each file
    // runs in its own process on its own database copy, ports and scratch folders.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // In CI a test that fails once runs once more, as the end-to-end stage does: one that passes then
    // is named as flaky in the summary (scripts/lib/vitest-retries.mjs), never hidden; one that fails
    // again fails the run. Most of these tests drive real tools (LibreOffice, ffmpeg, APy) whose start
    // time varies with the machine's load.
    retry: process.env.CI ? 1 : 0,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['plugin-sdk/test/**/*.test.{ts,tsx}', 'packages/*/test/**/*.test.{ts,tsx}', 'scripts/test/**/*.test.ts', ...CONSOLE_ISOLATED],
          exclude: [...configDefaults.exclude, ...CONSOLE_TESTS.filter((g) => g.startsWith('plugin-sdk/'))],
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          include: CONSOLE_TESTS,
          exclude: [...configDefaults.exclude, ...CONSOLE_ISOLATED],
          // Not `isolate: false`, though it ran these files about four times faster: modules that keep the
          // first file's window, cookies or slots then fail other files now and then (3 of 234 in one run).
          isolate: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['core/server/test/**/*.test.ts', 'plugins/*/test/server/**/*.test.ts'],
          pool: 'forks',
          // Files share their worker's loaded modules (each still starts its own server on its own
          // database copy, ports and folders): loading the kernel and every plugin again for each of
          // some 170 files cost about 5 s a file, a third of the suite's time on 2 cores.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Every answer of a route with a declared response schema is checked against it (http/app.ts).
          env: { LINGUAPORT_CHECK_RESPONSES: '1' },
        },
      },
    ],
  },
});
