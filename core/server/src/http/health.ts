import type { RouteDefinition } from '@linguaport/sdk/server';
import type { Database } from '../db/database.js';

/** `GET /api/health`: a real round trip to the database and the job service's own check. */
export function healthRoute(database: Database, jobs: { health(): Promise<{ ok: boolean; detail?: string }> }): RouteDefinition {
  return {
    method: 'GET',
    url: '/health',
    access: 'public',
    async handler() {
      const databaseOk = await database.query('select 1 as one').then(
        (rows) => rows.length === 1,
        () => false,
      );
      const queue = await jobs.health().catch((err: Error) => ({ ok: false, detail: err.message }));
      return {
        status: databaseOk && queue.ok ? 'ok' : 'degraded',
        database: { ok: databaseOk, kind: database.kind },
        queue: { ok: queue.ok },
        engines: [],
      };
    },
  };
}
