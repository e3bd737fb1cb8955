import { z } from 'zod';
import type { RouteDefinition } from '@linguaport/sdk/server';
import type { Database } from '../db/database.js';
import type { ToolStatus } from '../preflight.js';
import type { EngineOverview } from '../translation/service.js';

/**
 * `GET /api/health`: a real round trip to the database, the job service's own check, and the
 * translation engines with their nodes' health as the translation service last saw them. The
 * status is `degraded` when the database or the queue fails, or when engines are configured and
 * none of them is ready to translate. `tools` names the external programs found missing at start
 * and the feature each one disables.
 */
/** The answer, as the OpenAPI document states it. */
const healthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), kind: z.string() }),
  queue: z.object({ ok: z.boolean() }),
  engines: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      enabled: z.boolean(),
      expired: z.boolean(),
      ready: z.boolean(),
      nodes: z.array(z.object({ id: z.number().int(), kind: z.string(), desired: z.enum(['running', 'stopped']), health: z.enum(['unknown', 'healthy', 'unhealthy', 'stopped', 'starting']) }).passthrough()),
    }),
  ),
  tools: z.object({ missing: z.array(z.object({ name: z.string(), debianPackage: z.string(), feature: z.string() })) }),
});

export function healthRoute(
  database: Database,
  jobs: { health(): Promise<{ ok: boolean; detail?: string }> },
  engines: () => EngineOverview[],
  tools: () => ToolStatus[] = () => [],
): RouteDefinition {
  return {
    method: 'GET',
    url: '/health',
    access: 'public',
    summary: 'Check the health of the server, database, job queue and engines',
    response: { data: healthAnswer },
    async handler() {
      const databaseOk = await database.query('select 1 as one').then(
        (rows) => rows.length === 1,
        () => false,
      );
      const queue = await jobs.health().catch((err: Error) => ({ ok: false, detail: err.message }));
      const list = engines();
      const enginesOk = list.length === 0 || list.some((e) => e.ready);
      return {
        status: databaseOk && queue.ok && enginesOk ? 'ok' : 'degraded',
        database: { ok: databaseOk, kind: database.kind },
        queue: { ok: queue.ok },
        engines: list,
        tools: { missing: tools().filter((t) => !t.ok).map(({ name, debianPackage, feature }) => ({ name, debianPackage, feature })) },
      };
    },
  };
}
