#!/usr/bin/env node
// `npm test`: the same set-up as `npm start` (plus the test-only Debian packages), then every suite:
//   1. vitest, units and server integration on the embedded database (PGlite)
//   2. vitest, server integration again on a real PostgreSQL started here on loopback (not the files
//      marked `// Database: none`)
//   3. Playwright end-to-end in Debian's Chromium
// and a last line `N passed, N failed` adding all suites up. On 4 cores or more, stages 2 and 3 run at
// the same time (the PostgreSQL stage's output is then kept in .tmp/reports/postgres.log and printed
// when it ends, so the two logs never interleave); on fewer they run one after the other: measured on
// 2 cores, side by side they slowed each other down several times over (a server file 26 s -> 238 s).
// `--serial` and `--parallel-stages` choose either way.
// `npm test -- --only pglite,postgres,e2e` runs a subset.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { databaseFreeTests } from './lib/database-free.mjs';
import { ROOT, setup, SetupError } from './setup.mjs';

const reports = join(ROOT, '.tmp', 'reports');
const onlyArg = process.argv.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : process.argv[process.argv.indexOf(onlyArg) + 1]).split(',') : null;
const wants = (stage) => !only || only.includes(stage);
// `--grep <text>` narrows the end-to-end stage to the scenarios whose titles match (while working on one).
const grepArg = process.argv.indexOf('--grep');
const e2eGrep = grepArg > 0 ? ['--grep', process.argv[grepArg + 1]] : [];

const serial = process.argv.includes('--serial') || (!process.argv.includes('--parallel-stages') && availableParallelism() < 4);

