// A vitest reporter that lists the tests which failed once and passed on the retry CI allows
// (vitest.config.ts), and the errors raised outside any test: scripts/test.mjs prints them beside the
// stage's counts, so a flaky test or a stray error is reported by name, never hidden. The file it writes is named by LINGUAPORT_RETRIES_REPORT.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class RetriesReporter {
  passedOnRetry = [];

  onTestCaseResult(testCase) {
    const retries = testCase.diagnostic()?.retryCount ?? 0;
    if (retries > 0 && testCase.result().state === 'passed') {
      this.passedOnRetry.push(`${relative(process.cwd(), testCase.module.moduleId)} › ${testCase.fullName}`);
    }
  }

  // Errors thrown outside any test (a rejection nobody awaited, a timer firing after its test) fail
  // the run without failing a test: they are named here so the summary can say what and where.
  onTestRunEnd(_modules, unhandledErrors = []) {
    const file = process.env.LINGUAPORT_RETRIES_REPORT;
    if (!file) return;
    const unhandled = unhandledErrors.map((e) => {
      const where = e.VITEST_TEST_PATH ? relative(process.cwd(), e.VITEST_TEST_PATH) : 'unknown file';
      const test = e.VITEST_TEST_NAME ? ` › ${e.VITEST_TEST_NAME}` : '';
      const message = String(e.message ?? e.name ?? e).split('\n')[0].slice(0, 200);
      const at = String(e.stack ?? '').split('\n').find((l) => /^\s+at .*(plugins|core|scripts|tests|packages)\//.test(l) && !l.includes('node_modules'));
      return `${where}${test}: unhandled ${e.name ?? 'error'}: ${message}${at ? ` (${at.trim()})` : ''}`;
    });
    writeFileSync(file, JSON.stringify({ passedOnRetry: this.passedOnRetry, unhandled }, null, 1));
  }
}
