import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseFreeTests } from '../lib/database-free.mjs';

// The PostgreSQL stage skips server test files marked `// Database: none`; a marked file must not open one.
const ROOT = join(import.meta.dirname, '..', '..');
const OPENS_A_DATABASE = /startTestKernel|openTestDatabase|startKernel|startDocKernel|createServer|TestDatabase|startResourceKernel|DATABASE_URL:\s*process/;

describe('test files that run without a database', () => {
  it('are found, and none of them opens a database', () => {
    const files = databaseFreeTests(ROOT);
    expect(files.length).toBeGreaterThan(20);
    expect(files).toContain('plugins/formats-office/test/server/docx.test.ts');
    const opening = files.filter((f) => OPENS_A_DATABASE.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(opening).toEqual([]);
  });
});
