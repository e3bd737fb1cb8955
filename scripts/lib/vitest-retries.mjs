// A vitest reporter that lists the tests which failed once and passed on the retry CI allows
// (vitest.config.ts): scripts/test.mjs prints them beside the stage's counts, so a flaky test is
// reported, never hidden. The file it writes is named by LINGUAPORT_RETRIES_REPORT.
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

  onTestRunEnd() {
    const file = process.env.LINGUAPORT_RETRIES_REPORT;
    if (file) writeFileSync(file, JSON.stringify(this.passedOnRetry, null, 1));
  }
}
