import { sql, type Kysely } from 'kysely';
import { like, type EngineAdmin, type EngineNodeRecord, type EngineRecord, type EngineWrite } from '@linguaport/sdk/server';
import type { KernelTables } from '../db/schema.js';

/**
 * `ctx.engineAdmin`: the translation service's engines, nodes and trusted licence keys for the
 * engine-management area, so that area edits them without the kernel's tables. jsonb columns are
 * written as JSON text (PGlite and pg alike); the service reloads when the area asks it to.
 */
export function createEngineAdmin(db: Kysely<KernelTables>): EngineAdmin {
  const JSON_COLUMNS = new Set(['node_ids', 'licence', 'language_abbreviations']);
  const engineSet = (e: EngineWrite) =>
    Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined).map(([k, v]) => [k, JSON_COLUMNS.has(k) && v !== null ? JSON.stringify(v) : v]));
  const asEngine = (r: unknown) => r as EngineRecord;
  const asNode = (r: unknown) => r as EngineNodeRecord;
  return {
    engines: {
      async page({ name, offset, limit }) {
        let q = db.selectFrom('engines');
        if (name) q = q.where('name', 'ilike', like(name));
        const [count, rows] = await Promise.all([q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(), q.selectAll().orderBy('id').limit(limit).offset(offset).execute()]);
        return { total: Number(count?.n ?? 0), engines: rows.map(asEngine) };
      },
      async get(id) {
        return asEngine((await db.selectFrom('engines').selectAll().where('id', '=', id).executeTakeFirst()) ?? null);
      },
      async create(engine) {
        return asEngine(await db.insertInto('engines').values(engineSet(engine) as never).returningAll().executeTakeFirstOrThrow());
      },
      async update(id, engine) {
        const set = engineSet(engine);
        if (Object.keys(set).length) await db.updateTable('engines').set(set).where('id', '=', id).execute();
      },
      async remove(id) {
        await db.deleteFrom('engines').where('id', '=', id).execute();
      },
      async setModel(id, model) {
        await db.transaction().execute(async (tx) => {
          const engine = await tx.selectFrom('engines').select(['image_name', 'node_ids']).where('id', '=', id).executeTakeFirst();
          if (!engine) return;
          await tx.updateTable('engines').set({ image_name: `${engine.image_name.split(':')[0]}:${model}` }).where('id', '=', id).execute();
          const nodeIds = engine.node_ids as number[];
          // Nodes whose adapter has a model field (the others run no chosen model).
          if (nodeIds.length) await sql`update engine_nodes set config = jsonb_set(config, '{model}', ${JSON.stringify(model)}::jsonb) where id in (${sql.join(nodeIds)}) and config ? 'model'`.execute(tx);
        });
      },
    },
    nodes: {
      async get(id) {
        return asNode((await db.selectFrom('engine_nodes').selectAll().where('id', '=', id).executeTakeFirst()) ?? null);
      },
      async list(query = {}) {
        let q = db.selectFrom('engine_nodes').selectAll();
        if (query.ids) q = q.where('id', 'in', query.ids.length ? [...query.ids] : [0]);
        if (query.kinds) q = q.where('kind', 'in', query.kinds.length ? [...query.kinds] : ['']);
        return (await q.orderBy('id').execute()).map(asNode);
      },
      async create(node, engineId) {
        return db.transaction().execute(async (tx) => {
          const row = await tx.insertInto('engine_nodes').values({ ...node, config: JSON.stringify(node.config) }).returningAll().executeTakeFirstOrThrow();
          if (engineId !== undefined) await sql`update engines set node_ids = node_ids || ${JSON.stringify([row.id])}::jsonb where id = ${engineId}`.execute(tx);
          return asNode(row);
        });
      },
      async remove(id) {
        await db.transaction().execute(async (tx) => {
          await tx.deleteFrom('engine_nodes').where('id', '=', id).execute();
          await sql`update engines set node_ids = coalesce((select jsonb_agg(e) from jsonb_array_elements(node_ids) e where e <> ${JSON.stringify(id)}::jsonb), '[]'::jsonb) where node_ids @> ${JSON.stringify([id])}::jsonb`.execute(tx);
        });
      },
    },
    trustedKeys: {
      async list() {
        const rows = await db.selectFrom('trusted_licence_keys').selectAll().orderBy('id').execute();
        return rows.map((r) => ({ id: r.id, name: r.name, publicKey: r.public_key, createdAt: new Date(r.created_at) }));
      },
      async add({ name, publicKey }) {
        const row = await db.insertInto('trusted_licence_keys').values({ name, public_key: publicKey }).onConflict((oc) => oc.column('public_key').doNothing()).returning('id').executeTakeFirst();
        return row?.id ?? null;
      },
      async remove(id) {
        await db.deleteFrom('trusted_licence_keys').where('id', '=', id).execute();
      },
    },
  };
}
