import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openPglite } from '../../../core/server/src/db/pglite.js';
import { seedPgliteDir } from '../../src/testing/pglite-template.js';

// A test database copied from the template opens with the test settings (a small buffer pool, which
// PGlite zeroes at every open), and keeps them when opened again (a restart in a test).
const dir = mkdtempSync(join(tmpdir(), 'pglite-template-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('opens a copy of the template with a 16MB buffer pool, again after a restart', async () => {
  await seedPgliteDir(join(dir, 'db'));
  for (let open = 0; open < 2; open++) {
    const database = await openPglite(join(dir, 'db'));
    try {
      expect(await database.query<{ shared_buffers: string }>('SHOW shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await database.close();
    }
  }
}, 120_000);