/** Runs a stage; with `logFile`, its output goes there (printed by the caller) instead of to the terminal. */
function runStage(cmd, args, env = {}, logFile = null) {
  return new Promise((resolveStage) => {
    const out = logFile ? openSync(logFile, 'w') : 'inherit';
    const child = spawn(cmd, args, { cwd: ROOT, stdio: logFile ? ['ignore', out, out] : 'inherit', env: { ...process.env, ...env } });
    const done = (code) => {
      if (logFile) closeSync(out);
      resolveStage(code);
    };
    child.on('exit', (code) => done(code ?? 1));
    child.on('error', () => done(127));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Counts from a vitest JSON report (jest-compatible fields), with the names of the failed tests and,
 * from the retries report, of those that passed only on their retry.
 */
function vitestCounts(file, retriesFile) {
  const r = readJson(file);
  if (!r) return null;
  const failedNames = [];
  for (const f of r.testResults ?? []) {
    const where = f.name?.startsWith(ROOT) ? f.name.slice(ROOT.length + 1) : f.name;
    const failing = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failing) failedNames.push(`${where} › ${a.fullName}`);
    // A file that failed outside any test (an import, a hook) names the file alone.
    if (f.status === 'failed' && !failing.length) {
      const why = (f.message ?? '').split('\n')[0].slice(0, 200);
      failedNames.push(why ? `${where} (${why})` : `${where} (a hook or the file itself)`);
    }
  }
  const extra = (retriesFile && readJson(retriesFile)) || {};
  const flakyNames = extra.passedOnRetry ?? [];
  for (const u of extra.unhandled ?? []) failedNames.push(u);
  return {
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
    skipped: r.numPendingTests ?? 0,
    flaky: flakyNames.length,
    failedNames,
    flakyNames,
  };
}

function playwrightCounts(file) {
  const r = readJson(file);
  if (!r?.stats) return null;
  const failedNames = [];
  const flakyNames = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} › ${spec.title}`;
        if (t.status === 'unexpected') failedNames.push(name);
        if (t.status === 'flaky') flakyNames.push(name);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of r.suites ?? []) walk(suite);
  return { passed: (r.stats.expected ?? 0) + (r.stats.flaky ?? 0), failed: r.stats.unexpected ?? 0, skipped: r.stats.skipped ?? 0, flaky: r.stats.flaky ?? 0, failedNames, flakyNames };
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
function add(name, counts, exitCode) {
  if (!counts) {
    // A runner that crashed before reporting counts as one failure, never as silence.
    totals.failed += 1;
    lines.push(`${name}: no report (exit ${exitCode})`);
    return;
  }
  if (exitCode !== 0 && counts.failed === 0) {
    counts.failed = 1;
    if (!counts.failedNames?.length) counts.failedNames = [`the runner exited with code ${exitCode} though no test failed (see the log above)`];
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  const flaky = counts.flaky ? ` (${counts.flaky} of them flaky: failed once, passed on the retry)` : '';
  lines.push(`${name}: ${counts.passed} passed${flaky}, ${counts.failed} failed, ${counts.skipped} skipped`);
  // Named in the last lines, where a CI log's tail shows them.
  for (const t of counts.failedNames ?? []) lines.push(`  failed: ${t}`);
  for (const t of counts.flakyNames ?? []) lines.push(`  flaky: ${t}`);
}

async function main() {
  const started = Date.now();
  setup({ packages: ['runtime', 'test'] });
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const reporters = ['--reporter=default', '--reporter=json', `--reporter=${join(ROOT, 'scripts', 'lib', 'vitest-retries.mjs')}`];

  if (wants('pglite')) {
    const out = join(reports, 'vitest-pglite.json');
    const retries = join(reports, 'retries-pglite.json');
    const code = await runStage(process.execPath, [vitest, 'run', ...reporters, `--outputFile.json=${out}`], {
      LINGUAPORT_RETRIES_REPORT: retries,
      DATABASE_URL: '',
      // Tests that need PostgreSQL skip here by design (the next stage runs them); see requirePostgres.
      LINGUAPORT_TEST_DATABASE: 'pglite',
    });
    add('unit + server (PGlite)', vitestCounts(out, retries), code);
  }

  const postgresStage = async () => {
    const { startPostgres } = await import('./lib/postgres.mjs');
    let pg = null;
    const log = serial || !wants('e2e') ? null : join(reports, 'postgres.log');
    try {
      pg = await startPostgres();
      const out = join(reports, 'vitest-postgres.json');
      const retries = join(reports, 'retries-postgres.json');
      const code = await runStage(
        process.execPath,
        [vitest, 'run', '--project', 'server', ...databaseFreeTests().flatMap((f) => ['--exclude', f]), ...reporters, `--outputFile.json=${out}`],
        { DATABASE_URL: pg.url, LINGUAPORT_TEST_DATABASE: 'postgres', LINGUAPORT_RETRIES_REPORT: retries, ...(log ? { FORCE_COLOR: '1' } : {}) },
        log,
      );
      return () => add('server (PostgreSQL)', vitestCounts(out, retries), code);
    } catch (err) {
      return () => {
        process.stderr.write(`PostgreSQL suite could not run: ${err.message}\n`);
        add('server (PostgreSQL)', null, 1);
      };
    } finally {
      await pg?.stop();
      if (log && existsSync(log)) process.stdout.write(`\n--- server (PostgreSQL), run beside the end-to-end stage ---\n${readFileSync(log, 'utf8')}\n`);
    }
  };

  const e2eStage = async () => {
    const out = join(reports, 'playwright.json');
    const cli = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
    const code = await runStage(process.execPath, [cli, 'test', '-c', 'tests/e2e/playwright.config.ts', ...e2eGrep], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    return () => add('end-to-end (Chromium)', existsSync(out) ? playwrightCounts(out) : null, code);
  };

  // Results are added in stage order whatever order the stages end in.
  const stages = [wants('postgres') ? postgresStage : null, wants('e2e') ? e2eStage : null].filter(Boolean);
  const report = [];
  if (serial) for (const stage of stages) report.push(await stage());
  else report.push(...(await Promise.all(stages.map((stage) => stage()))));
  for (const addResult of report) addResult();

  process.stdout.write(`\n${lines.join('\n')}\ntime: ${Math.round((Date.now() - started) / 1000)} s\n`);
  const summary = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
  writeFileSync(join(reports, 'summary.txt'), `${summary}\n`);
  process.stdout.write(`${summary}\n`);
  process.exit(totals.failed > 0 ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof SetupError ? '' : 'unexpected: '}${err.message}\n`);
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
