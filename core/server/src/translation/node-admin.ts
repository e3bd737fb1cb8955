import type { Kysely } from 'kysely';
import type { KernelTables } from '../db/schema.js';
import { ApiError, type EngineNodeStatus, type EngineService } from '@linguaport/sdk/server';
import { noSuchNode, type NodeSupervisor } from './node-supervisor.js';

/**
 * Node administration for the engine-management area (`ctx.engines.nodes`) and the engines'
 * overview of `GET /api/health`: a start or stop is saved as the node's `desired_state` (so a
 * restart of the server keeps it) and carried out by the supervisor.
 */

/** One engine as `GET /api/health` reports it. */
export interface EngineOverview {
  id: number;
  name: string;
  enabled: boolean;
  expired: boolean;
  /** Enabled, unexpired, and a node of it answers its health check. */
  ready: boolean;
  /** A node being started (APy loading its pairs) reads `starting`. */
  nodes: { id: number; kind: string; desired: 'running' | 'stopped'; health: EngineNodeStatus['health'] | 'starting'; restart: EngineNodeStatus['restart'] }[];
}

export function createNodeAdmin(supervisor: NodeSupervisor, db: Kysely<KernelTables>): EngineService['nodes'] {
  const status = (id: number) => supervisor.status(id);

  /** Saves what the administrator asked, in the table and in the loaded row. */
  async function setDesired(id: number, desired: 'running' | 'stopped'): Promise<void> {
    await db.updateTable('engine_nodes').set({ desired_state: desired }).where('id', '=', id).execute();
    supervisor.nodes.get(id)!.desired_state = desired;
  }

  return {
    async start(id) {
      await supervisor.load();
      await setDesired(id, 'running');
      try {
        await supervisor.startNode(id);
      } catch (err) {
        throw new ApiError(503, `The node did not start: ${(err as Error).message.split('\n')[0]}`);
      }
      return status(id);
    },
    async stop(id) {
      await supervisor.load();
      if (!supervisor.nodes.has(id)) throw noSuchNode(id);
      await setDesired(id, 'stopped');
      await supervisor.stopNode(id);
      await supervisor.saveHealth(id, 'stopped', null);
      return status(id);
    },
    async check(id) {
      if (supervisor.runtimes.has(id) || supervisor.restarts.has(id)) await supervisor.healthRound(id);
      return status(id);
    },
    status,
    local() {
      const out: { id: number; name: string; pid: number }[] = [];
      for (const [id, r] of supervisor.runtimes) {
        if (r.process?.running) out.push({ id, name: supervisor.nodes.get(id)?.container_name || `#${id}`, pid: r.process.pid });
      }
      return out;
    },
    async reload() {
      await supervisor.load();
      await supervisor.loadKnownPairs();
    },
  };
}

/** The engines and their nodes' health as this process sees them (no engine call). */
export function engineOverview(supervisor: NodeSupervisor, at: Date): EngineOverview[] {
  const t = at.getTime();
  const { nodes, runtimes, starting, restarts } = supervisor;
  return supervisor.engines.map((e) => {
    const expired = !!e.expires_at && new Date(e.expires_at).getTime() <= t;
    const list = e.node_ids
      .filter((id) => nodes.has(id))
      .map((id) => {
        const st = supervisor.status(id);
        const health = !runtimes.has(id) && starting.has(id) && !restarts.has(id) && !st.unavailable ? ('starting' as const) : st.health;
        return { id, kind: nodes.get(id)!.kind, desired: nodes.get(id)!.desired_state, health, restart: st.restart };
      });
    return { id: e.id, name: e.name, enabled: e.enabled, expired, ready: e.enabled && !expired && list.some((n) => n.health === 'healthy'), nodes: list };
  });
}
